// AskController (controllers/ask_controller.h): rerunning the pass whenever
// the panel's interventions change, the occlusion map while the attention
// screen is shown, which pass the views show, the interventions given on the
// command line (and the tour's Ask shot), and the window itself.
#include "controllers/ask_controller.h"

#include <imgui.h>

#include <cstdio>

#include "base/error.h"

namespace vit::gui {

AskController::AskController(AppContext& app, const GpuController& gpu) : app_(app), gpu_(gpu) {}

void AskController::keep_results(const Loaded& loaded) {
    ask_.original = loaded.original;
    ask_.occlusion = loaded.occlusion;
    ask_.occlusion_ms = loaded.occlusion_ms;
    ask_.lens = loaded.lens;
    ask_.asked = loaded.request.interventions;
    ask_request_ = loaded.request;
    ask_request_.original.reset();
    ask_sent_ = {loaded.request.interventions, loaded.request.occlusion};
    difference_.reset();
    if (loaded.occlusion)
        std::printf("vitviz: occlusion map of %s: %zu masked passes in %.1f ms\n", loaded.model->config.name.c_str(),
                    loaded.occlusion->probabilities.size(), loaded.occlusion_ms);
}

bool AskController::at_start() {
    if (!app_.options.interventions.any() || asked_at_start_) return false;
    asked_at_start_ = true;
    try {
        const int grid = static_cast<int>(app_.trace->at(StageRef{StageKind::Input}).shape[1] / app_.model->config.patch_size);
        const Interventions iv = app_.options.interventions.resolve(app_.model->config, grid);
        fit_ask(app_.state.ask, app_.pipeline.patches(), app_.pipeline.depth, app_.pipeline.heads);
        set_interventions(app_.state.ask, iv);
        ask_panel_.visible = true;
        return !iv.empty();  // the first-load steps wait for the pass under these interventions
    } catch (const Error& e) {
        app_.show_error(e.what());
        if (app_.touring()) app_.quit = true, app_.exit_code = 1;
        return app_.touring();
    }
}

void AskController::sync() {
    if (!app_.model || !app_.trace) return;
    fit_ask(app_.state.ask, app_.pipeline.patches(), app_.pipeline.depth, app_.pipeline.heads);
    if (app_.state.ask.show != shown_choice_) {  // the views' textures belong to the other pass now
        shown_choice_ = app_.state.ask.show;
        app_.new_views();
    }
    if (app_.loader.busy()) return;
    const AskSent want{to_interventions(app_.state.ask),
                       app_.state.screen == Screen::Attention && app_.model->config.num_classes > 0};
    if (want.interventions == ask_sent_.interventions && (!want.occlusion || ask_sent_.occlusion)) return;
    LoadRequest r = ask_request_;
    r.interventions = want.interventions;
    r.occlusion = want.occlusion;
    r.original = ask_.original;
    ask_sent_ = want;  // a request that fails is not sent again until the question changes
    app_.loader.request(r, app_.model, app_.model_name);
}

const Trace& AskController::views_trace() {
    if (app_.state.ask.show == AskShow::Original && ask_.original) return *ask_.original;
    if (app_.state.ask.show == AskShow::Difference && ask_.original) {
        if (!difference_) difference_ = std::make_shared<const Trace>(difference_trace(*app_.trace, *ask_.original));
        return *difference_;
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
