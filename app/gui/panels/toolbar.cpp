// The toolbar.
#include "panels/toolbar.h"

#include <imgui.h>

#include "views/widgets/view_common.h"

namespace vit::gui {

void DrawToolbar(AppState& state, const Pipeline& p, const ToolbarInfo& info, UiActions& actions) {
    if (ImGui::Button("Open image…")) actions.show_open_image = true;
    ImGui::SameLine();
    if (ImGui::Button("Open model…")) actions.show_open_model = true;
    ImGui::SameLine(0, 24);
    if (ImGui::ArrowButton("prev", ImGuiDir_Left)) prev_stage(state, p);
    ImGui::SameLine();
    if (ImGui::ArrowButton("next", ImGuiDir_Right)) next_stage(state, p);
    ImGui::SameLine();
    bool att = state.screen == Screen::Attention;
    if (ImGui::Checkbox("Attention view", &att)) state.screen = att ? Screen::Attention : Screen::Stage;
    ImGui::SameLine();
    bool grid = state.screen == Screen::ModelView;
    if (ImGui::Checkbox("Model view", &grid)) state.screen = grid ? Screen::ModelView : Screen::Stage;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("every block × every head over the image (key L)");
    ImGui::SameLine();
    bool overview = state.screen == Screen::Overview;
    if (ImGui::Checkbox("Overview", &overview)) state.screen = overview ? Screen::Overview : Screen::Stage;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the whole model at a glance: every stage as a thumbnail (key V)");
    ImGui::SameLine(0, 24);
    if (ImGui::Button("Presenter (F11 or P)")) actions.toggle_presenter = true;
    ImGui::SameLine();
    if (ImGui::Button("Export PNG")) actions.export_png = true;
    ImGui::SameLine();
    if (ImGui::Button("Export .npy")) actions.export_npy = true;
    ImGui::SameLine(0, 24);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7.5f);
    static const char* kModes[] = {"colours: auto", "diverging", "sequential"};
    int mode = static_cast<int>(state.colormap);
    if (ImGui::Combo("##colormap", &mode, kModes, 3)) state.colormap = static_cast<ColormapMode>(mode);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("auto: blue-white-red around 0 for signed numbers,\nviridis for probabilities and attention");
    ImGui::SameLine();
    ImGui::Checkbox("numbers", &state.show_numbers);
    ImGui::SameLine();
    ImGui::Checkbox("clicker", &state.clicker);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "clicker mode: PageUp/PageDown step one stage (what presentation clickers send)\n"
            "instead of one block. Ctrl+1..9 (or Alt+1..9) bookmarks the view, 1..9 returns to it.");
    // The CPU/GPU switch: "compute:" and two radio buttons.
    const ImGuiStyle& style = ImGui::GetStyle();
    const char* gpu_label = info.gpu_absent.empty() ? "GPU" : "GPU (desktop app only)";
    SameLineOrWrap(ImGui::CalcTextSize("compute: CPU ").x + ImGui::CalcTextSize(gpu_label).x +
                   2 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x) + 2 * style.ItemSpacing.x);
    ImGui::TextUnformatted("compute:");
    ImGui::SameLine();
    if (ImGui::RadioButton("CPU", state.backend == Backend::Cpu)) state.backend = Backend::Cpu;
    ImGui::SameLine();
    if (!info.gpu_available) ImGui::BeginDisabled();
    if (ImGui::RadioButton(gpu_label, state.backend == Backend::Gpu)) state.backend = Backend::Gpu;
    if (!info.gpu_available) ImGui::EndDisabled();
    if (!info.gpu_available && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip(
            "%s", info.gpu_absent.empty()
                      ? "the GPU backend is not available (no OpenGL 4.3, or it failed: see the CPU vs GPU panel)"
                      : info.gpu_absent.c_str());
}

}  // namespace vit::gui
