// The matrix products of gemm.h that every build shares, and Eigen's products
// where the core has no kernel of its own for the instruction set (neither
// AVX-512, gemm_avx512.cpp, nor WebAssembly SIMD, gemm_wasm.cpp): a BLAS's
// sgemm in a BLAS build.
#include "tensor/gemm.h"

#include "tensor/gemm_parts.h"

namespace vit {

#if !defined(__AVX512F__) && !defined(__wasm_simd128__)

void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, MatRef c, float scale, const float* bias,
                 const GeluOutput* gelu) {
    if (scale == 1.0f) c.noalias() = a * b.transpose();
    else c.noalias() = (a * scale) * b.transpose();
    if (bias) c.rowwise() += Eigen::Map<const Eigen::RowVectorXf>(bias, c.cols());
    gemm::write_gelu(c, gelu);
}
void multiply_bt(const ConstMatRef& a, const ConstMatRef& b, const ColumnGroups& c, const float* bias,
                 const GeluOutput* gelu) {
    if (c.one_matrix()) {
        multiply_bt(a, b, gemm::whole_of(c), 1.0f, bias, gelu);
        return;
    }
    gemm::multiply_whole(b.cols(), bias, c, gelu, [&](MatRef whole) { multiply_bt(a, b, whole, 1.0f, bias); });
}
void multiply(const ConstMatRef& a, const ConstMatRef& b, MatRef c) { c.noalias() = a * b; }
bool own_gemm_kernel() { return false; }

#endif

#ifndef __AVX512F__  // only the AVX-512 kernel packs weights ahead: products read b itself

PackedBt::PackedBt(const ConstMatRef& b)
    : source_(b.data()), rows_(b.rows()), depth_(b.cols()), stride_(b.outerStride()) {}

const float* PackedBt::panel(int64_t, int64_t) const { return nullptr; }

void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, const ColumnGroups& c, const float* bias,
                 const GeluOutput* gelu) {
    multiply_bt(a, gemm::rows_of(b.source_, b.stride_, first_row, c.cols(), b.depth_), c, bias, gelu);
}

#endif

void multiply_bt(const ConstMatRef& a, const PackedBt& b, int64_t first_row, MatRef c, const float* bias,
                 const GeluOutput* gelu) {
    multiply_bt(a, b, first_row, ColumnGroups(c), bias, gelu);
}

bool PackedBt::made_from(const ConstMatRef& b) const {
    return b.data() == source_ && b.rows() == rows_ && b.cols() == depth_ && b.outerStride() == stride_;
}

}  // namespace vit
