// How far a tensor is from a reference of the same shape: the largest
// difference, where it is (flat index and one index per axis), the two values
// there, the difference relative to the reference's largest magnitude, and how
// much of a tolerance abs + rel·|reference| the worst element uses. Also the
// GPU-vs-CPU tolerance of each stage. One comparison for the app's CPU/GPU
// panel, the PyTorch fixture tests and the GPU tests.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "pass/stages.h"
#include "tensor/tensor.h"

namespace vit {

// |got − want| ≤ abs + rel·|want| for every element.
struct Tolerance {
    double abs = 0;
    double rel = 0;
};

struct Difference {
    double max_abs = 0;          // largest |got − want| (infinite where one side only is NaN or infinite)
    int64_t flat = -1;           // its flat index (-1: empty tensors)
    std::vector<int64_t> where;  // the same index per axis
    float got = 0, want = 0;     // the two values there
    double max_want = 0;         // largest |want|
    double tolerance_used = 0;   // largest |got − want| / (abs + rel·|want|); ≤ 1 is within the tolerance
    int64_t worst_flat = -1;     // the element that uses the most of it

    double relative() const { return max_want > 0 ? max_abs / max_want : max_abs; }
    bool within() const { return tolerance_used <= 1; }
};

// `got` against the reference `want` of the same shape (vit::Error naming both
// shapes otherwise), under `tolerance`.
Difference compare(const Tensor& got, const Tensor& want, const Tolerance& tolerance = {});

// |a − b|, where NaN or an infinity on one side only is infinitely far (two
// NaNs or equal infinities are 0 apart).
float distance(float a, float b);

// Row-major flat index → one index per axis; "(0, 3, 17)" for display.
std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape);
std::string index_string(const std::vector<int64_t>& where);

// GPU vs CPU. One shader on the CPU's own inputs meets 1e-5 + 1e-4·|cpu|
// (tests/gpu/test_gpu_ops.cpp).
constexpr Tolerance kGpuShaderTolerance{1e-5, 1e-4};

// A stage of kind `kind` of a whole GPU pass against the CPU's `cpu`. A pass
// compounds rounding: an element that is a near-cancelling sum of K terms of
// size s carries an absolute error of order ε·√K·s whatever its own size, the
// CPU (Eigen's blocked FMA GEMM) and the GPU (tiled FMA loops) round
// differently, and every later block inherits both. With weights that make
// attention sharp (scores of ±20) that reaches 2–3e-5 on elements near zero in
// scores and context after one or two blocks. So the absolute part scales with
// the stage's largest magnitude: 1e-5·max(1, max|cpu|) + 1e-4·|cpu| (the
// PyTorch comparison uses max|diff| / max|ref| ≤ 1e-4, looser still). Every
// stage has this rule today; a stage that needs more gets its case here.
// A pass whose softmax divides the scores by a temperature τ < 1 multiplies
// their float differences by 1/τ, and so those of every stage after them: the
// whole rule is then scaled by 1/τ.
Tolerance gpu_tolerance(StageKind kind, const Tensor& cpu, float temperature = 1.0f);
// "1e-05·max(1, max|cpu|) + 0.0001·|cpu|, × 1/τ for τ < 1", for the app's panel.
std::string gpu_tolerance_rule();

}  // namespace vit
