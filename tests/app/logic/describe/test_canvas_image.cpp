// Claims about the "Draw a digit" canvas and its MNIST normalisation
// (app/gui/logic/describe/canvas_image.h): crop, 20-px box, centre of mass at (14,14).
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>

#include "logic/describe/canvas_image.h"
#include "logic/jobs/loader.h"
#include "loading/toy_model.h"

using namespace vit::gui;

struct Box {
    int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
    int width() const { return x1 - x0 + 1; }
    int height() const { return y1 - y0 + 1; }
};

static Box ink_box(const vit::Image& img) {
    Box b;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            if (img.data[static_cast<size_t>(y) * img.width + x] > 0.f)
                b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x), b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
    return b;
}

static int ink_columns_in_row(const Canvas& c, int y) {
    int n = 0;
    for (int x = 0; x < c.side(); ++x) n += c.at(x, y) > 0.5f;
    return n;
}

TEST_CASE("an empty canvas gives a black 1x28x28 image") {
    Canvas c;
    REQUIRE(c.empty());
    vit::Image img = to_mnist(c);
    REQUIRE(img.channels == 1);
    REQUIRE(img.height == 28);
    REQUIRE(img.width == 28);
    REQUIRE(std::all_of(img.data.begin(), img.data.end(), [](float v) { return v == 0.f; }));
}

TEST_CASE("clearing the canvas removes every stroke and gives a black image again") {
    Canvas c;
    draw_sample_seven(c, 20.f);
    uint64_t before = c.version();
    c.clear();
    REQUIRE(c.empty());
    REQUIRE(c.version() != before);
    vit::Image img = to_mnist(c);
    REQUIRE(std::all_of(img.data.begin(), img.data.end(), [](float v) { return v == 0.f; }));
}

TEST_CASE("a stroke drawn in a corner ends up centred by mass at (14,14) within 1 px") {
    Canvas c;
    c.add_stroke_segment({20, 30}, {60, 110}, 12.f);  // top-left corner, diagonal
    c.add_stroke_segment({60, 110}, {90, 40}, 12.f);
    CanvasPoint m = ink_centre(to_mnist(c));
    REQUIRE(m.x == Approx(14.f).margin(1.0));
    REQUIRE(m.y == Approx(14.f).margin(1.0));

    Canvas seven;
    draw_sample_seven(seven, 22.f);
    CanvasPoint s = ink_centre(to_mnist(seven));
    REQUIRE(s.x == Approx(14.f).margin(1.0));
    REQUIRE(s.y == Approx(14.f).margin(1.0));
}

TEST_CASE("the ink's bounding box has a longer side of 20 px and keeps its aspect") {
    Canvas tall;  // a vertical bar: 20 px high, narrow
    tall.add_stroke_segment({140, 40}, {140, 240}, 16.f);
    Box t = ink_box(to_mnist(tall));
    REQUIRE(t.height() == 20);
    REQUIRE(t.width() < 6);

    Canvas wide;  // a horizontal bar: 20 px wide, short
    wide.add_stroke_segment({30, 200}, {250, 200}, 16.f);
    Box w = ink_box(to_mnist(wide));
    REQUIRE(w.width() == 20);
    REQUIRE(w.height() < 6);

    Canvas seven;
    draw_sample_seven(seven, 22.f);
    Box s = ink_box(to_mnist(seven));
    REQUIRE(std::max(s.width(), s.height()) == 20);
}

TEST_CASE("a thicker brush paints a wider stroke, on the canvas and in the 28x28 image") {
    Canvas thin, thick;
    thin.add_stroke_segment({140, 40}, {140, 240}, 8.f);
    thick.add_stroke_segment({140, 40}, {140, 240}, 32.f);
    REQUIRE(ink_columns_in_row(thin, 140) == Approx(8).margin(1));
    REQUIRE(ink_columns_in_row(thick, 140) == Approx(32).margin(1));
    REQUIRE(ink_box(to_mnist(thick)).width() > ink_box(to_mnist(thin)).width());
}

TEST_CASE("a single click paints a round dot") {
    Canvas c;
    c.add_stroke_segment({100, 100}, {100, 100}, 20.f);
    REQUIRE(c.at(100, 100) == 1.f);
    REQUIRE(c.at(100, 115) == 0.f);
    REQUIRE(c.at(113, 113) == 0.f);  // outside the disc, inside its square
    REQUIRE(ink_columns_in_row(c, 100) == Approx(20).margin(1));
}

TEST_CASE("the normalised image's values stay in [0,1] with some full-white ink") {
    Canvas c;
    draw_sample_seven(c, 28.f);
    c.add_stroke_segment({100, 150}, {200, 150}, 28.f);  // overlapping strokes do not add up past 1
    vit::Image img = to_mnist(c);
    REQUIRE(std::all_of(img.data.begin(), img.data.end(), [](float v) { return v >= 0.f && v <= 1.f; }));
    REQUIRE(*std::max_element(img.data.begin(), img.data.end()) > 0.9f);
}

TEST_CASE("the loader runs the whole pipeline on the canvas's pixels instead of a file") {
    Canvas c;
    draw_sample_seven(c, 22.f);
    LoadRequest r{"toy-4x4", "", 0};
    r.pixels = std::make_shared<const vit::Image>(to_mnist(c));
    r.pixels_name = "drawn digit";
    Loaded l = load_and_run(r, nullptr, "");
    REQUIRE(l.image_name == "drawn digit");
    REQUIRE(l.picture.width == 28);
    REQUIRE(l.trace->find("probs") != nullptr);
}

TEST_CASE("drawing is offered for a one-channel 28x28 model, not for the toy that sees 4x4") {
    vit::ModelConfig digits;
    digits.channels = 1;
    digits.preprocess.image_size = kMnistSide;
    REQUIRE(takes_drawings(digits));
    REQUIRE_FALSE(takes_drawings(vit::make_toy_model().config));
    vit::ModelConfig rgb = digits;
    rgb.channels = 3;
    REQUIRE_FALSE(takes_drawings(rgb));
}
