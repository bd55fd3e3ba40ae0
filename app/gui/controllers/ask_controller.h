// AskController: the Ask panel. Reruns the pass whenever the panel's
// interventions change (the model and the unmodified pass reused), asks for the
// occlusion map while the attention screen is shown (its own job, filling in
// patch by patch, cancelled by the next request), chooses which pass the
// views show (modified, original, difference), applies the interventions given
// on the command line, and draws the window.
#pragma once
#include <memory>

#include "controllers/app_context.h"
#include "controllers/gpu_controller.h"
#include "logic/ask/ask_compare.h"
#include "logic/jobs/occlusion_job.h"
#include "panels/ask_panel.h"

namespace vit::gui {

class AskController {
public:
    AskController(AppContext& app, const GpuController& gpu, std::shared_ptr<Worker> worker);

    void keep_results(const Loaded& loaded);  // a pass arrived: its other passes and the question it answers
    bool at_start();  // the command line's interventions; true: the first-load steps wait for their pass
    // At the start of a frame and after its drawing: rerun when the question changed; the occlusion
    // map on the attention screen, or on any screen when a lesson step quotes it.
    void sync(bool occlusion_quoted);
    // Whether the pass shown gets an occlusion map: a model with a head whose pass keeps every
    // stage (a pass too large for that would take hours of masked passes and a block each).
    bool runs_occlusion() const;
    bool mapping() const { return occlusion_.busy(); }  // the occlusion map is under way
    std::shared_ptr<const Trace>
    views_trace();  // modified (the GPU's or the CPU's), original or their difference, as the panel says
    void draw_panel();

    AskResults& results() { return ask_; }
    const AskResults& results() const { return ask_; }
    AskPanelState& panel() { return ask_panel_; }

private:
    void sync_occlusion(bool wanted);  // asks for the map of the pass shown, cancels a stale one, shows the newest

    AppContext& app_;
    const GpuController& gpu_;
    AskPanelState ask_panel_;
    AskResults ask_;
    LoadRequest ask_request_;  // the request of the trace on screen
    Interventions ask_sent_;   // the last question sent to the loader
    OcclusionJob occlusion_;
    std::shared_ptr<const Tensor> input_;  // the input of the pass shown (the occlusion map masks it)
    uint64_t passes_ = 0;                  // counts the passes shown: the occlusion map's key
    uint64_t reported_ = 0;                // the last pass whose map's end was reported
    std::shared_ptr<const Trace> difference_;
    AskShow shown_choice_ = AskShow::Modified;
    bool asked_at_start_ = false;
};

}  // namespace vit::gui
