// Transitions between lesson steps (app/gui/logic/lesson/step_transition.h), driven by
// a fake clock: the eased progress over kTransitionSeconds, the selected
// token's highlight gliding between its places, each picture fading out over
// the one drawn in its place, and no animation where it would not make sense.
#include <catch2/catch.hpp>

#include "logic/lesson/lesson_player.h"
#include "pass/stages.h"
#include "logic/lesson/step_transition.h"

using namespace vit::gui;
using Approx = Catch::Detail::Approx;

namespace {

// The key of `stage`'s matrix `slice` in trace `generation`, or of what else `purpose` draws of it.
CacheKey key(uint64_t generation, const char* stage, int slice, Purpose purpose = Purpose::Values,
             std::vector<double> params = {}) {
    return stage_key(generation, *vit::parse_stage_id(stage), slice, Colormap::Sequential, purpose, std::move(params));
}

Pipeline digits_pipeline() { return make_pipeline(vit::stage_list(4, true), 17, 4); }

AppState at(const Pipeline& p, const std::string& stage, int token) {
    AppState s;
    go_to_stage(s, p, p.index_of(stage));
    select_token(s, p, token);
    return s;
}

}  // namespace

TEST_CASE("the transition eases from 0 to 1 over its time and then stops") {
    CHECK(ease(0.f) == 0.f);
    CHECK(ease(0.5f) == Approx(0.5f));
    CHECK(ease(1.f) == 1.f);
    CHECK(ease(0.25f) < 0.25f);  // slow start
    CHECK(ease(2.f) == 1.f);

    const Pipeline p = digits_pipeline();
    StepTransition t;
    t.begin_frame(10.0, 1);
    t.start(at(p, "block0.attn", 2), at(p, "block3.attn", 14), p, 1, 10.0);
    CHECK(t.active());
    CHECK(t.progress() == 0.f);
    t.begin_frame(10.0 + kTransitionSeconds / 2, 1);
    CHECK(t.progress() == Approx(0.5f));
    t.begin_frame(10.0 + kTransitionSeconds, 1);
    CHECK_FALSE(t.active());
    CHECK(t.progress() == 1.f);
    CHECK_FALSE(t.glide().moving());
}

TEST_CASE("the selected token's highlight glides across the patch grid and down the rows") {
    const Pipeline p = digits_pipeline();  // 4×4 patches
    StepTransition t;
    t.begin_frame(0.0, 1);
    t.start(at(p, "patches", 1), at(p, "patches", 16), p, 1, 0.0);  // patch 0 (top left) → patch 15 (bottom right)
    t.begin_frame(kTransitionSeconds / 2, 1);
    const TokenGlide g = t.glide();
    REQUIRE(g.moving());
    float x = -1, y = -1;
    REQUIRE(g.patch(4, x, y));
    CHECK(x == Approx(1.5f));
    CHECK(y == Approx(1.5f));
    TokenRowMap patch_rows;
    patch_rows.offset = 1;
    CHECK(g.row({}) == Approx(8.5f));          // token rows
    CHECK(g.row(patch_rows) == Approx(7.5f));  // patch rows
    TokenRowMap shuffled;                      // patches 15 and 0 swapped, patch 3 dropped
    shuffled.patches = {15, 1, 2, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0};
    CHECK(g.row(shuffled) == Approx(8.f));  // from row 15 (patch 0) to row 1 (patch 15)
    CHECK(TokenGlide{1, 4, 0.5f}.row(shuffled) == -1.f);

    const TokenGlide from_cls{0, 5, 0.5f};
    CHECK_FALSE(from_cls.patch(4, x, y));  // CLS has no patch to slide from
    CHECK(from_cls.row({}) == Approx(2.5f));
}

TEST_CASE("a picture fades out over the one drawn in its place when its key changes and its size does not") {
    const Pipeline p = digits_pipeline();
    StepTransition t;
    t.begin_frame(0.0, 7);  // the frame before the step: two maps and an overlay
    t.picture(key(7, "block0.attn", 0), 17, 17);
    t.picture(key(7, "block0.attn", 1), 17, 17);
    t.picture(key(7, "block0.attn", -1, Purpose::AttentionRow, {2}), 4, 4);
    t.begin_frame(0.02, 7);  // the step changes
    t.start(at(p, "block0.attn", 2), at(p, "block3.attn", 2), p, 7, 0.02);
    Fade first = t.picture(key(7, "block3.attn", 0), 17, 17);
    CHECK(first.key == key(7, "block0.attn", 0));
    CHECK(first.alpha == 1.f);                                        // at first the old picture, whole
    CHECK(t.picture(key(7, "block0.attn", 1), 17, 17).alpha == 0.f);  // the same picture: nothing to fade
    CHECK(t.picture(key(7, "block0.attn", -1, Purpose::AttentionRow, {9}), 5, 5).alpha ==
          0.f);                                                         // another size: no fade
    CHECK(t.picture(key(7, "block0.scores", 0), 17, 17).alpha == 0.f);  // nothing was drawn here before

    t.begin_frame(0.02 + kTransitionSeconds / 2, 7);
    first = t.picture(key(7, "block3.attn", 0), 17, 17);
    CHECK(first.key == key(7, "block0.attn", 0));  // still from the frame before the step
    CHECK(first.alpha == Approx(0.5f));
    t.begin_frame(0.02 + kTransitionSeconds, 7);
    CHECK(t.picture(key(7, "block3.attn", 0), 17, 17).alpha == 0.f);
}

TEST_CASE("no transition across a new trace, screen, kind of stage or the gradients switch") {
    const Pipeline p = digits_pipeline();
    const AppState attn0 = at(p, "block0.attn", 2);
    CHECK(transition_makes_sense(attn0, at(p, "block3.attn", 9), p, true));
    CHECK_FALSE(transition_makes_sense(attn0, at(p, "block3.attn", 9), p, false));  // another model or image
    CHECK_FALSE(transition_makes_sense(attn0, at(p, "block0.scores", 2), p, true));
    AppState screen = attn0;
    screen.screen = Screen::Attention;
    CHECK_FALSE(transition_makes_sense(attn0, screen, p, true));
    AppState layer3 = screen;
    select_layer(layer3, p, 3);
    CHECK(transition_makes_sense(screen, layer3, p, true));  // the attention screen, another layer
    AppState gradients = attn0;
    gradients.gradients = true;
    CHECK_FALSE(transition_makes_sense(attn0, gradients, p, true));

    StepTransition t;  // a step on a new trace: it simply appears
    t.begin_frame(0.0, 1);
    t.picture(key(1, "block0.attn", 0), 17, 17);
    t.begin_frame(0.02, 1);
    t.start(attn0, at(p, "block0.attn", 9), p, 2, 0.02);
    CHECK_FALSE(t.active());
    CHECK(t.picture(key(2, "block0.attn", 0), 17, 17).alpha == 0.f);
    CHECK_FALSE(t.glide().moving());
}

TEST_CASE("a lesson tour shoots each step, with the editor, each step and the transition into it held halfway") {
    const std::vector<TourShot> plain = lesson_tour_plan(2, false);
    REQUIRE(plain.size() == 2);
    CHECK(plain[1].file == "01-step.png");
    CHECK(plain[1].lesson_step == 1);
    const std::vector<TourShot> editing = lesson_tour_plan(3, true);
    std::vector<std::string> files;
    for (const TourShot& s : editing) files.push_back(s.file + (s.halfway() ? " halfway" : ""));
    CHECK(files == std::vector<std::string>{"00-edit.png", "01-halfway.png halfway", "01-edit.png",
                                            "02-halfway.png halfway", "02-edit.png"});
    CHECK(editing[3].lesson_step == 2);
}
