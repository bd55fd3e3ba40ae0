// How much of the window pictures cover (logic/describe/picture_coverage.h, printed by the tour), and
// the check behind the tour test (tests/app/run_app_check.cmake): every stage of
// the model has its screenshot NN-<stage id>.png, plus the attention screen,
// and none is blank. Hidden from the normal run ([.tour]); run_app_check.cmake runs
// it with VITVIZ_TOUR_DIR and VITVIZ_TOUR_MODEL set after `vitviz --tour`.
// "[.train_tour]" checks `vitviz --train --tour`'s three,
// "[.lesson_editor_tour]" `vitviz --lesson --edit-lesson --tour`'s.
// "[.lesson_tour]" a lesson's one screenshot per step; "[.compare_tour]" the attention and
// CLS-mask screens with a comparison model (`vitviz --compare-model`): pictures in both halves.
#include <catch2/catch.hpp>

#include <stb/stb_image.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "loading/load_model.h"
#include "logic/describe/picture_coverage.h"
#include "logic/lesson/lesson.h"
#include "logic/lesson/lesson_player.h"
#include "logic/describe/token_layout.h"
#include "logic/state/tour.h"
#include "pass/trace.h"

using namespace vit::gui;

namespace {
struct PixelStats {
    double stddev = 0;   // of the luminance
    size_t colours = 0;  // distinct RGB values
};

PixelStats stats(const unsigned char* px, int w, int h, int x0, int y0, int x1, int y1) {
    double s = 0, ss = 0;
    size_t n = 0;
    std::set<uint32_t> colours;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) {
            const unsigned char* p = px + (size_t(y) * w + x) * 3;
            double l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
            s += l;
            ss += l * l;
            ++n;
            if (colours.size() < 100000) colours.insert(uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]);
        }
    (void)h;
    double mean = s / n;
    return {std::sqrt(std::max(0.0, ss / n - mean * mean)), colours.size()};
}

// A screenshot's RGB pixels, at least 800×600 (a REQUIRE fails otherwise).
struct Screenshot {
    int w = 0, h = 0;
    std::vector<unsigned char> rgb;
    PixelStats region(int x0, int y0, int x1, int y1) const { return stats(rgb.data(), w, h, x0, y0, x1, y1); }
};

Screenshot load_screenshot(const std::string& path) {
    Screenshot shot;
    int c = 0;
    unsigned char* px = stbi_load(path.c_str(), &shot.w, &shot.h, &c, 3);
    REQUIRE(px);
    shot.rgb.assign(px, px + size_t(shot.w) * shot.h * 3);
    stbi_image_free(px);
    REQUIRE(shot.w >= 800);
    REQUIRE(shot.h >= 600);
    return shot;
}
}  // namespace

TEST_CASE("every tour screenshot exists and is not blank", "[.tour]") {
    const char* dir = std::getenv("VITVIZ_TOUR_DIR");
    const char* model = std::getenv("VITVIZ_TOUR_MODEL");
    REQUIRE(dir);
    REQUIRE(model);
    vit::Model m = vit::load_model(model);
    const TokenLayout layout = token_layout(m.config);
    Pipeline p = make_pipeline(vit::stage_list(m.config), layout.count() + 1, m.config.num_heads, layout);
    std::vector<TourShot> plan = tour_plan(p);
    const bool blocks = p.depth > 0, head = m.config.num_classes > 0;
    // + attention, model-view, overview, three cells and four findings (the CLS masks with a CLS token);
    // why and two gradients for a model with a head
    REQUIRE(plan.size() == p.ids.size() + (blocks ? 9 + layout.has_cls() : 1) + (blocks && head ? 3 : 0));
    // A tour given interventions (VITVIZ_TOUR_ASK set) also shows the Ask panel; its question
    // (a temperature, a silenced head, shuffled patches) is one the backward pass does not
    // follow, so its gradient shots hold the sentence saying so instead of a picture.
    const bool asked = std::getenv("VITVIZ_TOUR_ASK") != nullptr;
    if (asked) plan.push_back(window_shot(p, ShotKind::Ask, static_cast<int>(plan.size())));
    for (const TourShot& shot : plan) {
        std::string path = (std::filesystem::path(dir) / shot.file).string();
        INFO(path);
        REQUIRE(std::filesystem::exists(path));
        const Screenshot png = load_screenshot(path);
        const int w = png.w, h = png.h;
        PixelStats whole = png.region(0, 0, w, h);
        // The main view (between the navigator and the side panel) must hold a picture, not only chrome.
        PixelStats view = png.region(w * 22 / 100, h * 12 / 100, w * 75 / 100, h * 80 / 100);
        INFO("whole: stddev " << whole.stddev << ", " << whole.colours << " colours; view: stddev " << view.stddev
                              << ", " << view.colours << " colours");
        CHECK(whole.stddev > 10.0);
        CHECK(whole.colours > 200);
        // The backward pass follows only the plain token layout (one CLS row, one head): a model with
        // registers, a DIST token or pooling has the sentence saying so in its gradient shots too.
        if ((asked || !m.config.plain_tokens()) && shot.kind == ShotKind::Gradient) continue;
        CHECK(view.stddev > 10.0);
        CHECK(view.colours > 100);
    }
}

TEST_CASE("the Train window's tour saves start, middle and end, and the pictures change as it learns",
          "[.train_tour]") {
    const char* dir = std::getenv("VITVIZ_TOUR_DIR");
    REQUIRE(dir);
    std::vector<unsigned char> first;
    for (const char* name : {"train-start.png", "train-middle.png", "train-end.png"}) {
        std::string path = (std::filesystem::path(dir) / name).string();
        INFO(path);
        const Screenshot shot = load_screenshot(path);
        PixelStats whole = shot.region(0, 0, shot.w, shot.h);
        CHECK(whole.stddev > 10.0);
        CHECK(whole.colours > 200);
        if (first.empty()) first = shot.rgb;
        else CHECK(shot.rgb != first);  // curves drawn, snapshot and maps moved on
    }
}

// tests/fixtures/lessons/editor-tour.json: step 1 glides the highlight from patch 0 to patch 3,
// step 2 changes the kind of stage (no animation), step 4 moves the attention screen's token.
TEST_CASE("the lesson editor's tour shows each step with the editor, and the transitions into them held halfway",
          "[.lesson_editor_tour]") {
    const char* dir = std::getenv("VITVIZ_TOUR_DIR");
    REQUIRE(dir);
    const std::vector<TourShot> plan = lesson_tour_plan(5, true);
    for (const TourShot& shot : plan) {
        const std::string path = (std::filesystem::path(dir) / shot.file).string();
        INFO(path);
        const Screenshot png = load_screenshot(path);
        const PixelStats whole = png.region(0, 0, png.w, png.h);
        CHECK(whole.stddev > 10.0);
        CHECK(whole.colours > 200);
    }
    // Left of the editor window (which floats at the right), above the status bar.
    auto left_part = [&](const std::string& file) {
        const Screenshot png = load_screenshot((std::filesystem::path(dir) / file).string());
        std::vector<unsigned char> part;
        for (int y = 0; y < png.h * 90 / 100; ++y)
            part.insert(part.end(), png.rgb.begin() + (size_t(y) * png.w) * 3,
                        png.rgb.begin() + (size_t(y) * png.w + png.w * 55 / 100) * 3);
        return part;
    };
    CHECK(left_part("01-halfway.png") != left_part("01-edit.png"));  // the highlight on its way
    CHECK(left_part("02-halfway.png") == left_part("02-edit.png"));  // another kind of stage: no animation
    CHECK(left_part("04-halfway.png") != left_part("04-edit.png"));  // the highlight on its way, the maps cross-fading
}

TEST_CASE("a played lesson saves one non-blank screenshot per step", "[.lesson_tour]") {
    const char* dir = std::getenv("VITVIZ_TOUR_DIR");
    const char* lesson_path = std::getenv("VITVIZ_LESSON");
    REQUIRE(dir);
    REQUIRE(lesson_path);
    const Lesson lesson = load_lesson(lesson_path);
    for (size_t i = 0; i < lesson.steps.size(); ++i) {
        const std::string path = (std::filesystem::path(dir) / tour_file_name(static_cast<int>(i), "step")).string();
        INFO(path << ": " << lesson.steps[i].title);
        const Screenshot shot = load_screenshot(path);
        // The picture above the caption (the lesson plays in the presenter layout) must hold one.
        const PixelStats whole = shot.region(0, 0, shot.w, shot.h),
                         picture = shot.region(0, 0, shot.w, shot.h * 55 / 100);
        INFO("whole: stddev " << whole.stddev << ", " << whole.colours << " colours; picture: stddev " << picture.stddev
                              << ", " << picture.colours << " colours");
        CHECK(whole.stddev > 10.0);
        CHECK(whole.colours > 200);
        CHECK(picture.stddev > 10.0);
        CHECK(picture.colours > 100);
    }
    const std::string after =
        (std::filesystem::path(dir) / tour_file_name(static_cast<int>(lesson.steps.size()), "step")).string();
    CHECK_FALSE(std::filesystem::exists(after));  // one per step, no more
}

TEST_CASE("with a comparison model the attention and CLS-mask screens hold pictures in both halves",
          "[.compare_tour]") {
    const char* dir = std::getenv("VITVIZ_TOUR_DIR");
    const char* model = std::getenv("VITVIZ_TOUR_MODEL");
    REQUIRE(dir);
    REQUIRE(model);
    const vit::Model m = vit::load_model(model);
    const TokenLayout layout = token_layout(m.config);
    const Pipeline p = make_pipeline(vit::stage_list(m.config), layout.count() + 1, m.config.num_heads, layout);
    for (const TourShot& shot : tour_plan(p)) {
        if (shot.screen != Screen::Attention && shot.screen != Screen::ClsMasks) continue;
        INFO(shot.file);
        const Screenshot png = load_screenshot((std::filesystem::path(dir) / shot.file).string());
        // The view lies between the navigator (about a fifth of the width) and the side panel (the last 22%).
        const PixelStats left = png.region(png.w * 24 / 100, png.h * 20 / 100, png.w * 48 / 100, png.h * 75 / 100);
        const PixelStats right = png.region(png.w * 53 / 100, png.h * 20 / 100, png.w * 76 / 100, png.h * 75 / 100);
        INFO("left: stddev " << left.stddev << ", " << left.colours << " colours; right: stddev " << right.stddev
                             << ", " << right.colours << " colours");
        CHECK(left.stddev > 10.0);
        CHECK(left.colours > 100);
        CHECK(right.stddev > 10.0);
        CHECK(right.colours > 100);
    }
}

TEST_CASE("a picture covering a quarter of the window covers 25%") {
    REQUIRE(covered_share({{0.f, 0.f, 50.f, 50.f}}, 100, 100) == Approx(0.25));
}

TEST_CASE("overlapping pictures (an overlay over its photo) count once") {
    std::vector<PixelRect> r = {{10.f, 10.f, 60.f, 60.f}, {10.f, 10.f, 60.f, 60.f}, {35.f, 10.f, 85.f, 60.f}};
    REQUIRE(covered_share(r, 100, 100) == Approx(75.0 * 50.0 / 10000.0));
}

TEST_CASE("the parts of a picture outside the window do not count") {
    REQUIRE(covered_share({{-50.f, -50.f, 50.f, 150.f}}, 200, 100) == Approx(0.25));
    REQUIRE(covered_share({}, 200, 100) == 0.0);
    REQUIRE(covered_share({{0.f, 0.f, 10.f, 10.f}}, 0, 0) == 0.0);
}

TEST_CASE("a tour's coverage is the mean of its screenshots' shares, 0 with none") {
    REQUIRE(mean_share({0.1, 0.3}) == Approx(0.2));
    REQUIRE(mean_share({}) == 0.0);
}
