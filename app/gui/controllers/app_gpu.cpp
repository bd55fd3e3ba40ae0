// The App's GPU hooks, kept apart from app.cpp: running the GPU
// backend when the GPU is chosen and the CPU trace changes, choosing which
// backend's Trace the views show, and the CPU vs GPU panel under the side panel.
#include <imgui.h>

#include "controllers/app.h"
#include "panels/backend_panel.h"

namespace vit::gui {

void App::sync_gpu() {
    bool changed = gpu_.update(state_, model_, trace_, forward_ms_, ask_.asked);
    bool show = state_.backend == Backend::Gpu && gpu_.has_result();
    if (changed || show != shown_gpu_) {
        // The views' textures and derived numbers belong to the other trace now.
        shown_gpu_ = show;
        ++generation_;
        cache_.clear();
        derived_.clear();
    }
    if (gpu_.status().failed && !gpu_error_shown_) {
        gpu_error_shown_ = true;
        std::string one = gpu_.status().error;  // one line for the bar; the panel shows the log as it is
        for (char& c : one) c = c == '\n' ? ' ' : c;
        if (one.size() > 240) one = one.substr(0, 240) + " …";
        show_error("GPU backend: " + one + " — carrying on with the CPU core");
    }
}

const Trace& App::shown_trace() const { return shown_gpu_ && gpu_.trace() ? *gpu_.trace() : *trace_; }

float App::gpu_panel_height(float body_h) const {
    return BackendPanelVisible(state_, gpu_) ? body_h * 0.5f : 0.f;
}

void App::draw_gpu_panel(ViewContext& ctx, float body_h) {
    float h = gpu_panel_height(body_h);
    if (h <= 0.f) return;
    ImGui::BeginChild("gpu", ImVec2(0, h - ImGui::GetStyle().ItemSpacing.y), true);
    DrawBackendPanel(ctx, gpu_);
    ImGui::EndChild();
}

}  // namespace vit::gui
