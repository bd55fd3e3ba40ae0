// Claims about the share of the window that pictures cover (logic/describe/picture_coverage.h).
#include <catch2/catch.hpp>

#include "logic/describe/picture_coverage.h"

using namespace vit::gui;

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
