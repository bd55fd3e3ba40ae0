// What the core's matrix kernels share (gemm.cpp, gemm_avx512.cpp,
// gemm_wasm.cpp): views of strided matrices, C's rows split into tiles, and the
// way round for a product whose column groups split a tile.
#pragma once
#include <algorithm>
#include <cassert>

#include "tensor/gelu.h"
#include "tensor/gemm.h"

namespace vit::gemm {

// Rows [first_row, first_row + count) of a matrix at `source`, `stride` floats a row.
inline Eigen::Map<const Mat, 0, Eigen::OuterStride<>> rows_of(const float* source, int64_t stride, int64_t first_row,
                                                              int64_t count, int64_t depth) {
    return Eigen::Map<const Mat, 0, Eigen::OuterStride<>>(source + first_row * stride, count, depth,
                                                          Eigen::OuterStride<>(stride));
}

// A rows × cols matrix at `data`, `stride` floats a row.
inline Eigen::Map<Mat, 0, Eigen::OuterStride<>> strided(float* data, int64_t rows, int64_t cols, int64_t stride) {
    return Eigen::Map<Mat, 0, Eigen::OuterStride<>>(data, rows, cols, Eigen::OuterStride<>(stride));
}

// c as one matrix (c.one_matrix())
inline Eigen::Map<Mat, 0, Eigen::OuterStride<>> whole_of(const ColumnGroups& c) {
    return strided(c.at(0, 0), c.rows(), c.cols(), c.stride());
}

// gelu's output for c whole, from c as it stands.
inline void write_gelu(const ConstMatRef& c, const GeluOutput* gelu) {
    if (gelu) strided(gelu->data, c.rows(), c.cols(), gelu->stride).array() = gelu_of(c.array());
}

// m's columns written where c places them, a group's run of columns at a time.
inline void write_columns(const ConstMatRef& m, const ColumnGroups& c) {
    for (int64_t j = 0; j < c.cols();) {
        const int64_t run = std::min(c.cols() - j, c.run_from(j));
        strided(c.at(0, j), c.rows(), run, c.stride()) = m.middleCols(j, run);
        j += run;
    }
}

// A product of no depth (bias only), or one whose groups split a kernel's
// tile: computed into a matrix of its own by `product` (given a MatRef), then
// written to c's groups.
template <class Product>
void multiply_whole(int64_t depth, const float* bias, const ColumnGroups& c, const GeluOutput* gelu,
                    const Product& product) {
    Mat whole(c.rows(), c.cols());
    if (depth == 0) {
        whole.setZero();
        if (bias) whole.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, c.cols());
        write_gelu(whole, gelu);
    } else {
        product(MatRef(whole));
    }
    write_columns(whole, c);
}

// The start every kernel's product shares: checks the shapes (a: rows × depth,
// op(b): depth × cols, c: rows × cols) and settles what the kernel's tiles do
// not compute — an empty c; no depth, or column groups that split a tile of
// `tile_cols` (these two through multiply_whole and `product`). True when the
// tiles have the product to compute.
template <class Product>
bool tiles_compute(const ConstMatRef& a, [[maybe_unused]] const ConstMatRef& b, [[maybe_unused]] bool b_transposed,
                   const float* bias, const ColumnGroups& c, const GeluOutput* gelu, int64_t tile_cols,
                   const Product& product) {
    const int64_t depth = a.cols();
    assert(a.rows() == c.rows() &&
           (b_transposed ? b.rows() == c.cols() && b.cols() == depth : b.rows() == depth && b.cols() == c.cols()));
    assert(!gelu || c.one_matrix());
    if (c.rows() == 0 || c.cols() == 0) return false;
    if (depth > 0 && c.groups_aligned_to(tile_cols)) return true;
    multiply_whole(depth, bias, c, gelu, product);
    return false;
}

// C's rows in tiles of at most `most` rows, as even as can be (ViT's 197 rows
// in tiles of 14: 2 of 14 and 13 of 13, not 14 of 14 and a slow tile of 1).
struct RowTiles {
    int64_t count, rows_each, longer;  // the first `longer` tiles have rows_each + 1 rows
    RowTiles(int64_t rows, int64_t most)
        : count((rows + most - 1) / most), rows_each(rows / count), longer(rows % count) {}
    int64_t rows(int64_t tile) const { return rows_each + (tile < longer ? 1 : 0); }
};

}  // namespace vit::gemm
