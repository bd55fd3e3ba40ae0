// LayerNorm, GELU, softmax, residual add and linear layers of timm's ViT
// (torch.nn.LayerNorm, nn.GELU, softmax(dim=-1), nn.Linear). Matrix products
// go to gemm.h; row-wise ops split rows over OpenMP threads and vectorise within a row.
#include "pass/layers.h"

#include "tensor/openmp.h"

#include <algorithm>
#include <cmath>
#include <limits>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "base/error.h"
#include "tensor/gelu.h"
#include "tensor/gemm.h"
#include "tensor/lanes.h"
#include "tensor/wasm_exp.h"

namespace vit {

// Output features per thread are a multiple of this (whole tiles of the core's
// kernel, whole AVX-512 registers for Eigen's).
constexpr Eigen::Index kColumnChunk = 32;
// Below this many weights (ViT-Ti's layers) Eigen's own split of its product is faster.
constexpr Eigen::Index kEigenSplitMinWeights = 1 << 18;

namespace {

// y = x · wᵀ + b, and gelu(y) at `gelu` as well unless it is null.
void linear_into(const ConstMatRef& x, const Mat& w, const Vec& b, const ColumnGroups& y, const PackedBt* packed,
                 const GeluOutput* gelu) {
    if (packed && !packed->made_from(w)) throw Error("linear: the packed weights were made from another matrix");
    // Each thread multiplies by its own slice of w's rows (output features): each
    // weight is read by one thread, with no shared packing and no synchronisation
    // inside the product, unlike Eigen's or OpenBLAS's own split (a BLAS runs
    // single-threaded inside this region).
    const Eigen::Index out = w.rows();
    const int threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    const bool split = threads > 1 && y.rows() * y.cols() >= kParallelMinElements &&
                       (own_gemm_kernel() || w.size() >= kEigenSplitMinWeights);
    const float* bias = b.size() == 0 ? nullptr : b.data();
    // y's columns [begin, end): by w's rows [begin, end), packed or as they are.
    const auto multiply_rows = [&](Eigen::Index begin, Eigen::Index end) {
        const float* rows_bias = bias ? bias + begin : nullptr;
        const GeluOutput rows_gelu = gelu ? GeluOutput{gelu->data + begin, gelu->stride} : GeluOutput{};
        const GeluOutput* rows_gelu_or_none = gelu ? &rows_gelu : nullptr;
        if (packed) multiply_bt(x, *packed, begin, y.middle_cols(begin, end - begin), rows_bias, rows_gelu_or_none);
        else
            multiply_bt(x, w.middleRows(begin, end - begin), y.middle_cols(begin, end - begin), rows_bias,
                        rows_gelu_or_none);
    };
    if (split) {
#pragma omp parallel num_threads(threads)
        {
            // Whole chunks, as even as can be over the team the runtime gave (it may give fewer).
            const Eigen::Index chunks = (out + kColumnChunk - 1) / kColumnChunk;
            const ThreadShare share = thread_share(chunks);
            const Eigen::Index begin = std::min<int64_t>(out, share.begin * kColumnChunk);
            const Eigen::Index end = std::min<int64_t>(out, share.end * kColumnChunk);
            if (end > begin) multiply_rows(begin, end);
        }
    } else {
        multiply_rows(0, out);
    }
}

// Row r of y: row r of x normalised, scaled by gamma and shifted by beta.
void normalise_row(const ConstMatRef& x, Eigen::Index r, const Vec& gamma, const Vec& beta, float eps, MatMap& y) {
    const auto row = x.row(r).array();
    const RowNorm n = row_norm(row, eps);
    y.row(r).array() = (row - n.mean) * n.inv_std * gamma.transpose().array() + beta.transpose().array();
}

}  // namespace

void linear(const ConstMatRef& x, const Mat& w, const Vec& b, MatMap y, const PackedBt* packed) {
    linear_into(x, w, b, MatRef(y), packed, nullptr);
}

void linear(const ConstMatRef& x, const Mat& w, const Vec& b, const ColumnGroups& y, const PackedBt* packed) {
    linear_into(x, w, b, y, packed, nullptr);
}

void linear_gelu(const ConstMatRef& x, const Mat& w, const Vec& b, MatMap y, MatMap act, const PackedBt* packed) {
    const GeluOutput gelu{act.data(), act.outerStride()};
    linear_into(x, w, b, MatRef(y), packed, &gelu);
}

void layer_norm(const ConstMatRef& x, const Vec& gamma, const Vec& beta, float eps, MatMap y) {
    const Eigen::Index rows = x.rows();
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) normalise_row(x, r, gamma, beta, eps, y);
}

void add_layer_norm(const ConstMatRef& a, const ConstMatRef& b, const Vec& gamma, const Vec& beta, float eps,
                    MatMap sum, MatMap y) {
    const Eigen::Index rows = a.rows();
#pragma omp parallel for schedule(static) if (a.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        sum.row(r) = a.row(r) + b.row(r);
        normalise_row(sum, r, gamma, beta, eps, y);
    }
}

void gelu(const ConstMatRef& x, MatMap y) {
    const Eigen::Index rows = x.rows();
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) y.row(r).array() = gelu_of(x.row(r).array());
}

void quick_gelu(const ConstMatRef& x, MatMap y) {
    y.array() = x.array() / (1.0f + (-kQuickGeluScale * x.array()).exp());
}

void silu(const ConstMatRef& x, MatMap y) { y.array() = x.array() / (1.0f + (-x.array()).exp()); }

void swiglu(const ConstMatRef& h, MatMap y) {
    silu(h.leftCols(y.cols()), y);
    y.array() *= h.rightCols(y.cols()).array();
}

void layer_scale(const ConstMatRef& x, const Vec& gamma, MatMap y) {
    y.array() = x.array().rowwise() * gamma.transpose().array();
}

#ifdef __AVX512F__

namespace {

// One row of softmax_rows, n > 0 floats (x and y may alias), in three sweeps of
// 16 floats, the last masked: the max; e^(x − max) with Eigen's exp, stored and
// summed; the row times 1 / sum.
void softmax_row(const float* x, float* y, int64_t n) {
    const int64_t whole = n / 16 * 16;
    const __mmask16 tail = first_lanes(n - whole);
    const __m512 lowest = _mm512_set1_ps(-std::numeric_limits<float>::infinity());
    __m512 top = _mm512_mask_loadu_ps(lowest, tail, x + whole);
    for (int64_t j = 0; j < whole; j += 16) top = _mm512_max_ps(top, _mm512_loadu_ps(x + j));
    const __m512 shift = _mm512_set1_ps(_mm512_reduce_max_ps(top));
    __m512 sum = _mm512_setzero_ps();
    for (int64_t j = 0; j < whole; j += 16) {
        const __m512 e = Eigen::internal::pexp(_mm512_sub_ps(_mm512_loadu_ps(x + j), shift));
        _mm512_storeu_ps(y + j, e);
        sum = _mm512_add_ps(sum, e);
    }
    const __m512 e_tail = Eigen::internal::pexp(_mm512_sub_ps(_mm512_maskz_loadu_ps(tail, x + whole), shift));
    _mm512_mask_storeu_ps(y + whole, tail, e_tail);
    sum = _mm512_mask_add_ps(sum, tail, sum, e_tail);
    const __m512 inverse = _mm512_set1_ps(1.0f / _mm512_reduce_add_ps(sum));
    for (int64_t j = 0; j < whole; j += 16) _mm512_storeu_ps(y + j, _mm512_mul_ps(_mm512_loadu_ps(y + j), inverse));
    _mm512_mask_storeu_ps(y + whole, tail, _mm512_mul_ps(_mm512_maskz_loadu_ps(tail, y + whole), inverse));
}

}  // namespace

#elif defined(__wasm_simd128__)

namespace {

// One row of softmax_rows, n > 0 floats (x and y may alias), in three sweeps of
// 4 floats and the last n % 4 one by one: the max; e^(x − max) (exp4), stored
// and summed; the row times 1 / sum.
void softmax_row(const float* x, float* y, int64_t n) {
    const int64_t whole = n / 4 * 4;
    v128_t top = wasm_f32x4_splat(-std::numeric_limits<float>::infinity());
    for (int64_t j = 0; j < whole; j += 4) top = wasm_f32x4_pmax(top, wasm_v128_load(x + j));
    float shift = std::max(std::max(wasm_f32x4_extract_lane(top, 0), wasm_f32x4_extract_lane(top, 1)),
                           std::max(wasm_f32x4_extract_lane(top, 2), wasm_f32x4_extract_lane(top, 3)));
    for (int64_t j = whole; j < n; ++j) shift = std::max(shift, x[j]);
    v128_t sums = wasm_f32x4_splat(0.f);
    for (int64_t j = 0; j < whole; j += 4) {
        const v128_t e = exp4(wasm_f32x4_sub(wasm_v128_load(x + j), wasm_f32x4_splat(shift)));
        wasm_v128_store(y + j, e);
        sums = wasm_f32x4_add(sums, e);
    }
    float sum = (wasm_f32x4_extract_lane(sums, 0) + wasm_f32x4_extract_lane(sums, 1)) +
                (wasm_f32x4_extract_lane(sums, 2) + wasm_f32x4_extract_lane(sums, 3));
    for (int64_t j = whole; j < n; ++j) sum += y[j] = std::exp(x[j] - shift);
    const float inverse = 1.0f / sum;
    for (int64_t j = 0; j < whole; j += 4)
        wasm_v128_store(y + j, wasm_f32x4_mul(wasm_v128_load(y + j), wasm_f32x4_splat(inverse)));
    for (int64_t j = whole; j < n; ++j) y[j] *= inverse;
}

}  // namespace

#endif

#if defined(__AVX512F__) || defined(__wasm_simd128__)

// Row by row through the instruction set's softmax_row above.
void softmax_rows(const ConstMatRef& x, MatMap y) {
    const Eigen::Index rows = x.rows(), cols = x.cols();
    if (cols == 0) return;
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) softmax_row(x.row(r).data(), y.row(r).data(), cols);
}

#else

void softmax_rows(const ConstMatRef& x, MatMap y) {
    // The exponentials are taken over a block of whole rows as one contiguous
    // array: row by row, every row's last cols % 16 values (5 of ViT's 197)
    // went to the scalar expf, as slow as the vectorised rest.
    constexpr Eigen::Index kRowsPerBlock = 16;
    const Eigen::Index rows = x.rows(), cols = x.cols();
    const Eigen::Index blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index block = 0; block < blocks; ++block) {
        const Eigen::Index first = block * kRowsPerBlock, count = std::min(kRowsPerBlock, rows - first);
        for (Eigen::Index r = first; r < first + count; ++r) y.row(r).array() = x.row(r).array() - x.row(r).maxCoeff();
        Eigen::Map<Eigen::ArrayXf> shifted(y.row(first).data(), count * cols);
        shifted = shifted.exp();
        for (Eigen::Index r = first; r < first + count; ++r) y.row(r) /= y.row(r).sum();
    }
}

#endif

}  // namespace vit
