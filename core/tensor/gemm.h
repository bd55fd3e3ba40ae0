// The core's matrix products, C = A·Bᵀ (+ bias: a linear layer; the attention
// scores) and C = A·B (attention's weighted sum), on one thread; callers split the
// work over threads. With AVX-512 (a -march=native build on such a CPU) they
// run the core's own blocked kernel: B (a weight matrix) is packed one 32-column
// panel at a time, the next panel fetched from memory while this one computes,
// never whole in one pass before the product starts as a BLAS does (OpenBLAS's
// packing of the weights took 16% of a ViT-B pass).
// A product repeated with the same weights (pass after pass on one model) can
// take them packed once beforehand (PackedBt) and skip that packing.
// In the page's build, WebAssembly SIMD, they run a kernel of 4 × 8 tiles
// (gemm_wasm.cpp). Elsewhere they are Eigen's products (a BLAS's sgemm in a
// BLAS build).
#pragma once
#include <algorithm>

#include "tensor/tensor.h"

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

// Where a product writes c (rows × cols): one matrix, or its columns in groups
// of `group_cols`, each group a matrix of its own, `stride` floats a row — c(r, j)
// at groups[g] + r · stride + j − g · group_cols, g = j / group_cols. The qkv
// projection writes Q, K and V head by head this way. c's column 0 is column
// `first_col` of the groups (a thread's share of the columns).
class ColumnGroups {
public:
    // One matrix
    ColumnGroups(MatRef c)
        : one_(c.data()),
          group_cols_(std::max<int64_t>(1, c.cols())),
          stride_(c.outerStride()),
          rows_(c.rows()),
          cols_(c.cols()) {}
    ColumnGroups(float* const* groups, int64_t group_cols, int64_t stride, int64_t rows, int64_t cols)
        : groups_(groups), group_cols_(group_cols), stride_(stride), rows_(rows), cols_(cols) {}
    int64_t rows() const { return rows_; }
    int64_t cols() const { return cols_; }
    int64_t stride() const { return stride_; }
    // c's columns [first, first + count)
    ColumnGroups middle_cols(int64_t first, int64_t count) const {
        ColumnGroups part = *this;
        part.first_col_ += first;
        part.cols_ = count;
        return part;
    }
    // Where c(r, j) is written
    float* at(int64_t r, int64_t j) const {
        const int64_t g = (first_col_ + j) / group_cols_;
        return (groups_ ? groups_[g] : one_) + r * stride_ + (first_col_ + j - g * group_cols_);
    }
    // Columns from j on that lie in j's group
    int64_t run_from(int64_t j) const { return group_cols_ - (first_col_ + j) % group_cols_; }
    // True when all of c's columns lie in one group
    bool one_matrix() const { return run_from(0) >= cols_; }
    // True when every group boundary falls on a multiple of `cols` of c's columns
    bool groups_aligned_to(int64_t cols) const {
        return one_matrix() || (group_cols_ % cols == 0 && first_col_ % cols == 0);
    }

private:
    float* const* groups_ = nullptr;  // null: one matrix, at one_
    float* one_ = nullptr;
    int64_t group_cols_, stride_, rows_, cols_, first_col_ = 0;
};

// c = (a · scale) · bᵀ + bias     a: rows × depth, b: cols × depth, c: rows × cols,
// bias: cols floats added to every row, or null for none; gelu: also GELU of c, or null
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale = 1.0f, const float* bias = nullptr,
                 const GeluOutput* gelu = nullptr);
// The same, scale 1, written into column groups (gelu: c then one group)
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, const ColumnGroups& c, const float* bias = nullptr,
                 const GeluOutput* gelu = nullptr);

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
    friend void multiply_bt(const ConstMatRef&, const PackedBt&, int64_t, const ColumnGroups&, const float*,
                            const GeluOutput*);
};

// c = a · b[first_row : first_row + c.cols()]ᵀ + bias, with b packed; first_row a multiple of 32
void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, MatRef c, const float* bias = nullptr,
                 const GeluOutput* gelu = nullptr);
// The same, written into column groups (gelu: c then one group)
void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, const ColumnGroups& c,
                 const float* bias = nullptr, const GeluOutput* gelu = nullptr);

// c = a · b                         a: rows × depth, b: depth × cols, c: rows × cols
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c);

// True when the two above run the core's own kernel rather than Eigen's products.
bool own_gemm_kernel();

}  // namespace vit
