// The status and message bars.
#include "panels/status_bar.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "logic/ask/pass_banner.h"
#include "logic/describe/drawn_text.h"

namespace vit::gui {

// `text` after the line's items when the whole of it fits before the window's edge, else
// nothing (the bar's last items are the least needed: never cut in the middle).
static bool TextIfItFits(const char* text, bool disabled) {
    ImGui::SameLine(0, 24);
    if (ImGui::CalcTextSize(text).x > ImGui::GetContentRegionAvail().x) return false;
    if (disabled) ImGui::TextDisabled("%s", text);
    else ImGui::TextUnformatted(text);
    return true;
}

// `text` whole when it is at most `width` wide, else "…" and its last words that fit.
static std::string TailThatFits(const std::string& text, float width) {
    std::string tail = text;
    for (size_t space = 0; ImGui::CalcTextSize(tail.c_str()).x > width;) {
        space = text.find(' ', space + 1);
        if (space == std::string::npos) break;
        tail = "…" + text.substr(space + 1);
    }
    return tail;
}

bool DrawStatusBar(const StatusInfo& s) {
    ImGuiIO& io = ImGui::GetIO();
    if (s.fonts_missing) {
        ImGui::TextColored(ImVec4(1.f, 0.6f, 0.2f, 1.f), "no DejaVu font: install fonts-dejavu-core");
        ImGui::SameLine(0, 24);
    }
    if (s.loaded) {
        ImGui::TextUnformatted(s.prediction.c_str());
        ImGui::SameLine(0, 24);
    }
    ImGui::TextUnformatted(status_model_text(s.model, s.loaded, s.embed_dim, s.heads, s.depth).c_str());
    ImGui::SameLine(0, 24);
    ImGui::Text("image %s", s.image.c_str());
    if (s.loaded) {
        ImGui::SameLine(0, 24);
        if (s.kept_tokens > 0 && s.kept_tokens < s.tokens)
            ImGui::Text("T=%d of %d tokens (dropped %d)", s.kept_tokens, s.tokens, s.tokens - s.kept_tokens);
        else ImGui::Text("T=%d tokens", s.tokens);
        ImGui::SameLine(0, 24);
        ImGui::Text("forward %.1f ms (%s)", s.forward_ms, s.backend);
    }
    if (s.busy) {  // as wide as its words, so they are never cut at both ends, within the window
        ImGui::SameLine(0, 24);
        const char* cancel = "Cancel download";
        const float cancel_w =
            s.downloading ? ImGui::CalcTextSize(cancel).x + 3 * ImGui::GetStyle().ItemSpacing.x : 0.f;
        const float w = std::min(
            ImGui::GetContentRegionAvail().x - cancel_w,
            std::max(ImGui::GetFontSize() * 10, ImGui::CalcTextSize(s.phase.c_str()).x + 2 * ImGui::GetFontSize()));
        ImGui::ProgressBar(s.progress, ImVec2(w, 0), TailThatFits(s.phase, w - ImGui::GetFontSize()).c_str());
        ImGui::SameLine();
        if (s.downloading && ImGui::SmallButton(cancel)) return true;
    }
    char fps[32];
    std::snprintf(fps, sizeof fps, "%.0f FPS", io.Framerate);
    if (!TextIfItFits(fps, false) || s.compact) return false;
    char textures[64];
    std::snprintf(textures, sizeof textures, "textures %zu, uploads %llu", s.textures, s.uploads);
    TextIfItFits(textures, true);
    return false;
}

constexpr float kBannerMargin = 8.f;  // between the banner's edge and its text, left and right

// The banner's box: the window's width, and its text wrapped between words (a narrow window takes
// two lines) with the frame's padding above and below.
static ImVec2 banner_box(const std::string& text) {
    const float width = ImGui::GetContentRegionAvail().x;
    const float text_h = ImGui::CalcTextSize(drawn_text(text).c_str(), nullptr, false, width - 2.f * kBannerMargin).y;
    return ImVec2(width, text_h + 2.f * ImGui::GetStyle().FramePadding.y);
}

float PassBannerHeight(const std::string& text) {
    if (text.empty()) return 0.f;
    return banner_box(text).y + ImGui::GetStyle().ItemSpacing.y;
}

void DrawPassBanner(const std::string& text, BannerKind kind) {
    if (text.empty()) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 p0 = ImGui::GetCursorScreenPos();
    const ImVec2 size = banner_box(text);
    const ImU32 fill = kind == BannerKind::ModifiedPass ? IM_COL32(200, 110, 0, 255) : IM_COL32(175, 175, 195, 255);
    dl->AddRectFilled(p0, ImVec2(p0.x + size.x, p0.y + size.y), fill, 3.f);
    const std::string shown = drawn_text(text);
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(),
                ImVec2(p0.x + kBannerMargin, p0.y + ImGui::GetStyle().FramePadding.y), IM_COL32(0, 0, 0, 255),
                shown.c_str(), nullptr, size.x - 2.f * kBannerMargin);
    ImGui::Dummy(size);
}

bool DrawMessageBar(const Message& m) {
    double age = ImGui::GetTime() - m.shown_at;
    if (!m.error && age > 6.0) return false;
    ImVec4 bg = m.error ? ImVec4(0.55f, 0.1f, 0.1f, 1.f) : ImVec4(0.1f, 0.4f, 0.2f, 1.f);
    const char* label = m.error ? "Error:" : "Done:";
    const std::string text = drawn_text(m.text);
    const ImGuiStyle& style = ImGui::GetStyle();
    const float button_w = ImGui::GetFontSize() * 5;  // "Dismiss", at the right
    // A long message wraps between the label and the button rather than running under it.
    const float wrap = std::max(
        ImGui::GetContentRegionAvail().x - 16.f - button_w - ImGui::CalcTextSize(label).x - style.ItemSpacing.x * 2,
        ImGui::GetFontSize() * 10);
    const float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap).y;
    const float h = std::max(ImGui::GetFrameHeightWithSpacing(), text_h + style.FramePadding.y * 2) + 4;
    ImGui::PushStyleColor(ImGuiCol_ChildBg, bg);
    ImGui::BeginChild("message", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPos(ImVec2(8, 4));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(label);
    ImGui::SameLine();
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(ImGui::GetWindowWidth() - button_w);
    ImGui::SetCursorPosY(4);
    bool keep = !ImGui::Button("Dismiss");
    ImGui::EndChild();
    ImGui::PopStyleColor();
    return keep;
}

}  // namespace vit::gui
