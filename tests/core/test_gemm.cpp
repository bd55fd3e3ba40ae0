// The core's matrix products (gemm.h) against Eigen's at shapes that reach every
// edge of the kernel's tiling: rows not a multiple of a tile, columns not a
// multiple of a panel or a register, depth across several packed blocks and not
// a multiple of 16, outputs that are blocks of a wider matrix. In a build
// without AVX-512 both sides are Eigen's, and the checks still hold.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "gemm.h"

namespace {

double largest_difference(const vit::Mat& a, const vit::Mat& b) {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    return static_cast<double>((a - b).cwiseAbs().maxCoeff());
}

// Products of depth d of values in [-1, 1]: float32 rounding grows with d.
double tolerance(int64_t depth) { return 2e-6 * static_cast<double>(depth) + 1e-6; }

}  // namespace

TEST_CASE("the core's products match Eigen's at every edge of the tiling", "[gemm]") {
    double worst = 0;
    for (int rows : {1, 5, 13, 14, 15, 27, 29, 197})
        for (int depth : {1, 7, 16, 17, 64, 257, 800, 1601})
            for (int cols : {1, 13, 16, 17, 32, 33, 70, 197}) {
                const vit::Mat a = vit::Mat::Random(rows, depth), bt = vit::Mat::Random(cols, depth);
                const vit::Mat b = vit::Mat::Random(depth, cols);
                const vit::Vec bias = vit::Vec::Random(cols);
                std::ostringstream shape;
                shape << rows << "x" << depth << "x" << cols;
                INFO(shape.str());

                vit::Mat c = vit::Mat::Constant(rows, cols, 7.0f);  // overwritten, never added to
                vit::multiply_bt(a, bt, c);
                const double plain = largest_difference(c, a * bt.transpose());
                vit::multiply_bt(a, bt, c, 0.125f, bias.data());
                const vit::Mat scaled_ref = ((a * 0.125f) * bt.transpose()).rowwise() + bias.transpose();
                const double with_bias = largest_difference(c, scaled_ref);
                c.setConstant(7.0f);
                vit::multiply(a, b, c);
                const double ab = largest_difference(c, a * b);
                CHECK(plain <= tolerance(depth));
                CHECK(with_bias <= tolerance(depth));
                CHECK(ab <= tolerance(depth));
                worst = std::max({worst, plain, with_bias, ab});
            }
    WARN("largest difference of the core's products from Eigen's: " << worst);
}

TEST_CASE("the core's products read and write blocks of wider matrices", "[gemm]") {
    // As attention uses them: one head's columns of q, k and the context.
    const vit::Mat q = vit::Mat::Random(197, 192), k = vit::Mat::Random(197, 192), v = vit::Mat::Random(197, 192);
    vit::Mat scores(40, 197), context = vit::Mat::Zero(197, 192);
    vit::multiply_bt(q.block(30, 64, 40, 64), k.middleCols(64, 64), scores, 0.125f);
    CHECK(largest_difference(scores, (q.block(30, 64, 40, 64) * 0.125f) * k.middleCols(64, 64).transpose()) <= 1e-5);
    vit::multiply(scores, v.middleCols(128, 64), context.block(30, 128, 40, 64));
    const vit::Mat expected = scores * v.middleCols(128, 64);
    CHECK(largest_difference(context.block(30, 128, 40, 64), expected) <= 1e-4);
    // Nothing outside the block was written.
    CHECK(context.leftCols(128).isZero());
    CHECK(context.topRows(30).isZero());
    CHECK(context.bottomRows(197 - 70).isZero());
}

TEST_CASE("a product of depth 0 is the bias alone", "[gemm]") {
    const vit::Mat a(5, 0), b(9, 0);
    const vit::Vec bias = vit::Vec::LinSpaced(9, 1.0f, 9.0f);
    vit::Mat c = vit::Mat::Constant(5, 9, 7.0f);
    vit::multiply_bt(a, b, c, 1.0f, bias.data());
    for (int r = 0; r < 5; ++r) CHECK(c.row(r) == bias.transpose());
    vit::multiply_bt(a, b, c);
    CHECK(c.isZero());
}
