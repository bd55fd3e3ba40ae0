// Claims about colormaps and the pixels of heatmaps.
#include <catch2/catch.hpp>

#include "logic/describe/colormap.h"

using namespace vit::gui;

TEST_CASE("the diverging colormap is blue below zero, white at zero, red above, symmetric around zero") {
    std::vector<float> v = {-2.f, 0.5f, 1.f};
    Range r = data_range(Colormap::Diverging, v.data(), v.size());
    REQUIRE(r.lo == -2.f);
    REQUIRE(r.hi == 2.f);
    Rgb lo = colormap_rgb(Colormap::Diverging, normalise(-2.f, r));
    Rgb mid = colormap_rgb(Colormap::Diverging, normalise(0.f, r));
    Rgb hi = colormap_rgb(Colormap::Diverging, normalise(2.f, r));
    REQUIRE(lo.b > lo.r);
    REQUIRE(hi.r > hi.b);
    REQUIRE(mid.r > 240);
    REQUIRE(mid.g > 240);
    REQUIRE(mid.b > 240);
}

TEST_CASE("the sequential colormap runs dark to bright from 0 (or the minimum) to the maximum") {
    std::vector<float> p = {0.1f, 0.2f, 0.7f};
    Range r = data_range(Colormap::Sequential, p.data(), p.size());
    REQUIRE(r.lo == 0.f);
    REQUIRE(r.hi == Approx(0.7f));
    auto lum = [](Rgb c) { return 0.299f * c.r + 0.587f * c.g + 0.114f * c.b; };
    REQUIRE(lum(colormap_rgb(Colormap::Sequential, 0.f)) < lum(colormap_rgb(Colormap::Sequential, 0.5f)));
    REQUIRE(lum(colormap_rgb(Colormap::Sequential, 0.5f)) < lum(colormap_rgb(Colormap::Sequential, 1.f)));
}

TEST_CASE("an all-zero tensor still gets a usable range") {
    std::vector<float> z(6, 0.f);
    Range d = data_range(Colormap::Diverging, z.data(), z.size());
    REQUIRE(d.hi > d.lo);
    Range s = data_range(Colormap::Sequential, z.data(), z.size());
    REQUIRE(s.hi > s.lo);
}

TEST_CASE("a matrix becomes one RGBA texel per cell, row 0 on top") {
    std::vector<float> m = {-1.f, 0.f, 1.f, 1.f, 0.f, -1.f};
    RgbaImage img = render_matrix(m.data(), 2, 3, Colormap::Diverging);
    REQUIRE(img.width == 3);
    REQUIRE(img.height == 2);
    REQUIRE(img.pixels.size() == 2 * 3 * 4);
    REQUIRE(img.pixels[0 * 4 + 2] > img.pixels[0 * 4 + 0]);              // (0,0) = -1: blue
    REQUIRE(img.pixels[(1 * 3) * 4 + 0] > img.pixels[(1 * 3) * 4 + 2]);  // (1,0) = 1: red
    REQUIRE(img.pixels[3] == 255);
}

TEST_CASE("a matrix reduced for fewer pixels keeps each box's standout cell and the whole range") {
    // 5 × 5, one spike at (3, 4) and one dip at (0, 1): boxes of 2 × 2 give 3 × 3 texels.
    std::vector<float> m(25, 0.1f);
    m[3 * 5 + 4] = 0.9f;
    m[0 * 5 + 1] = -0.5f;
    const RgbaImage seq = render_matrix_reduced(m.data(), 5, 5, 2, Colormap::Sequential);
    REQUIRE(seq.width == 3);
    REQUIRE(seq.height == 3);
    CHECK(seq.range.lo == -0.5f);  // the whole matrix's range, not the reduced one's
    CHECK(seq.range.hi == 0.9f);
    const RgbaImage spike = render_matrix(&m[3 * 5 + 4], 1, 1, Colormap::Sequential, seq.range);
    const RgbaImage plain = render_matrix(&m[2], 1, 1, Colormap::Sequential, seq.range);
    for (int c = 0; c < 3; ++c) {
        CHECK(seq.pixels[(1 * 3 + 2) * 4 + c] == spike.pixels[c]);  // the partial box holding the spike
        CHECK(seq.pixels[(0 * 3 + 0) * 4 + c] == plain.pixels[c]);  // largest of 0.1, -0.5: 0.1
    }
    const RgbaImage div = render_matrix_reduced(m.data(), 5, 5, 2, Colormap::Diverging);
    const RgbaImage dip = render_matrix(&m[1], 1, 1, Colormap::Diverging, div.range);
    for (int c = 0; c < 3; ++c) CHECK(div.pixels[c] == dip.pixels[c]);  // farthest from 0: the dip
}

TEST_CASE("pictures outside [0, 1] are stretched to their own range (the toy's 0..15)") {
    std::vector<float> toy(16);
    for (int i = 0; i < 16; ++i) toy[i] = float(i);
    RgbaImage img = render_picture(toy.data(), 1, 4, 4, false);
    REQUIRE(img.pixels[0] == 0);
    REQUIRE(img.pixels[15 * 4] == 255);
}

TEST_CASE("cell numbers are short") {
    REQUIRE(short_number(0.f) == "0");
    REQUIRE(short_number(0.2043f) == "0.204");
    REQUIRE(short_number(-7.1404f) == "-7.14");
    REQUIRE(short_number(15.7786f) == "15.8");
    REQUIRE(short_number(1234.f) == "1234");
    REQUIRE(short_number(0.2043f, 2) == "0.20");
}

TEST_CASE("shrinking an image averages each factor x factor box and keeps its range") {
    RgbaImage img;
    img.width = 4, img.height = 2;
    img.range = {0.f, 15.f};
    for (int i = 0; i < 8; ++i)
        for (int c = 0; c < 4; ++c) img.pixels.push_back(static_cast<uint8_t>(10 * i + c));
    RgbaImage s = shrink_image(img, 2);
    REQUIRE(s.width == 2);
    REQUIRE(s.height == 1);
    REQUIRE(s.range.hi == img.range.hi);
    // Box of pixels 0, 1, 4, 5: mean 25 (+ channel).
    REQUIRE(s.pixels[0] == 25);
    REQUIRE(s.pixels[3] == 28);
    REQUIRE(s.pixels[4] == 45);  // pixels 2, 3, 6, 7
    REQUIRE(shrink_image(img, 1).pixels == img.pixels);
}

TEST_CASE("an overlay blended over a picture is stretched to the picture's size, nearest pixel") {
    RgbaImage base, top;
    base.width = base.height = 4;
    base.pixels.assign(4 * 4 * 4, 200);
    top.width = top.height = 2;
    top.pixels = {0, 0, 0, 255, 100, 100, 100, 255, 0, 0, 0, 255, 0, 0, 0, 255};
    RgbaImage out = blend_over(base, top, 0.5f);
    REQUIRE(out.width == 4);
    REQUIRE(out.pixels[0] == 100);                    // (0,0): black over 200, half
    REQUIRE(out.pixels[(0 * 4 + 3) * 4] == 150);      // (3,0): top pixel (1,0) = 100 over 200
    REQUIRE(out.pixels[(0 * 4 + 3) * 4 + 3] == 200);  // alpha stays the picture's
    REQUIRE(out.pixels[(3 * 4 + 3) * 4] == 100);
}

TEST_CASE("colour policy: the terms of a sum share one range, a signed map is diverging around 0") {
    const std::vector<float> stream = {-6.2f, 3.f}, correction = {-0.5f, 2.3f}, result = {-6.4f, 5.f};
    const Range r = shared_range(
        Colormap::Diverging,
        {{stream.data(), stream.size()}, {correction.data(), correction.size()}, {result.data(), result.size()}});
    CHECK(r.lo == -6.4f);
    CHECK(r.hi == 6.4f);  // the small correction is drawn pale on the stream's scale
    CHECK(normalise(2.3f, r) < 0.7f);

    const std::vector<float> drop = {-0.002f, -0.0005f, -0.001f};  // masking raised p everywhere
    const ColourScale s = signed_map_scale(drop.data(), drop.size());
    REQUIRE(s.cmap == Colormap::Diverging);
    CHECK(s.range.lo == -0.002f);
    CHECK(s.range.hi == 0.002f);
    const Rgb most = colormap_rgb(s.cmap, normalise(drop[0], s.range));
    CHECK(most.b > most.r);  // blue, not bright yellow
    const Rgb none = colormap_rgb(s.cmap, normalise(0.f, s.range));
    CHECK(none.r > 240);
    CHECK(none.b > 240);  // no change is white
}

TEST_CASE("colour policy: a cell holding its number is coloured opaque, the picture under it does not tint it") {
    CHECK(overlay_opacity(kNumberedCellPx, 0.72f) == 1.f);
    CHECK(overlay_opacity(kNumberedCellPx - 1.f, 0.72f) == 0.72f);
}
