// AskController (controllers/ask_controller.h): rerunning the pass whenever
// the panel's interventions change, the occlusion map while the attention
// screen is shown or a lesson step quotes it (occlusion_job.h), which pass the
// views show, the interventions given on the command line (and the tour's Ask
// shot), and the window itself.
#include "controllers/ask_controller.h"

#include <imgui.h>

#include <cstdio>

#include "base/error.h"

namespace vit::gui {

AskController::AskController(AppContext& app, const GpuController& gpu, std::shared_ptr<Worker> worker)
    : app_(app), gpu_(gpu), occlusion_(std::move(worker)) {}

void AskController::keep_results(const Loaded& loaded) {
    ask_.original = loaded.original;
    ask_.lens = loaded.lens;
    ask_.asked = loaded.request.interventions;
    ask_request_ = loaded.request;
    ask_request_.original.reset();
    ask_request_.input = loaded.input;  // the panel's reruns take the image's input as it is
    ask_sent_ = loaded.request.interventions;
    difference_.reset();
    input_ = loaded.input;
    ++passes_;
    if (ask_.occlusion && !occlusion_fits(*ask_.occlusion, *loaded.model, *loaded.input)) ask_.occlusion.reset();
    ask_.occlusion_stale = ask_.occlusion.has_value();  // until the new pass's map replaces it
}

bool AskController::at_start() {
    if (!app_.options.interventions.any() || asked_at_start_) return false;
    asked_at_start_ = true;
    try {
        const int grid =
            static_cast<int>(app_.trace->at(StageRef{StageKind::Input}).shape[1] / app_.model->config.patch_size);
        const Interventions iv = app_.options.interventions.resolve(app_.model->config, grid);
        fit_ask(app_.state.ask, app_.pipeline.patches(), app_.pipeline.depth, app_.pipeline.heads);
        set_interventions(app_.state.ask, iv);
        ask_panel_.visible = true;
        return !iv.empty();  // the first-load steps wait for the pass under these interventions
    } catch (const Error& e) {
        return app_.fail(e.what());  // the first-load steps wait for nothing when the run ends
    }
}

void AskController::sync(bool occlusion_quoted) {
    if (!app_.model || !app_.trace) return;
    fit_ask(app_.state.ask, app_.pipeline.patches(), app_.pipeline.depth, app_.pipeline.heads);
    if (app_.state.ask.show != shown_choice_) {  // the views' textures belong to the other pass now
        shown_choice_ = app_.state.ask.show;
        app_.new_views();
    }
    const Interventions want = to_interventions(app_.state.ask);
    if (!app_.loader.busy() && !(want == ask_sent_)) {
        LoadRequest r = ask_request_;
        r.interventions = want;
        r.original = ask_.original;
        ask_sent_ = want;  // a request that fails is not sent again until the question changes
        app_.loader.request(r, app_.model, app_.model_name);
        ask_.occlusion_stale = ask_.occlusion.has_value();  // the map on screen answers the question before
    }
    sync_occlusion((app_.state.screen == Screen::Attention || occlusion_quoted) && runs_occlusion());
}

bool AskController::runs_occlusion() const {
    return app_.model && app_.trace && app_.model->config.num_classes > 0 && app_.trace->keep() == TraceKeep::Every;
}

// A new request (a question, an image, a model) stops the map within a piece:
// its pass will be another. What was computed stays on screen, marked stale.
void AskController::sync_occlusion(bool wanted) {
    if (app_.loader.busy()) occlusion_.cancel();
    else if (wanted && input_) occlusion_.request(app_.model, input_, ask_.asked, passes_);
    const OcclusionProgress* got = occlusion_.poll();
    if (!got) return;
    const bool current = got->generation == passes_;
    const bool ended = !got->error.empty() || got->map.complete();
    if (current && ended && reported_ != passes_) {  // once per map
        reported_ = passes_;
        if (!got->error.empty()) {
            app_.fail("occlusion map: " + got->error);  // no shot waits for a map that will not come
        } else
            std::printf("vitviz: occlusion map of %s: %zu masked passes in %.1f ms\n", app_.model->config.name.c_str(),
                        got->map.probabilities.size(), got->ms);
    }
    if (!got->error.empty() || !input_ || !occlusion_fits(got->map, *app_.model, *input_)) return;
    ask_.occlusion = got->map;
    ask_.occlusion_ms = got->ms;
    ask_.occlusion_stale = !current || app_.loader.busy();  // a pass on its way will replace it
}

std::shared_ptr<const Trace> AskController::views_trace() {
    if (app_.state.ask.show == AskShow::Original && ask_.original) return ask_.original;
    if (app_.state.ask.show == AskShow::Difference && ask_.original) {
        if (!difference_) difference_ = std::make_shared<const Trace>(difference_trace(*app_.trace, *ask_.original));
        return difference_;
    }
    return gpu_.shown_trace();
}

void AskController::draw_panel() {
    if (!app_.trace || !app_.model || app_.pipeline.ids.empty()) return;
    ViewContext ctx = app_.views(views_trace());
    ctx.ask = &ask_;
    DrawAskPanel(ask_panel_, ctx, *app_.trace, app_.loader.busy());
}

}  // namespace vit::gui
