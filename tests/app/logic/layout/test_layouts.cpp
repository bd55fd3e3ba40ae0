// Claims about the layouts (app/gui/logic/layout/): the overview screen's and the model
// view's geometry (overview_layout.h, model_view_layout.h), and how the main window shares
// its room at each window size (window_layout.h): the navigator folds on narrow windows and
// beside a lesson on windows that are not wide, the columns fill the width exactly, and a
// lesson's caption goes where the view keeps the larger picture.
#include <catch2/catch.hpp>
#include <vector>

#include "logic/layout/model_view_layout.h"
#include "logic/layout/overview_layout.h"
#include "logic/layout/window_layout.h"
#include "pass/stages.h"

using namespace vit::gui;

namespace {
Pipeline pipeline(int depth, int heads = 4) { return make_pipeline(vit::stage_list(depth, true), 17, heads); }

bool overlap(const LayoutRect& a, const LayoutRect& b) {
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}
bool inside(const LayoutRect& r, float w, float h) {
    return r.x >= 0 && r.y >= 0 && r.x + r.w <= w + 0.01f && r.y + r.h <= h + 0.01f;
}
}  // namespace

TEST_CASE("the overview has one thumbnail per stage, in order, inside the region, none overlapping") {
    for (int depth : {0, 1, 4, 12}) {
        Pipeline p = pipeline(depth);
        OverviewSizes s;
        s.width = 900, s.height = 850;
        OverviewLayout L = overview_layout(p, s);
        INFO("depth " << depth);
        REQUIRE(L.thumbs.size() == p.ids.size());
        REQUIRE(L.thumb_w > 20.f);
        REQUIRE(L.thumb_h <= L.thumb_w * kMaxThumbTall + 0.01f);
        REQUIRE(L.thumb_w <= L.thumb_h * kMaxThumbWide + 0.01f);
        int covered = 0;
        for (const OverviewRow& r : L.rows) covered += r.count;
        REQUIRE(covered == p.size());
        for (int i = 0; i < p.size(); ++i) {
            REQUIRE(inside(L.thumbs[i], s.width, s.height));
            for (int j = i + 1; j < p.size(); ++j) REQUIRE_FALSE(overlap(L.thumbs[i], L.thumbs[j]));
            // Reading order: later stages are right of or below earlier ones.
            if (i > 0) REQUIRE((L.thumbs[i].y > L.thumbs[i - 1].y || L.thumbs[i].x > L.thumbs[i - 1].x));
        }
    }
}

TEST_CASE("the overview's rows follow the groups: embedding, each block, the head") {
    Pipeline p = pipeline(12, 12);
    OverviewSizes s;
    s.width = 950, s.height = 880;
    OverviewLayout L = overview_layout(p, s);
    REQUIRE_FALSE(L.split_blocks);  // twelve blocks: one row each is larger than two
    REQUIRE(L.rows.size() == 14);
    for (size_t r = 0; r < L.rows.size(); ++r) {
        REQUIRE(L.rows[r].group == static_cast<int>(r));
        for (int i = L.rows[r].first; i < L.rows[r].first + L.rows[r].count; ++i)
            REQUIRE(p.group[i] == L.rows[r].group);
    }
    // Stage names above the embedding, Block 0 and the head; Block 1 … 11 reuse Block 0's.
    REQUIRE(L.rows[0].names);
    REQUIRE(L.rows[1].names);
    REQUIRE_FALSE(L.rows[2].names);
    REQUIRE_FALSE(L.rows[12].names);
    REQUIRE(L.rows[13].names);
}

TEST_CASE("a deep model draws the focused block large, in two halves, and the other blocks as strips") {
    for (int depth : {12, 24, 40}) {
        Pipeline p = pipeline(depth, 16);
        OverviewSizes s;
        s.width = 950, s.height = 880, s.name_h = 18;
        const OverviewLayout plain = overview_layout(p, s);
        s.focus = 3;
        const OverviewLayout L = overview_layout(p, s);
        INFO("depth " << depth);
        REQUIRE(L.focus == 3);
        const int ln1 = p.index_of("block3.ln1"), ln2 = p.index_of("block3.ln2"), other = p.index_of("block5.ln1");
        CHECK(L.thumbs[ln1].h >= 2.f * plain.thumb_h);  // the focused block: large
        CHECK(L.thumbs[ln1].w > plain.thumb_w);         // and wider, in two halves
        CHECK(L.thumbs[ln2].y > L.thumbs[ln1].y);
        CHECK(L.thumbs[other].h * 4.f < L.thumbs[ln1].h);  // the others: strips
        CHECK(L.thumbs[other].h >= 4.f);
        REQUIRE(L.skips.size() == 2);  // the focused block's residuals only
        for (const OverviewSkip& k : L.skips) CHECK(p.stages[k.from].block == 3);
        for (int i = 0; i < p.size(); ++i) {
            REQUIRE(inside(L.thumbs[i], s.width, s.height));
            for (int j = i + 1; j < p.size(); ++j) REQUIRE_FALSE(overlap(L.thumbs[i], L.thumbs[j]));
        }
        CHECK(overview_hit(L, L.thumbs[other].x + 1, L.thumbs[other].y + 1) == other);
    }
    Pipeline shallow = pipeline(2);  // rows large enough already: nothing focused
    OverviewSizes s;
    s.width = 900, s.height = 850, s.focus = 1;
    CHECK(overview_layout(shallow, s).focus == -1);
}

TEST_CASE("a shallow model splits each block into its attention and MLP halves when that makes thumbnails larger") {
    Pipeline p = pipeline(2);
    OverviewSizes s;
    s.width = 900, s.height = 850;
    OverviewLayout L = overview_layout(p, s);
    REQUIRE(L.split_blocks);
    OverviewSizes wide = s;
    wide.width = 3000;
    wide.height = 400;
    REQUIRE_FALSE(overview_layout(p, wide).split_blocks);
    // The second row of block 0 starts at ln2, below ln1.
    int ln1 = p.index_of("block0.ln1"), ln2 = p.index_of("block0.ln2");
    REQUIRE(L.thumbs[ln2].x == L.thumbs[ln1].x);
    REQUIRE(L.thumbs[ln2].y > L.thumbs[ln1].y);
}

TEST_CASE("every block has two residual skips: ln1 to res1 and ln2 to out") {
    Pipeline p = pipeline(3);
    OverviewSizes s;
    s.width = 900, s.height = 850;
    OverviewLayout L = overview_layout(p, s);
    REQUIRE(L.skips.size() == 6);
    for (int b = 0; b < 3; ++b) {
        std::string blk = "block" + std::to_string(b) + ".";
        bool attn = false, mlp = false;
        for (const OverviewSkip& k : L.skips) {
            attn |= k.from == p.index_of(blk + "ln1") && k.to == p.index_of(blk + "res1");
            mlp |= k.from == p.index_of(blk + "ln2") && k.to == p.index_of(blk + "out");
        }
        REQUIRE(attn);
        REQUIRE(mlp);
    }
}

TEST_CASE("a point on a thumbnail finds its stage, a point between thumbnails none") {
    Pipeline p = pipeline(4);
    OverviewSizes s;
    s.width = 900, s.height = 850;
    OverviewLayout L = overview_layout(p, s);
    for (int i = 0; i < p.size(); ++i) {
        const LayoutRect& r = L.thumbs[i];
        REQUIRE(overview_hit(L, r.x + r.w / 2, r.y + r.h / 2) == i);
    }
    REQUIRE(overview_hit(L, 1.f, 1.f) == -1);  // the label column
    const LayoutRect& a = L.thumbs[0];
    REQUIRE(overview_hit(L, a.x + a.w + s.gap / 2, a.y + 1) == -1);
}

TEST_CASE("the model view's 12 x 12 grid fills the region with square cells, labels outside them") {
    ModelGridSizes s;
    s.width = 900, s.height = 820;
    ModelGridLayout g = model_grid_layout(12, 12, s);
    REQUIRE(g.cell > 50.f);
    REQUIRE(g.bands == 1);
    LayoutRect last = g.cell_rect(11, 11);
    REQUIRE(inside(last, s.width, s.height));
    // The grid is as large as one side allows.
    REQUIRE((last.x + last.w > s.width - s.gap - 1.f || last.y + last.h > s.height - s.gap - 1.f));
    for (int l = 0; l < 12; ++l)
        for (int h = 0; h < 12; ++h) {
            LayoutRect c = g.cell_rect(l, h);
            REQUIRE_FALSE(overlap(c, g.layer_label(l)));
            REQUIRE_FALSE(overlap(c, g.head_label(h, 0)));
            int hl = -1, hh = -1;
            REQUIRE(model_grid_hit(g, c.x + c.w / 2, c.y + c.h / 2, hl, hh));
            REQUIRE(hl == l);
            REQUIRE(hh == h);
        }
    int l = -1, h = -1;
    REQUIRE_FALSE(model_grid_hit(g, 2.f, 2.f, l, h));
    REQUIRE(model_grid_layout(0, 12, s).cell == 0.f);
}

TEST_CASE("a deep model with few heads wraps its layers into bands side by side, which makes the cells larger") {
    ModelGridSizes s;
    s.width = 1000, s.height = 700;
    const ModelGridLayout g = model_grid_layout(12, 3, s);  // ViT-Ti
    REQUIRE(g.bands == 2);
    REQUIRE(g.band_layers == 6);
    ModelGridSizes one_column = s;
    one_column.width = s.label_w + 3 * (g.cell + s.gap);  // too narrow for two bands of these cells
    REQUIRE(g.cell > 1.5f * model_grid_layout(12, 3, one_column).cell);
    std::vector<LayoutRect> placed;
    for (int l = 0; l < 12; ++l) {
        placed.push_back(g.layer_label(l));
        for (int h = 0; h < 3; ++h) {
            const LayoutRect c = g.cell_rect(l, h);
            REQUIRE(inside(c, s.width, s.height));
            for (int band = 0; band < g.bands; ++band) REQUIRE_FALSE(overlap(c, g.head_label(h, band)));
            int hl = -1, hh = -1;
            REQUIRE(model_grid_hit(g, c.x + c.w / 2, c.y + c.h / 2, hl, hh));
            REQUIRE(hl == l);
            REQUIRE(hh == h);
            placed.push_back(c);
        }
    }
    for (size_t i = 0; i < placed.size(); ++i)
        for (size_t j = i + 1; j < placed.size(); ++j) REQUIRE_FALSE(overlap(placed[i], placed[j]));
    REQUIRE(g.cell_rect(6, 0).x > g.cell_rect(0, 2).x + g.cell);  // block 6 starts the second band, to the right
    REQUIRE(g.cell_rect(6, 0).y == g.cell_rect(0, 0).y);
    // The digits model's 4 × 4 stays one band.
    REQUIRE(model_grid_layout(4, 4, s).bands == 1);
}

namespace {
// The body of a window `w` × `h` as the app leaves it under the toolbar and over the status bar.
LayoutRoom room(float w, float h, bool lesson) {
    LayoutRoom r;
    r.width = w - 16.f;
    r.height = h - 110.f;
    r.navigator = 230.f;
    r.lesson = lesson;
    r.side_panel = !lesson;
    r.caption_below_h = 180.f;
    return r;
}
float used_width(const WindowLayout& l, const LayoutRoom& r) {
    return l.navigator + (l.navigator > 0 ? r.gap : 0) + l.view_w + (l.side > 0 ? r.gap + l.side : 0);
}
}  // namespace

TEST_CASE("the navigator stays on a wide window and folds into a drawer on a narrow one") {
    for (bool lesson : {false, true}) {
        INFO("lesson " << lesson);
        const WindowLayout wide = lay_out_window(room(1600, 1000, lesson));
        CHECK_FALSE(wide.navigator_folded);
        CHECK(wide.navigator >= 0.16f * room(1600, 1000, lesson).width);
        const WindowLayout narrow = lay_out_window(room(1024, 768, lesson));
        CHECK(narrow.navigator_folded);
        CHECK(narrow.navigator == 0.f);
        LayoutRoom opened = room(1024, 768, lesson);
        opened.drawer_open = true;
        CHECK(lay_out_window(opened).navigator > 0.f);
    }
    // A Chromebook's 1366 keeps it for exploring, folds it beside a lesson (the lesson steps the stages).
    CHECK_FALSE(lay_out_window(room(1366, 768, false)).navigator_folded);
    CHECK(lay_out_window(room(1366, 768, true)).navigator_folded);
}

TEST_CASE("the navigator, the view and the side column fill the window's width exactly") {
    for (float w : {1024.f, 1280.f, 1366.f, 1600.f, 1920.f, 768.f})
        for (bool lesson : {false, true}) {
            INFO(w << " lesson " << lesson);
            const LayoutRoom r = room(w, 800, lesson);
            const WindowLayout l = lay_out_window(r);
            CHECK(used_width(l, r) == Approx(r.width));
            CHECK(l.view_w > 0.4f * r.width);
        }
}

TEST_CASE("presenter mode has no navigator, folded or not") {
    LayoutRoom r = room(1024, 768, false);
    r.presenter = true;
    const WindowLayout l = lay_out_window(r);
    CHECK(l.navigator == 0.f);
    CHECK_FALSE(l.navigator_folded);
}

TEST_CASE("a lesson's caption goes beside a landscape view and under a portrait one") {
    const WindowLayout landscape = lay_out_window(room(1366, 768, true));
    CHECK(landscape.side > 0.f);
    CHECK(landscape.caption_below == 0.f);
    const WindowLayout portrait = lay_out_window(room(768, 1024, true));  // a tablet held upright
    CHECK(portrait.side == 0.f);
    CHECK(portrait.caption_below == Approx(180.f));
    CHECK(portrait.view_w == Approx(room(768, 1024, true).width));
    // With the Draw panel open the side column stays, and so does the caption in it.
    LayoutRoom drawing = room(768, 1024, true);
    drawing.side_panel = true;
    CHECK(lay_out_window(drawing).caption_below == 0.f);
}

TEST_CASE("text shrinks with a window smaller than 1600 x 1000, never under 13 px") {
    CHECK(text_scale(1600, 1000, 18) == 1.f);
    CHECK(text_scale(2560, 1440, 18) == 1.f);  // a larger window keeps the sizes
    CHECK(text_scale(1366, 768, 18) == Approx(0.768f));
    CHECK(text_scale(1024, 768, 18) * 18 == Approx(kLeastTextPx));  // the body's floor
    CHECK(text_scale(1024, 768, 30) == Approx(0.64f));              // presenter text shrinks further
    CHECK(text_scale(200, 100, 30) * 30 == Approx(kLeastTextPx));
}
