// The status and message bars.
#include "panels/status_bar.h"

#include <imgui.h>

#include "logic/describe/drawn_text.h"

namespace vit::gui {

void DrawStatusBar(const StatusInfo& s) {
    ImGuiIO& io = ImGui::GetIO();
    ImGui::Text("%.0f FPS", io.Framerate);
    ImGui::SameLine(0, 24);
    ImGui::Text("model %s  (D=%d, %d heads, %d blocks)", s.model.c_str(), s.embed_dim, s.heads, s.depth);
    ImGui::SameLine(0, 24);
    ImGui::Text("image %s", s.image.c_str());
    ImGui::SameLine(0, 24);
    if (s.kept_tokens > 0 && s.kept_tokens < s.tokens)
        ImGui::Text("T=%d of %d tokens (dropped %d)", s.kept_tokens, s.tokens, s.tokens - s.kept_tokens);
    else
        ImGui::Text("T=%d tokens", s.tokens);
    ImGui::SameLine(0, 24);
    ImGui::Text("forward %.1f ms (%s)", s.forward_ms, s.backend);
    if (!s.compact) {
        ImGui::SameLine(0, 24);
        ImGui::TextDisabled("textures %zu, uploads %llu", s.textures, s.uploads);
    }
    if (s.busy) {
        ImGui::SameLine(0, 24);
        ImGui::ProgressBar(s.progress, ImVec2(ImGui::GetFontSize() * 10, 0), s.phase.c_str());
    }
}

bool DrawMessageBar(const Message& m) {
    double age = ImGui::GetTime() - m.shown_at;
    if (!m.error && age > 6.0) return false;
    ImVec4 bg = m.error ? ImVec4(0.55f, 0.1f, 0.1f, 1.f) : ImVec4(0.1f, 0.4f, 0.2f, 1.f);
    ImGui::PushStyleColor(ImGuiCol_ChildBg, bg);
    float h = ImGui::GetFrameHeightWithSpacing() + 4;
    ImGui::BeginChild("message", ImVec2(0, h), false, ImGuiWindowFlags_NoScrollbar);
    ImGui::SetCursorPos(ImVec2(8, 4));
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(m.error ? "Error:" : "Done:");
    ImGui::SameLine();
    ImGui::TextUnformatted(drawn_text(m.text).c_str());
    ImGui::SameLine(ImGui::GetWindowWidth() - ImGui::GetFontSize() * 5);
    bool keep = !ImGui::Button("Dismiss");
    ImGui::EndChild();
    ImGui::PopStyleColor();
    return keep;
}

}  // namespace vit::gui
