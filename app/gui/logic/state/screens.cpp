// The screen table and its look-ups (see screens.h).
#include "logic/state/screens.h"

namespace vit::gui {

const std::vector<ScreenInfo>& screen_table() {
    static const std::vector<ScreenInfo> table = {
        {"stage", Screen::Stage, "One stage"},
        {"attention", Screen::Attention, "Attention over the image"},
        {"why", Screen::Why, "Why this class?"},
        {"overview", Screen::Overview, "The whole model at a glance"},
        {"model-view", Screen::ModelView, "Model view: blocks × heads"},
        {"attention-distance", Screen::AttentionDistance, "How far heads look (ViT Fig. 7)"},
        {"patch-pca", Screen::PatchFeatures, "Patch features as colours (PCA)"},
        {"token-norms", Screen::TokenNorms, "Token norms and attention sinks"},
        {"cls-masks", Screen::ClsMasks, "DINO's CLS attention masks"},
    };
    return table;
}

const std::vector<Screen>& findings_screens() {
    static const std::vector<Screen> screens = {Screen::AttentionDistance, Screen::PatchFeatures, Screen::TokenNorms,
                                                Screen::ClsMasks};
    return screens;
}

static const ScreenInfo& info_of(Screen screen) {
    for (const ScreenInfo& s : screen_table())
        if (s.value == screen) return s;
    return screen_table().front();
}

const char* screen_name(Screen screen) { return info_of(screen).name; }
const char* screen_title(Screen screen) { return info_of(screen).title; }

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

}  // namespace vit::gui
