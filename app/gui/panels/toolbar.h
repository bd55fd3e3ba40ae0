// The toolbar across the top: open an image or a model, step, switch to the
// attention screen, presenter mode, export, colormap, numbers, CPU/GPU.
#pragma once
#include "logic/state/app_state.h"
#include "logic/state/ui_actions.h"

namespace vit::gui {

struct ToolbarInfo {
    bool gpu_available = false;     // the GPU backend (gpu/) is built and has a context
    std::string gpu_absent;         // why this build has no GPU backend ("" where it has one)
    bool busy = false;              // loading or computing
    bool* stages_drawer = nullptr;  // the folded navigator's drawer (window_layout.h): a switch heads the row
};

void DrawToolbar(AppState& state, const Pipeline& p, const ToolbarInfo& info, UiActions& actions);

}  // namespace vit::gui
