// The status bar (the prediction, model, image, tokens, forward time, FPS,
// texture uploads, the progress of a load), the banner that marks a modified
// pass on every screen, and the message bar that shows errors and notices
// until dismissed or timed out.
#pragma once
#include <string>

namespace vit::gui {

struct Message {
    std::string text;
    bool error = false;
    double shown_at = 0.0;  // ImGui time; notices fade after a few seconds, errors stay
};

struct StatusInfo {
    std::string model, image;
    bool loaded = false;     // a model and its pass are there (else the bar says loading)
    std::string prediction;  // "prediction: 7 (98%)" (pass_banner.h)
    int tokens = 0, embed_dim = 0, heads = 0, depth = 0;
    int kept_tokens = 0;  // the tokens the encoder sees (fewer than `tokens` when some are dropped)
    double forward_ms = 0.0;
    size_t textures = 0;
    unsigned long long uploads = 0;
    bool busy = false;
    float progress = 0.f;
    std::string phase;
    const char* backend = "CPU";
    bool compact = false;        // presenter mode: leave out the texture counts
    bool downloading = false;    // the load under way downloads a model: the bar offers to cancel it
    bool fonts_missing = false;  // drawn with ImGui's ASCII font: the bar says which package brings the app's font
};

// Returns true when the download's Cancel button was pressed.
bool DrawStatusBar(const StatusInfo& info);
// A banner over every screen, a full-width strip: the modified pass's (`text` from
// modified_pass_text, orange) or a random-weight model's (random_weights_text, grey);
// nothing for "". PassBannerHeight: its height, 0 for "".
enum class BannerKind { ModifiedPass, RandomWeights };
void DrawPassBanner(const std::string& text, BannerKind kind = BannerKind::ModifiedPass);
float PassBannerHeight(const std::string& text);
// Returns false when the message should go (dismissed or expired).
bool DrawMessageBar(const Message& msg);

}  // namespace vit::gui
