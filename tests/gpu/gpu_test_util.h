// Shared helpers of the GPU tests: one hidden OpenGL 4.3 context for the whole
// run (under xvfb-run, Mesa's llvmpipe), and the stage-by-stage comparison of a
// GPU Trace with the CPU core's, tolerance abs + rel·|cpu|.
#pragma once
#include <string>

#include "model.h"
#include "trace.h"

namespace vit::gpu_test {

constexpr double kAbs = 1e-5;
constexpr double kRel = 1e-4;

// A random-weight test ViT's sizes (for vit::make_random_model).
ModelConfig small_config(int channels, int patch, int pos_grid, int dim, int heads, int depth, int mlp, int classes);

// Creates the context on first use; a test that needs GL calls this first.
void require_gl();

struct StageDiff {
    double max_abs = 0;     // largest |gpu − cpu|
    double worst_ratio = 0; // largest |gpu − cpu| / (abs + rel·|cpu|); ≤ 1 passes
    size_t worst_index = 0; // where that ratio is
    float cpu_value = 0, gpu_value = 0;
};

StageDiff compare(const Tensor& cpu, const Tensor& gpu, double abs_tol = kAbs, double rel_tol = kRel);

// "(2, 17, 5)" for flat index 175 of shape (3, 17, 17).
std::string index_string(const std::vector<int64_t>& shape, size_t flat);

// Every CPU stage is in the GPU trace with the same id, block and shape, in the
// same order, and equal within tolerance; prints each stage's max difference and
// how much of the tolerance it uses, for both rules below.
//
// Strict: |gpu − cpu| ≤ 1e-5 + 1e-4·|cpu| for every element. Each shader meets it
// on the CPU's own inputs (test_gpu_ops.cpp). A whole pass compounds rounding:
// an element that is a near-cancelling sum of K terms of size s carries an
// absolute error of order ε·√K·s whatever its own size, the CPU (Eigen's blocked
// FMA GEMM) and the GPU (tiled FMA loops) round differently, and every later
// block inherits both. With weights that make attention sharp (scores of ±20)
// that reaches 2–3e-5 on elements near zero in scores and context after one or
// two blocks. So for whole passes the absolute part scales with the stage's
// largest magnitude: |gpu − cpu| ≤ 1e-5·max(1, max|cpu|) + 1e-4·|cpu|
// (the core's PyTorch comparison uses max|diff| / max|ref| ≤ 1e-4, looser still).
enum class Rule { Strict, ScaledAbs };
void check_same_trace(const Trace& cpu, const Trace& gpu, const std::string& label, Rule rule = Rule::ScaledAbs);

}  // namespace vit::gpu_test
