// The animated change between two lesson steps: for about a third
// of a second the selected token's highlight glides from its old place to its
// new one, and each map cross-fades from the old picture to the new (the old
// texture drawn over the new one, fading out, so a picture is always shown).
// Only where it makes sense: the same trace (model and image), the same screen,
// the same kind of stage and the same values/gradients switch; otherwise the
// step simply appears. Pure timing and bookkeeping, driven by whatever clock
// the app passes (tests pass a fake one; the --tour passes a frozen one so
// screenshots stay deterministic); the views draw what it says.
#pragma once
#include <cstdint>
#include <vector>

#include "logic/state/app_state.h"
#include "logic/cache/cache_key.h"
#include "logic/describe/token_order.h"

namespace vit::gui {

inline constexpr double kTransitionSeconds = 0.35;

// Smoothstep: 0 → 0, ½ → ½, 1 → 1, flat at both ends; clamped outside [0, 1].
float ease(float t);

// Whether the change from view `from` to view `to` animates (see above).
bool transition_makes_sense(const AppState& from, const AppState& to, const Pipeline& p, bool same_trace);

// The selected token's highlight on its way from token `from` to token `to`,
// `t` of the way there (eased); t = 1 or from == to: at rest.
struct TokenGlide {
    int from = -1, to = -1;
    float t = 1.f;
    bool moving() const { return from >= 0 && to >= 0 && from != to && t < 1.f; }
    // The highlighted row of a matrix whose rows `map` names (fractional while moving);
    // -1 when either end has no row there (a dropped token, CLS in a patch matrix).
    float row(const TokenRowMap& map) const;
    // The highlighted patch's column x and row y on a g×g grid (token prefix + p is patch p,
    // fractional while moving); false when the glide starts or ends on a prefix token (no patch to slide).
    bool patch(int grid, float& x, float& y, int prefix = 1) const;
};

// What a view draws over a picture while it cross-fades: the texture key of the
// picture shown in its place before the step changed, and its opacity (0: nothing).
struct Fade {
    CacheKey key;
    float alpha = 0.f;
};

class StepTransition {
public:
    // Once per frame, before anything is drawn or a step applied: the clock, and
    // the trace generation the frame starts with.
    void begin_frame(double now, uint64_t generation);
    // A step's view replaced `from` with `to` (generation: the trace it is shown on).
    void start(const AppState& from, const AppState& to, const Pipeline& p, uint64_t generation, double now);
    double started_at() const { return start_; }
    bool active() const { return running_ && t_ < 1.f; }
    float progress() const { return active() ? ease(t_) : 1.f; }  // eased share of the way
    TokenGlide glide() const;
    // Each picture a view draws (a heatmap's cells, an overlay), in drawing order,
    // with its texture key and size: what to fade out over it. The picture drawn in
    // the same place before the step changed fades when its size is the same and
    // its key differs.
    Fade picture(const CacheKey& key, int rows, int cols);

private:
    struct Drawn {
        CacheKey key;
        int rows = 0, cols = 0;
    };
    std::vector<Drawn> drawn_, last_frame_, from_pictures_;
    uint64_t frame_generation_ = 0;
    double start_ = 0.0;
    float t_ = 1.f;
    bool running_ = false;
    int from_token_ = -1, to_token_ = -1;
};

}  // namespace vit::gui
