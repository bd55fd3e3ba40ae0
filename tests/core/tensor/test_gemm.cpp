// The core's matrix products (gemm.h) against Eigen's at shapes that reach every
// edge of the kernel's tiling: rows not a multiple of a tile, columns not a
// multiple of a panel or a register, depth across several packed blocks and not
// a multiple of 16, outputs that are blocks of a wider matrix or cut into heads
// (the AVX-512 kernel's 14 × 32 tiles natively, WebAssembly's 4 × 8 under node).
// In a build with neither, both sides are Eigen's, and the checks still hold.
#include <catch2/catch.hpp>

#include "tensor/openmp.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "pass/attention.h"
#include "base/error.h"
#include "tensor/gemm.h"
#include "pass/layers.h"

namespace {

double largest_difference(const vit::Mat& a, const vit::Mat& b) {
    REQUIRE(a.rows() == b.rows());
    REQUIRE(a.cols() == b.cols());
    return static_cast<double>((a - b).cwiseAbs().maxCoeff<Eigen::PropagateNaN>());  // an unwritten NaN counts
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
    WARN("largest difference of the core's products from Eigen's: "
         << worst
         << (vit::own_gemm_kernel() ? ""
                                    : " (no kernel of the core's for this instruction set: both sides are Eigen's)"));
}

TEST_CASE("the core's products read and write blocks of wider matrices", "[gemm]") {
    // As attention uses them (one head's columns of q, k and the context), and at a
    // depth of two blocks with an odd number of columns inside a wider matrix.
    for (int depth : {64, 1601}) {
        const vit::Mat q = vit::Mat::Random(197, 3 * depth), k = vit::Mat::Random(197, 3 * depth);
        const vit::Mat v = vit::Mat::Random(197, 192);
        const auto q_head = q.block(30, depth, 40, depth), k_head = k.block(5, depth, 37, depth);
        vit::Mat wide_scores = vit::Mat::Zero(60, 80);
        auto scores = wide_scores.block(10, 20, 40, 37);
        vit::multiply_bt(q_head, k_head, scores, 0.125f);
        CHECK(largest_difference(scores, (q_head * 0.125f) * k_head.transpose()) <= tolerance(depth));
        CHECK(wide_scores.leftCols(20).isZero());
        CHECK(wide_scores.rightCols(23).isZero());
        CHECK(wide_scores.topRows(10).isZero());
        CHECK(wide_scores.bottomRows(10).isZero());
    }
    const vit::Mat attn = vit::Mat::Random(40, 197), v = vit::Mat::Random(197, 192);
    vit::Mat context = vit::Mat::Zero(197, 192);
    vit::multiply(attn, v.middleCols(128, 51), context.block(30, 128, 40, 51));
    CHECK(largest_difference(context.block(30, 128, 40, 51), attn * v.middleCols(128, 51)) <= tolerance(197));
    // Nothing outside the block was written.
    CHECK(context.leftCols(128).isZero());
    CHECK(context.rightCols(13).isZero());
    CHECK(context.topRows(30).isZero());
    CHECK(context.bottomRows(197 - 70).isZero());
}

TEST_CASE("linear writes every output column whatever team of threads it gets", "[gemm]") {
    // Its split of the output features over threads must cover each column once,
    // for any team size, including teams smaller than asked for.
    // Dynamic teams only with the core's kernel: OpenBLAS's OpenMP build waits
    // forever for threads a dynamic team does not start.
    const int saved_threads = omp_get_max_threads();
    const int saved_dynamic = omp_get_dynamic();
    for (int out : {1, 10, 33, 192, 576, 1000, 1001}) {
        omp_set_dynamic(saved_dynamic);
        omp_set_num_threads(saved_threads);
        const vit::Mat x = vit::Mat::Random(197, 96), w = vit::Mat::Random(out, 96);
        const vit::Vec b = vit::Vec::Random(out);
        const vit::Mat expected = (x * w.transpose()).rowwise() + b.transpose();
        for (int threads : {1, 2, 3, 5, 8}) {
            omp_set_num_threads(threads);
            for (bool dynamic : {false, true}) {  // a dynamic team may be smaller than asked
                if (dynamic && !vit::own_gemm_kernel()) continue;
                omp_set_dynamic(dynamic);
                vit::Mat y = vit::Mat::Constant(197, out, std::nanf(""));
                vit::linear(x, w, b, vit::MatMap(y.data(), y.rows(), y.cols()));
                INFO(out << " outputs, " << threads << " threads, dynamic " << dynamic);
                CHECK(largest_difference(y, expected) <= tolerance(96));
            }
        }
    }
    omp_set_dynamic(saved_dynamic);
    omp_set_num_threads(saved_threads);
}

TEST_CASE("products with the weights packed beforehand equal those packing as they go", "[gemm]") {
    // The same kernel over the same panels: bit for bit, for every slice of rows
    // a thread of linear() takes, with a weight matrix that is a block of a wider one.
    for (int rows : {1, 14, 197})
        for (int depth : {1, 17, 800, 1601})
            for (int cols : {1, 33, 70, 197}) {
                const vit::Mat wide = vit::Mat::Random(cols + 3, depth + 5);
                const auto w = wide.block(2, 3, cols, depth);
                const vit::Mat x = vit::Mat::Random(rows, depth);
                const vit::Vec bias = vit::Vec::Random(cols);
                const vit::PackedBt packed(w);
                REQUIRE(packed.made_from(w));
                for (int first = 0; first < cols; first += 32) {
                    const int count = std::min(cols - first, first == 0 ? cols : 32);
                    INFO(rows << "x" << depth << "x" << cols << ", rows of w from " << first << ", " << count);
                    vit::Mat c = vit::Mat::Constant(rows, count, std::nanf(""));
                    vit::Mat expected(rows, count);
                    vit::multiply_bt(x, packed, first, c, bias.data() + first);
                    vit::multiply_bt(x, w.middleRows(first, count), expected, 1.0f, bias.data() + first);
                    CHECK((c.array() == expected.array()).all());
                    const vit::Mat eigen =
                        (x * w.middleRows(first, count).transpose()).rowwise() + bias.segment(first, count).transpose();
                    CHECK(largest_difference(c, eigen) <= tolerance(depth));
                }
            }
}

TEST_CASE("linear with packed weights writes every column, and refuses another matrix's", "[gemm]") {
    const int saved_threads = omp_get_max_threads();
    for (int out : {10, 192, 1001}) {
        const vit::Mat x = vit::Mat::Random(197, 800), w = vit::Mat::Random(out, 800);
        const vit::Vec b = vit::Vec::Random(out);
        const vit::PackedBt packed(w);
        vit::Mat expected(197, out);
        vit::linear(x, w, b, vit::MatMap(expected.data(), 197, out));
        for (int threads : {1, 2, 3, 5}) {
            omp_set_num_threads(threads);
            vit::Mat y = vit::Mat::Constant(197, out, std::nanf(""));
            vit::linear(x, w, b, vit::MatMap(y.data(), 197, out), &packed);
            INFO(out << " outputs, " << threads << " threads");
            CHECK(largest_difference(y, expected) <= tolerance(800));
        }
        const vit::Mat other = w;
        vit::Mat y(197, out);
        CHECK_THROWS_AS(vit::linear(x, other, b, vit::MatMap(y.data(), 197, out), &packed), vit::Error);
    }
    omp_set_num_threads(saved_threads);
}

TEST_CASE("a product with a GELU output writes the product and its GELU", "[gemm]") {
    // Whole and partial panels, one and two blocks of depth, outputs aligned
    // (the product streamed past the caches) and blocks of wider matrices (not),
    // weights as they are and packed.
    for (int rows : {1, 14, 197})
        for (int depth : {17, 768, 1601})
            for (int cols : {13, 64, 197})
                for (bool inside_wider : {false, true}) {
                    const vit::Mat x = vit::Mat::Random(rows, depth), w = vit::Mat::Random(cols, depth);
                    const vit::Vec bias = vit::Vec::Random(cols);
                    vit::Mat plain(rows, cols);
                    vit::multiply_bt(x, w, plain, 1.0f, bias.data());
                    vit::Mat reference(rows, cols);
                    vit::gelu(plain, vit::MatMap(reference.data(), rows, cols));
                    const double scale = 1.0 + plain.cwiseAbs().maxCoeff();
                    for (bool packed : {false, true}) {
                        INFO(rows << "x" << depth << "x" << cols << (inside_wider ? ", inside wider matrices" : "")
                                  << (packed ? ", packed" : ""));
                        vit::Mat wide_c = vit::Mat::Constant(rows + 2, cols + 5, std::nanf(""));
                        vit::Mat wide_act = vit::Mat::Constant(rows + 2, cols + 5, std::nanf(""));
                        auto c = inside_wider ? wide_c.block(1, 3, rows, cols) : wide_c.block(0, 0, rows, cols);
                        auto act = inside_wider ? wide_act.block(1, 3, rows, cols) : wide_act.block(0, 0, rows, cols);
                        vit::Mat aligned_c(rows, cols), aligned_act(rows, cols);
                        vit::MatRef c_out = inside_wider ? vit::MatRef(c) : vit::MatRef(aligned_c);
                        vit::MatRef act_out = inside_wider ? vit::MatRef(act) : vit::MatRef(aligned_act);
                        const vit::GeluOutput gelu{act_out.data(), act_out.outerStride()};
                        if (packed) vit::multiply_bt(x, vit::PackedBt(w), 0, c_out, bias.data(), &gelu);
                        else vit::multiply_bt(x, w, c_out, 1.0f, bias.data(), &gelu);
                        CHECK((vit::Mat(c_out).array() == plain.array()).all());
                        CHECK(largest_difference(vit::Mat(act_out), reference) <= 1e-6 * scale);
                        if (inside_wider) {  // nothing written around the blocks
                            CHECK(wide_c.leftCols(3).array().isNaN().all());
                            CHECK(wide_act.rightCols(2).array().isNaN().all());
                            CHECK(wide_act.topRows(1).array().isNaN().all());
                        }
                    }
                }
}

TEST_CASE("linear_gelu writes every column of both outputs whatever the threads", "[gemm]") {
    const int saved_threads = omp_get_max_threads();
    for (int out : {10, 192, 1001}) {
        const vit::Mat x = vit::Mat::Random(197, 96), w = vit::Mat::Random(out, 96);
        const vit::Vec b = vit::Vec::Random(out);
        const vit::Mat expected = (x * w.transpose()).rowwise() + b.transpose();
        vit::Mat expected_act(197, out);
        vit::gelu(expected, vit::MatMap(expected_act.data(), 197, out));
        const vit::PackedBt packed(w);
        for (int threads : {1, 2, 3, 5})
            for (const vit::PackedBt* weights : {static_cast<const vit::PackedBt*>(nullptr), &packed}) {
                omp_set_num_threads(threads);
                vit::Mat y = vit::Mat::Constant(197, out, std::nanf("")), act = y;
                vit::linear_gelu(x, w, b, vit::MatMap(y.data(), 197, out), vit::MatMap(act.data(), 197, out), weights);
                INFO(out << " outputs, " << threads << " threads" << (weights ? ", packed" : ""));
                CHECK(largest_difference(y, expected) <= tolerance(96));
                CHECK(largest_difference(act, expected_act) <= tolerance(96));
            }
    }
    omp_set_num_threads(saved_threads);
}

TEST_CASE("qkv_heads writes each head of the projection into q, k and v", "[gemm]") {
    // Heads of 32 and 64 columns take the kernel's tiles straight into the heads;
    // heads of 16 and 48 split a tile, and are written from the whole product.
    // Every thread's share of the columns starts in some head, packed or not.
    const int saved_threads = omp_get_max_threads();
    for (int head_dim : {16, 32, 48, 64})
        for (int heads : {1, 3}) {
            const int dim = heads * head_dim, tokens = 197, depth = 800;
            const vit::Mat x = vit::Mat::Random(tokens, depth), w = vit::Mat::Random(3 * dim, depth);
            const vit::Vec b = vit::Vec::Random(3 * dim);
            const vit::Mat expected = (x * w.transpose()).rowwise() + b.transpose();
            const vit::PackedBt packed(w);
            for (int threads : {1, 2, 3, 5})
                for (const vit::PackedBt* weights : {static_cast<const vit::PackedBt*>(nullptr), &packed}) {
                    omp_set_num_threads(threads);
                    vit::Tensor q({heads, tokens, head_dim}), k = q, v = q;
                    for (vit::Tensor* part : {&q, &k, &v})
                        std::fill(part->data.begin(), part->data.end(), std::nanf(""));
                    vit::qkv_heads(x, w, b, q, k, v, weights);
                    const vit::Tensor* parts[3] = {&q, &k, &v};
                    for (int part = 0; part < 3; ++part)
                        for (int h = 0; h < heads; ++h) {
                            INFO(heads << " heads of " << head_dim << ", " << threads << " threads"
                                       << (weights ? ", packed" : "") << ", part " << part << ", head " << h);
                            const vit::Mat got = parts[part]->slice(h);
                            CHECK(largest_difference(got, expected.middleCols(part * dim + h * head_dim, head_dim)) <=
                                  tolerance(depth));
                        }
                }
        }
    omp_set_num_threads(saved_threads);
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
