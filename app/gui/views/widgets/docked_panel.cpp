// A docked panel: an opaque child window with a title row (see docked_panel.h).
#include "views/widgets/docked_panel.h"

#include <algorithm>

namespace vit::gui {

void BeginDockedPanel(const char* id, const char* title, bool* open, ImVec2 size) {
    ImVec4 background = ImGui::GetStyleColorVec4(ImGuiCol_WindowBg);
    background.w = 1.f;  // opaque: nothing behind shows through its text or curves
    ImGui::PushStyleColor(ImGuiCol_ChildBg, background);
    ImGui::BeginChild(id, size, true, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::PopStyleColor();
    ImGui::TextUnformatted(title);
    const char* close = "close";
    const float close_w = ImGui::CalcTextSize(close).x + ImGui::GetStyle().FramePadding.x * 2.f;
    ImGui::SameLine(std::max(ImGui::GetCursorPosX() + 16.f, ImGui::GetWindowContentRegionMax().x - close_w));
    if (ImGui::SmallButton(close)) *open = false;
    ImGui::Separator();
}

float EndDockedPanel() {
    const float wanted = ImGui::GetCursorPosY() - ImGui::GetStyle().ItemSpacing.y + ImGui::GetStyle().WindowPadding.y;
    ImGui::EndChild();
    return wanted;
}

float DockedHeight(float wanted, float cap) { return wanted > 0.f ? std::min(wanted, cap) : cap; }

}  // namespace vit::gui
