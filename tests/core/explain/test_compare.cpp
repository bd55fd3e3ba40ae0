// Claims about the one tensor comparison (core/explain/compare.h) the app's CPU/GPU
// panel and every test suite use: the largest difference, where it is, relative
// and absolute, and how much of a tolerance abs + rel·|reference| it uses.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "explain/compare.h"
#include "base/error.h"

TEST_CASE("a flat index unravels row-major over the shape") {
    REQUIRE(vit::unravel(0, {2, 3, 4}) == std::vector<int64_t>{0, 0, 0});
    REQUIRE(vit::unravel(23, {2, 3, 4}) == std::vector<int64_t>{1, 2, 3});
    REQUIRE(vit::unravel(17, {2, 3, 4}) == std::vector<int64_t>{1, 1, 1});
    REQUIRE(vit::index_string({1, 2, 3}) == "(1, 2, 3)");
}

TEST_CASE("compare finds the largest difference, where it is, relative to the reference's largest magnitude") {
    vit::Tensor want({2, 3}), got({2, 3});
    want.data = {1.f, -4.f, 2.f, 0.f, 0.5f, 3.f};
    got.data = want.data;
    got.data[4] += 0.25f;  // row 1, column 1
    got.data[0] += 0.1f;
    const vit::Difference d = vit::compare(got, want, {0.01, 0.1});
    CHECK(d.max_abs == Approx(0.25));
    CHECK(d.flat == 4);
    CHECK(d.where == std::vector<int64_t>{1, 1});
    CHECK(d.got == 0.75f);
    CHECK(d.want == 0.5f);
    CHECK(d.max_want == 4.0);
    CHECK(d.relative() == Approx(0.25 / 4));
    CHECK(d.tolerance_used == Approx(0.25 / (0.01 + 0.1 * 0.5)));
    CHECK(d.worst_flat == 4);
    CHECK_FALSE(d.within());
    CHECK(vit::compare(got, want, {0.3, 0}).within());
    CHECK(vit::compare(want, want).within());  // equal passes even a zero tolerance
}

TEST_CASE("compare counts NaN or infinity on one side as infinitely far, and refuses two shapes") {
    vit::Tensor want({3}), got({3});
    want.data = {1.f, 2.f, 3.f};
    got.data = {1.f, std::numeric_limits<float>::quiet_NaN(), 3.f};
    const vit::Difference d = vit::compare(got, want, {1, 1});
    CHECK(std::isinf(d.max_abs));
    CHECK(d.flat == 1);
    CHECK_FALSE(d.within());
    CHECK(vit::distance(std::numeric_limits<float>::infinity(), std::numeric_limits<float>::infinity()) == 0.f);
    CHECK_THROWS_AS(vit::compare(got, vit::Tensor({1, 3})), vit::Error);
}

TEST_CASE("the GPU tolerance of a stage scales its absolute part with the stage's largest magnitude") {
    vit::Tensor small({2}), large({2});
    small.data = {0.5f, -0.25f};
    large.data = {-40.f, 2.f};
    CHECK(vit::gpu_tolerance(vit::StageKind::Scores, small).abs == Approx(1e-5));
    CHECK(vit::gpu_tolerance(vit::StageKind::Scores, large).abs == Approx(4e-4));
    CHECK(vit::gpu_tolerance(vit::StageKind::Scores, large).rel == Approx(1e-4));
}

TEST_CASE("the GPU tolerance widens by 1/τ for a softmax temperature τ below 1, and only then") {
    vit::Tensor large({2});
    large.data = {-40.f, 2.f};
    CHECK(vit::gpu_tolerance(vit::StageKind::Context, large, 0.4f).abs == Approx(1e-3));
    CHECK(vit::gpu_tolerance(vit::StageKind::Context, large, 0.4f).rel == Approx(2.5e-4));
    CHECK(vit::gpu_tolerance(vit::StageKind::Context, large, 3.0f).abs == Approx(4e-4));
    CHECK(vit::gpu_tolerance(vit::StageKind::Context, large, 3.0f).rel == Approx(1e-4));
}
