// The core's matrix products, C = A·Bᵀ (+ bias: a linear layer; the attention
// scores) and C = A·B (attention's weighted sum), on one thread; callers split the
// work over threads. With AVX-512 (a -march=native build on such a CPU) they
// run the core's own blocked kernel: B (a weight matrix) is packed one 32-column
// panel at a time, the next panel fetched from memory while this one computes,
// never whole in one pass before the product starts as a BLAS does (OpenBLAS's
// packing of the weights took 16% of a ViT-B pass).
// Without AVX-512 they are Eigen's products (a BLAS's sgemm in a BLAS build).
#pragma once
#include "tensor.h"

namespace vit {

// Writable matrix parameter: binds a Mat, a Map or a block of one.
using MatRef = Eigen::Ref<Mat>;

// c = (a · scale) · bᵀ + bias     a: rows × depth, b: cols × depth, c: rows × cols,
// bias: cols floats added to every row, or null for none
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale = 1.0f,
                 const float* bias = nullptr);

// c = a · b                         a: rows × depth, b: depth × cols, c: rows × cols
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c);

// True when the two above run the core's own kernel rather than Eigen's products.
bool own_gemm_kernel();

}  // namespace vit
