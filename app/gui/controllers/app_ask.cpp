// The App's Ask-panel hooks, kept apart from app.cpp: rerunning the
// pass whenever the panel's interventions change (the model and the unmodified
// pass reused), the occlusion map while the attention screen is shown, which
// pass the views show (modified, original, difference), the interventions
// given on the command line (and the tour's Ask shot), and the window itself.
#include <imgui.h>

#include <cstdio>

#include "controllers/app.h"
#include "panels/ask_panel.h"
#include "base/error.h"

namespace vit::gui {

void App::keep_ask_results(const Loaded& loaded) {
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

bool App::ask_at_start() {
    if (!options_.interventions.any() || asked_at_start_) return false;
    asked_at_start_ = true;
    try {
        const int grid = static_cast<int>(trace_->at(StageRef{StageKind::Input}).shape[1] / model_->config.patch_size);
        const Interventions iv = options_.interventions.resolve(model_->config, grid);
        fit_ask(state_.ask, pipeline_.tokens - 1, pipeline_.depth, pipeline_.heads);
        set_interventions(state_.ask, iv);
        ask_panel_.visible = true;
        return !iv.empty();  // the first-load steps wait for the pass under these interventions
    } catch (const Error& e) {
        show_error(e.what());
        if (touring()) quit_ = true, exit_code_ = 1;
        return touring();
    }
}

void App::sync_ask() {
    if (!model_ || !trace_) return;
    fit_ask(state_.ask, pipeline_.tokens - 1, pipeline_.depth, pipeline_.heads);
    if (state_.ask.show != shown_choice_) {  // the views' textures belong to the other pass now
        shown_choice_ = state_.ask.show;
        ++generation_;
        cache_.clear();
        derived_.clear();
    }
    if (loader_.busy()) return;
    const AskSent want{to_interventions(state_.ask),
                       state_.screen == Screen::Attention && model_->config.num_classes > 0};
    if (want.interventions == ask_sent_.interventions && (!want.occlusion || ask_sent_.occlusion)) return;
    LoadRequest r = ask_request_;
    r.interventions = want.interventions;
    r.occlusion = want.occlusion;
    r.original = ask_.original;
    ask_sent_ = want;  // a request that fails is not sent again until the question changes
    loader_.request(r, model_, model_name_);
}

const Trace& App::views_trace() {
    if (state_.ask.show == AskShow::Original && ask_.original) return *ask_.original;
    if (state_.ask.show == AskShow::Difference && ask_.original) {
        if (!difference_) difference_ = std::make_shared<const Trace>(difference_trace(*trace_, *ask_.original));
        return *difference_;
    }
    return shown_trace();
}

void App::draw_ask_panel() {
    if (!trace_ || !model_ || pipeline_.ids.empty()) return;
    ViewContext ctx{state_, pipeline_, views_trace(), *model_, picture_, cache_, derived_, generation_, fonts_, linked_hover_};
    ctx.ask = &ask_;
    DrawAskPanel(ask_panel_, ctx, *trace_, loader_.busy());
}

}  // namespace vit::gui
