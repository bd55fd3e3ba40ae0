// The screen table and its look-ups (see screens.h).
#include "logic/state/screens.h"

namespace vit::gui {

const std::vector<ScreenInfo>& screen_table() {
    using F = HandoutFigure;
    using J = ScreenJob;
    using T = TourStage;
    const ModelParts none, blocks{true, false, false}, head{true, true, false}, cls{true, false, true};
    static const std::vector<ScreenInfo> table = {
        {"stage", Screen::Stage, "One stage", std::nullopt, none, T::None, J::None, F::StageShown},
        {"attention", Screen::Attention, "Attention over the image", Key::A, blocks, T::Last, J::None,
         F::LayerAttention},
        {"why", Screen::Why, "Why this class?", Key::W, head, T::Last, J::Explanation, F::None},
        {"model-view", Screen::ModelView, "Model view: blocks × heads", Key::L, blocks, T::Last, J::EveryBlock,
         F::LayerAttention},
        {"overview", Screen::Overview, "The whole model at a glance", Key::V, none, T::FirstAttention, J::None,
         F::None},
        {"attention-distance", Screen::AttentionDistance, "How far heads look (ViT Fig. 7)", Key::F, blocks,
         T::LastBlockOutput, J::EveryBlock, F::None},
        {"patch-pca", Screen::PatchFeatures, "Patch features as colours (PCA)", Key::F, blocks, T::LastBlockOutput,
         J::JointPca, F::None},
        {"token-norms", Screen::TokenNorms, "Token norms and attention sinks", Key::F, blocks, T::LastBlockOutput,
         J::None, F::None},
        {"cls-masks", Screen::ClsMasks, "DINO's CLS attention masks", Key::F, cls, T::LastBlockOutput, J::None,
         F::None},
    };
    return table;
}

const ScreenInfo& screen_info(Screen screen) { return screen_table()[static_cast<size_t>(screen)]; }
const char* screen_name(Screen screen) { return screen_info(screen).name; }
const char* screen_title(Screen screen) { return screen_info(screen).title; }

bool parse_screen(const std::string& name, Screen& screen) {
    for (const ScreenInfo& s : screen_table())
        if (name == s.name) {
            screen = s.value;
            return true;
        }
    return false;
}

std::string screen_names() {
    const std::vector<ScreenInfo>& table = screen_table();
    std::string all;
    for (size_t i = 0; i < table.size(); ++i)
        all += std::string(i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + table[i].name;
    return all;
}

std::vector<Screen> screens_on_key(Key key) {
    std::vector<Screen> screens;
    for (const ScreenInfo& s : screen_table())
        if (s.key == key) screens.push_back(s.value);
    return screens;
}

// The letter printed on a key the screens use.
static std::string letter_of(Key key) {
    switch (key) {
        case Key::A: return "A";
        case Key::L: return "L";
        case Key::V: return "V";
        case Key::W: return "W";
        case Key::F: return "F";
        default: return "?";
    }
}

std::string screen_key_label(Screen screen) {
    const std::optional<Key> key = screen_info(screen).key;
    if (!key) return "";
    const std::vector<Screen> on_key = screens_on_key(*key);
    size_t presses = 1;
    while (on_key[presses - 1] != screen) ++presses;
    const std::string letter = letter_of(*key);
    if (presses > 3) return letter + " ×" + std::to_string(presses);
    std::string label = letter;
    for (size_t i = 1; i < presses; ++i) label += " " + letter;
    return label;
}

std::string parts_lacking(const ModelParts& needs, const ModelParts& parts) {
    if (needs.blocks && !parts.blocks) return "needs attention, and the model has no blocks";
    if (needs.head && !parts.head) return "needs a class head, and the model has none";
    if (needs.cls && !parts.cls) return "needs a CLS token, and the model has none";
    return "";
}

std::string screen_lacks(Screen screen, const ModelParts& parts) {
    return parts_lacking(screen_info(screen).needs, parts);
}

}  // namespace vit::gui
