// The CPU vs GPU panel, under the side panel: the device, the time of
// each backend, the largest |gpu − cpu| over every stage and in the current
// stage (where, and both values), and a heatmap of |gpu − cpu| for the current
// stage (sequential colours, colour bar). When the GPU backend could not start
// it shows why, with the shader compile log, and that the CPU core carries on.
#pragma once
#include "logic/describe/gpu_compare.h"
#include "views/widgets/view_common.h"

namespace vit::gui {

// Whether the panel has something to show (the GPU is chosen, or it failed).
bool BackendPanelVisible(const AppState& state, const GpuStatus& gpu);
// ctx.trace is the trace on screen (either backend's); the differences come from `gpu`.
void DrawBackendPanel(ViewContext& ctx, const GpuComparison& gpu);

}  // namespace vit::gui
