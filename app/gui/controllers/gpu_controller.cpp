// GpuController (controllers/gpu_controller.h): running the GPU backend when
// the GPU is chosen and the CPU trace changes, choosing which backend's Trace
// the views show, and the CPU vs GPU panel under the side panel.
#include "controllers/gpu_controller.h"

#include <imgui.h>

#include "panels/backend_panel.h"

namespace vit::gui {

GpuController::GpuController(AppContext& app) : app_(app) { gpu_.set_fail_test(app.options.gpu_fail_test); }

void GpuController::sync(const Interventions& asked) {
    bool changed = gpu_.update(app_.state, app_.model, app_.trace, app_.forward_ms, asked);
    bool show = app_.state.backend == Backend::Gpu && gpu_.has_result();
    if (changed || show != shown_gpu_) {
        shown_gpu_ = show;
        app_.new_views();
    }
    if (gpu_.status().failed && !gpu_error_shown_) {
        gpu_error_shown_ = true;
        std::string one = gpu_.status().error;  // one line for the bar; the panel shows the log as it is
        for (char& c : one) c = c == '\n' ? ' ' : c;
        if (one.size() > 240) one = one.substr(0, 240) + " …";
        app_.show_error("GPU backend: " + one + " — carrying on with the CPU core");
    }
}

std::shared_ptr<const Trace> GpuController::shown_trace() const {
    return shown_gpu_ && gpu_.trace() ? gpu_.trace() : app_.trace;
}

float GpuController::panel_height(float body_h) const {
    return BackendPanelVisible(app_.state, gpu_.status()) ? body_h * 0.5f : 0.f;
}

void GpuController::draw_panel(ViewContext& ctx, float body_h) {
    float h = panel_height(body_h);
    if (h <= 0.f) return;
    ImGui::BeginChild("gpu", ImVec2(0, h - ImGui::GetStyle().ItemSpacing.y), true);
    DrawBackendPanel(ctx, gpu_.comparison());
    ImGui::EndChild();
}

}  // namespace vit::gui
