// Transitions between lesson steps (see step_transition.h).
#include "logic/lesson/step_transition.h"

#include <algorithm>

namespace vit::gui {

namespace {

// The token a view highlights: the selection on the stage screen, the attention
// screens' token (CLS when "CLS only") elsewhere.
int highlighted_token(const AppState& s) { return s.screen == Screen::Stage ? s.token : attention_token(s); }

StageKind kind_of(const Pipeline& p, int stage) {
    return p.stages.at(static_cast<size_t>(std::clamp(stage, 0, std::max(0, p.size() - 1)))).kind;
}

}  // namespace

float ease(float t) {
    t = std::clamp(t, 0.f, 1.f);
    return t * t * (3.f - 2.f * t);
}

bool transition_makes_sense(const AppState& from, const AppState& to, const Pipeline& p, bool same_trace) {
    if (!same_trace || p.stages.empty() || from.screen != to.screen || from.gradients != to.gradients) return false;
    return to.screen != Screen::Stage || kind_of(p, from.stage) == kind_of(p, to.stage);
}

float TokenGlide::row(const TokenRowMap& map) const {
    const int end = map.row_of_token(to), start = moving() ? map.row_of_token(from) : end;
    if (start < 0 || end < 0) return -1.f;
    return static_cast<float>(start) + t * static_cast<float>(end - start);
}

bool TokenGlide::patch(int grid, float& x, float& y, int prefix) const {
    if (from < prefix || to < prefix || grid < 1) return false;
    const float x0 = static_cast<float>((from - prefix) % grid), y0 = static_cast<float>((from - prefix) / grid);
    const float x1 = static_cast<float>((to - prefix) % grid), y1 = static_cast<float>((to - prefix) / grid);
    const float s = moving() ? t : 1.f;
    x = x0 + s * (x1 - x0);
    y = y0 + s * (y1 - y0);
    return true;
}

void StepTransition::begin_frame(double now, uint64_t generation) {
    last_frame_ = std::move(drawn_);
    drawn_.clear();
    frame_generation_ = generation;
    if (!running_) return;
    t_ = static_cast<float>(std::clamp((now - start_) / kTransitionSeconds, 0.0, 1.0));
    if (t_ >= 1.f) running_ = false, from_pictures_.clear();
}

void StepTransition::start(const AppState& from, const AppState& to, const Pipeline& p, uint64_t generation,
                           double now) {
    running_ = transition_makes_sense(from, to, p, generation == frame_generation_);
    start_ = now;
    t_ = running_ ? 0.f : 1.f;
    from_pictures_ = running_ ? last_frame_ : std::vector<Drawn>{};
    from_token_ = highlighted_token(from);
    to_token_ = highlighted_token(to);
}

TokenGlide StepTransition::glide() const {
    if (!active()) return {};
    return {from_token_, to_token_, progress()};
}

Fade StepTransition::picture(const CacheKey& key, int rows, int cols) {
    const size_t place = drawn_.size();
    drawn_.push_back({key, rows, cols});
    if (!active() || place >= from_pictures_.size()) return {};
    const Drawn& before = from_pictures_[place];
    if (before.rows != rows || before.cols != cols || before.key == key) return {};
    return {before.key, 1.f - progress()};
}

}  // namespace vit::gui
