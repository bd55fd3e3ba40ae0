// LayerNorm, GELU, softmax, residual add and linear layers of timm's ViT
// (torch.nn.LayerNorm, nn.GELU, softmax(dim=-1), nn.Linear). Matrix products
// go to Eigen's GEMM (multi-threaded through OpenMP); row-wise ops split rows
// over OpenMP threads and vectorise within a row.
#include "layers.h"

#include <omp.h>

#include <algorithm>
#include <unsupported/Eigen/SpecialFunctions>

namespace vit {

// Output features per thread are a multiple of this (whole AVX-512 registers).
constexpr Eigen::Index kColumnChunk = 16;
// Below this many weights (ViT-Ti's layers) Eigen's own split of the product is faster.
constexpr Eigen::Index kSplitMinWeights = 1 << 18;

void linear(const ConstMatRef& x, const Mat& w, const Vec& b, MatMap y) {
    // Each thread multiplies by its own slice of w's rows (output features):
    // no shared packing, unlike Eigen's own split, so two threads run twice as fast.
    const Eigen::Index out = w.rows();
    const int threads = omp_in_parallel() ? 1 : omp_get_max_threads();
    if (threads > 1 && w.size() >= kSplitMinWeights && y.size() >= kParallelMinElements) {
#pragma omp parallel num_threads(threads)
        {
            const Eigen::Index per_thread =
                (out / threads + kColumnChunk - 1) / kColumnChunk * kColumnChunk;
            const Eigen::Index begin = std::min(out, per_thread * omp_get_thread_num());
            const Eigen::Index count = omp_get_thread_num() == threads - 1 ? out - begin : std::min(per_thread, out - begin);
            if (count > 0) y.middleCols(begin, count).noalias() = x * w.middleRows(begin, count).transpose();
        }
    } else {
        y.noalias() = x * w.transpose();
    }
    if (b.size() == 0) return;
    const Eigen::Index rows = y.rows();
#pragma omp parallel for schedule(static) if (y.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) y.row(r) += b.transpose();
}

void layer_norm(const ConstMatRef& x, const Vec& gamma, const Vec& beta, float eps, MatMap y) {
    const Eigen::Index rows = x.rows();
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = x.row(r).array();
        const RowNorm n = row_norm(row, eps);
        y.row(r).array() = (row - n.mean) * n.inv_std * gamma.transpose().array() + beta.transpose().array();
    }
}

void gelu(const ConstMatRef& x, MatMap y) {
    const Eigen::Index rows = x.rows();
    const float inv_sqrt2 = 0.70710678118654752f;
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const auto row = x.row(r).array();
        y.row(r).array() = 0.5f * row * (1.0f + (row * inv_sqrt2).erf());
    }
}

void softmax_rows(const ConstMatRef& x, MatMap y) {
    const Eigen::Index rows = x.rows();
#pragma omp parallel for schedule(static) if (x.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) {
        const float max = x.row(r).maxCoeff();
        y.row(r).array() = (x.row(r).array() - max).exp();
        y.row(r) /= y.row(r).sum();
    }
}

void add(const ConstMatRef& a, const ConstMatRef& b, MatMap y) {
    const Eigen::Index rows = a.rows();
#pragma omp parallel for schedule(static) if (a.size() >= kParallelMinElements)
    for (Eigen::Index r = 0; r < rows; ++r) y.row(r) = a.row(r) + b.row(r);
}

}  // namespace vit
