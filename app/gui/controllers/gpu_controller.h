// GpuController: runs the GPU backend (GpuSession) when the GPU is chosen and
// the CPU trace changes, chooses which backend's Trace the views show, says once
// when the GPU failed, and draws the CPU vs GPU panel under the side panel.
#pragma once
#include "controllers/app_context.h"
#include "controllers/gpu_session.h"

namespace vit::gui {

struct ViewContext;

class GpuController {
public:
    explicit GpuController(AppContext& app);

    // Once per frame, before drawing. `asked`: the interventions the CPU trace was computed under.
    void sync(const Interventions& asked);
    std::shared_ptr<const Trace> shown_trace() const;  // the GPU trace when the GPU is chosen and has one
    bool shown() const { return shown_gpu_; }          // the trace on screen is the GPU's
    const GpuSession& session() const { return gpu_; }
    float panel_height(float body_h) const;
    void draw_panel(ViewContext& ctx, float body_h);

private:
    AppContext& app_;
    GpuSession gpu_;
    bool shown_gpu_ = false;
    bool gpu_error_shown_ = false;
};

}  // namespace vit::gui
