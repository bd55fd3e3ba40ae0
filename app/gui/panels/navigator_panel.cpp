// The pipeline navigator panel.
#include "panels/navigator_panel.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <utility>

namespace vit::gui {

// The widest stage name (monospace) and the widest description.
static ImVec2 column_widths(const Pipeline& p, const Fonts& fonts) {
    ImVec2 w(0.f, 0.f);
    ImGui::PushFont(fonts.mono);
    for (const StageRef& s : p.stages) w.x = std::max(w.x, ImGui::CalcTextSize(stage_def(s.kind).name).x);
    ImGui::PopFont();
    for (const StageRef& s : p.stages) w.y = std::max(w.y, ImGui::CalcTextSize(stage_def(s.kind).short_name).x);
    return w;
}

float NavigatorWidth(const Pipeline& p, const Fonts& fonts) {
    const ImVec2 w = column_widths(p, fonts);
    const ImGuiStyle& style = ImGui::GetStyle();
    return w.x + ImGui::GetFontSize() + w.y + 2 * style.WindowPadding.x + style.ScrollbarSize + 8.f;
}

void DrawNavigator(NavigatorState& nav, AppState& state, const Pipeline& p, const Fonts& fonts) {
    bool moved = nav.scrolled_to != state.stage || nav.scrolled_screen != state.screen;
    // The descriptions start after the longest stage name, so no name runs into its description.
    const float description_x = ImGui::GetCursorPosX() + column_widths(p, fonts).x + ImGui::GetFontSize();
    int i = 0;
    while (i < p.size()) {
        int g = p.group[i];
        int end = i;
        while (end < p.size() && p.group[end] == g) ++end;
        bool current_group = state.stage >= i && state.stage < end && state.screen == Screen::Stage;
        if (moved && current_group) ImGui::SetNextItemOpen(true);
        else if (p.depth <= 2) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
        std::string header = group_name(p, g) + "##group" + std::to_string(g);
        if (ImGui::CollapsingHeader(header.c_str())) {
            for (int k = i; k < end; ++k) {
                const StageDef& def = stage_def(p.stages[k].kind);
                bool selected = k == state.stage && state.screen == Screen::Stage;
                ImGui::PushID(k);
                ImGui::PushFont(fonts.mono);
                if (ImGui::Selectable(def.name, selected)) {
                    go_to_stage(state, p, k);
                    state.screen = Screen::Stage;
                }
                ImGui::PopFont();
                if (selected && moved) ImGui::SetScrollHereY(0.4f);
                ImGui::SameLine(description_x);
                ImGui::TextDisabled("%s", def.short_name);
                ImGui::PopID();
            }
        }
        i = end;
    }
    ImGui::Separator();
    // The screens beside the stages, each with the keys that show it (logic/state/screens.cpp).
    for (const ScreenInfo& screen : screen_table()) {
        if (screen.value == Screen::Stage) continue;
        const std::string label = std::string(screen.title) + "  (" + screen_key_label(screen.value) + ")";
        const bool selected = state.screen == screen.value;
        if (ImGui::Selectable(label.c_str(), selected)) state.screen = selected ? Screen::Stage : screen.value;
        if (selected && moved) ImGui::SetScrollHereY(0.4f);  // the screen on view, whatever was shown before
    }
    nav.scrolled_to = state.stage;
    nav.scrolled_screen = state.screen;
}

}  // namespace vit::gui
