// The toolbar.
#include "panels/toolbar.h"

#include <imgui.h>

#include "views/widgets/view_common.h"

namespace vit::gui {

// The screens' switches: the stage arrows and the attention, model and overview screens.
static void screen_switches(AppState& state, const Pipeline& p) {
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
}

void DrawToolbar(AppState& state, const Pipeline& p, const ToolbarInfo& info, UiActions& actions) {
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    if (info.stages_drawer) {
        ImGui::Checkbox("Stages", info.stages_drawer);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("the list of every stage (folded on a narrow window)");
        ImGui::SameLine(0, 24);
    }
    if (ImGui::Button("Open image…")) actions.show_open_image = true;
    ImGui::SameLine();
    if (ImGui::Button("Open model…")) actions.show_open_model = true;
    SameLineOrWrap(2.f * ImGui::GetFrameHeight() + CheckboxWidth("Attention view") + CheckboxWidth("Model view") +
                   CheckboxWidth("Overview") + 4.f * spacing);
    screen_switches(state, p);
    SameLineOrWrap(ButtonWidth("Presenter (F11 or P)") + ButtonWidth("Export PNG") + ButtonWidth("Export .npy") +
                   2.f * spacing);
    if (ImGui::Button("Presenter (F11 or P)")) actions.toggle_presenter = true;
    ImGui::SameLine();
    if (ImGui::Button("Export PNG")) actions.export_png = true;
    ImGui::SameLine();
    if (ImGui::Button("Export .npy")) actions.export_npy = true;
    const float combo_w = ButtonWidth("colours: auto") + ImGui::GetFrameHeight();  // its text and its arrow
    SameLineOrWrap(combo_w + CheckboxWidth("numbers") + CheckboxWidth("clicker") + 2.f * spacing);
    ImGui::SetNextItemWidth(combo_w);
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
    const char* gpu_label = info.gpu_absent.empty() ? "GPU" : "GPU (desktop app only)";
    SameLineOrWrap(RadioRowWidth("compute:", {"CPU", gpu_label}));
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
