// Claims about the colour scales of attention maps (logic/describe/attention_scale.h).
#include <catch2/catch.hpp>

#include "logic/describe/attention_scale.h"

using namespace vit::gui;

namespace {
// Two heads' rows over four patches: head 0 nearly flat (20%, 21%), head 1 peaked.
const std::vector<float> kHead0 = {0.20f, 0.21f, 0.20f, 0.20f};
const std::vector<float> kHead1 = {0.05f, 0.05f, 0.60f, 0.10f};
const std::vector<const float*> kMaps = {kHead0.data(), kHead1.data()};
float shade(AttentionScale s, int map, float v) { return normalise(v, attention_range(s, kMaps, 4, map)); }
}  // namespace

TEST_CASE("by default all heads of a layer share one scale from 0 to the largest weight they show") {
    Range r0 = attention_range(AttentionScale::LayerMax, kMaps, 4, 0);
    Range r1 = attention_range(AttentionScale::LayerMax, kMaps, 4, 1);
    REQUIRE(r0.lo == 0.f);
    REQUIRE(r0.hi == Approx(0.60f));
    REQUIRE(r1.lo == r0.lo);
    REQUIRE(r1.hi == r0.hi);
    // 20% and 21% look alike; the same weight has the same colour in both heads.
    REQUIRE(shade(AttentionScale::LayerMax, 0, 0.21f) - shade(AttentionScale::LayerMax, 0, 0.20f) < 0.05f);
    REQUIRE(shade(AttentionScale::LayerMax, 0, 0.20f) == shade(AttentionScale::LayerMax, 1, 0.20f));
}

TEST_CASE("the 0-100% scale is the same for every map of every layer") {
    for (int map : {0, 1}) {
        Range r = attention_range(AttentionScale::Percent, kMaps, 4, map);
        REQUIRE(r.lo == 0.f);
        REQUIRE(r.hi == 1.f);
    }
}

TEST_CASE("each map's own stretch turns 20% vs 21% into darkest vs brightest, and its caption says so") {
    REQUIRE(shade(AttentionScale::EachMap, 0, 0.20f) == 0.f);
    REQUIRE(shade(AttentionScale::EachMap, 0, 0.21f) == 1.f);
    REQUIRE(attention_range(AttentionScale::EachMap, kMaps, 4, 1).hi == Approx(0.60f));
    REQUIRE_THAT(attention_scale_caption(AttentionScale::EachMap, {}, 2, 0), Catch::Contains("own minimum"));
    REQUIRE_THAT(attention_scale_caption(AttentionScale::LayerMax, {0.f, 0.6f}, 2, 3),
                 Catch::Contains("2 heads of block 3") && Catch::Contains("60%"));
}

TEST_CASE("a flat or all-zero map still gets a usable range") {
    std::vector<float> zeros(4, 0.f);
    std::vector<const float*> maps = {zeros.data()};
    Range shared = attention_range(AttentionScale::LayerMax, maps, 4, 0);
    REQUIRE(shared.hi > shared.lo);
    Range own = attention_range(AttentionScale::EachMap, maps, 4, 0);
    REQUIRE(own.hi > own.lo);
}
