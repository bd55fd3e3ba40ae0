// The comparison model's half of the screens (see compare_controller.h).
#include "controllers/compare_controller.h"

#include "services/gl_texture.h"

namespace vit::gui {

// A model's name for a title: its config's, else what was asked for (a checkpoint's path).
static std::string shown_name(const ModelConfig& config, const std::string& asked) {
    return config.name.empty() ? asked : config.name;
}

CompareController::CompareController(AppContext& app, std::shared_ptr<Worker> worker)
    : app_(app), pass_(std::move(worker)), cache_(upload_texture, release_texture) {
    set_model(app.options.compare_model);
}

void CompareController::poll() {
    const std::string error = pass_.poll();
    if (!error.empty()) app_.fail(error);
    const Loaded* r = pass_.result();
    if (!r || pass_.generation() == generation_) return;
    generation_ = pass_.generation();
    cache_.new_trace();
    derived_.clear();
    pipeline_ = trace_pipeline(*r->trace, r->model->config);
    focus_.follow(r->model);
}

const ComparisonSide* CompareController::side(const ViewContext& main) {
    if (!pass_.active()) return nullptr;
    const Loaded* r = pass_.result();
    side_ = ComparisonSide{};
    side_.name = r ? shown_name(r->model->config, r->model_name) : pass_.model();
    side_.loaded_name = shown_name(main.model.config, app_.model_name);
    if (!r) side_.note = "computing " + pass_.model() + " on this image …";
    else if (r->model_name != pass_.model()) side_.note = "stale: computing " + pass_.model() + " …";
    else if (pass_.stale()) side_.note = "stale: computed for the previous image; computing this one …";
    views_.reset();
    if (!r) return &side_;
    // The loaded model's display settings; the block at the same relative depth; the CLS token's attention.
    const AppState& m = main.state;
    state_.presenter = m.presenter;
    state_.colormap = m.colormap;
    state_.show_numbers = m.show_numbers;
    state_.attention_scale = m.attention_scale;
    state_.findings = m.findings;
    state_.layer = comparison_layer(m.layer, main.pipeline.depth, pipeline_.depth);
    state_.head = -1;
    state_.token = 0;
    state_.cls_only = pipeline_.layout.has_cls();
    const std::shared_ptr<const Trace> seen =
        focus_.seen(r->trace, state_.layer);  // the screens it serves draw that block
    views_.emplace(
        ViewContext{state_, pipeline_, *seen, *r->model, r->picture, cache_, derived_, generation_, app_.fonts, -1});
    views_->held = seen;
    side_.views = &*views_;
    return &side_;
}

}  // namespace vit::gui
