// The core's matrix products, C = A·Bᵀ (+ bias: a linear layer; the attention
// scores) and C = A·B (attention's weighted sum), on one thread; callers split the
// work over threads. With AVX-512 (a -march=native build on such a CPU) they
// run the core's own blocked kernel: B (a weight matrix) is packed one 32-column
// panel at a time, the next panel fetched from memory while this one computes,
// never whole in one pass before the product starts as a BLAS does (OpenBLAS's
// packing of the weights took 16% of a ViT-B pass).
// A product repeated with the same weights (pass after pass on one model) can
// take them packed once beforehand (PackedBt) and skip that packing.
// Without AVX-512 they are Eigen's products (a BLAS's sgemm in a BLAS build).
#pragma once
#include "tensor.h"

namespace vit {

// Writable matrix parameter: binds a Mat, a Map or a block of one.
using MatRef = Eigen::Ref<Mat>;

// Where a product also writes GELU of its result (an MLP's fc1 and its GELU):
// gelu(c(r, j)) at data[r · stride + j], from each tile of c as it is finished.
// c itself then goes to memory past the caches where its rows are 64-byte
// aligned, as nothing in the pass reads it again.
struct GeluOutput {
    float* data;
    int64_t stride;
};

// c = (a · scale) · bᵀ + bias     a: rows × depth, b: cols × depth, c: rows × cols,
// bias: cols floats added to every row, or null for none; gelu: also GELU of c, or null
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale = 1.0f,
                 const float* bias = nullptr, const GeluOutput* gelu = nullptr);

// A weight matrix b (rows × depth) packed once as the kernel reads it: per block
// of depth, bᵀ in 32-column panels. It remembers b's storage, which must stay
// alive and unchanged while it is used; it holds a second copy of the weights.
// Without the core's kernel nothing is packed and products read b itself.
class PackedBt {
public:
    PackedBt() = default;
    explicit PackedBt(const ConstMatRef& b);
    // Made from this very matrix: the same storage and shape.
    bool made_from(const ConstMatRef& b) const;
    // The panels of b's rows [row, …) over the depth block starting at k0; row a multiple of 32.
    const float* panel(int64_t k0, int64_t row) const;

private:
    FloatStorage data_;
    const float* source_ = nullptr;
    int64_t rows_ = 0, depth_ = 0, stride_ = 0;
    friend void multiply_bt(const ConstMatRef&, const PackedBt&, int64_t, MatRef, const float*, const GeluOutput*);
};

// c = a · b[first_row : first_row + c.cols()]ᵀ + bias, with b packed; first_row a multiple of 32
void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, MatRef c, const float* bias = nullptr,
                 const GeluOutput* gelu = nullptr);

// c = a · b                         a: rows × depth, b: depth × cols, c: rows × cols
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c);

// True when the two above run the core's own kernel rather than Eigen's products.
bool own_gemm_kernel();

}  // namespace vit
