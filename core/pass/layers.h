// The row-wise building blocks of timm's ViT, as small free functions over
// Eigen matrices (tokens are rows, features are columns, as PyTorch's (T, D)).
// Each writes its output in place; none allocates. Parallel over rows with OpenMP.
#pragma once
#include <cmath>

#include "tensor/tensor.h"

namespace vit {

class ColumnGroups;
class PackedBt;

// y = x · wᵀ + b     x: T×D_in, w: D_out×D_in (PyTorch layout), b: D_out, y: T×D_out
// `packed`: w packed beforehand (gemm.h), or null; throws vit::Error if made from another matrix.
void linear(const ConstMatRef& x, const Mat& w, const Vec& b, MatMap y, const PackedBt* packed = nullptr);
// The same, y's columns written where `y` places them (gemm.h): the qkv projection straight into its heads.
void linear(const ConstMatRef& x, const Mat& w, const Vec& b, const ColumnGroups& y, const PackedBt* packed = nullptr);
// The same, and act = gelu(y) (an MLP's fc1 and its GELU), written from each
// tile of y as it is computed rather than in a second pass over y.
void linear_gelu(const ConstMatRef& x, const Mat& w, const Vec& b, MatMap y, MatMap act,
                 const PackedBt* packed = nullptr);

// The mean and 1/sqrt(var + eps) of one row as LayerNorm normalises it
// (biased variance); shared by layer_norm and its backward.
struct RowNorm {
    float mean, inv_std;
};
template <typename Row>
RowNorm row_norm(const Row& row, float eps) {
    const float inv_cols = 1.0f / static_cast<float>(row.size());
    const float mean = row.sum() * inv_cols;
    const float var = (row - mean).square().sum() * inv_cols;
    return {mean, 1.0f / std::sqrt(var + eps)};
}

// y = (x − mean) / sqrt(var + eps) · gamma + beta, per row, biased variance (nn.LayerNorm)
void layer_norm(const ConstMatRef& x, const Vec& gamma, const Vec& beta, float eps, MatMap y);

// sum = a + b, and y = layer_norm(sum), each row in one pass (a residual add
// and the LayerNorm that reads it)
void add_layer_norm(const ConstMatRef& a, const ConstMatRef& b, const Vec& gamma, const Vec& beta, float eps,
                    MatMap sum, MatMap y);

// y = x · ½(1 + erf(x/√2)), elementwise (nn.GELU(), the erf form; gelu.h)
void gelu(const ConstMatRef& x, MatMap y);

// y = x · sigmoid(1.702 x), elementwise (OpenAI CLIP's QuickGELU, timm act_layer='quick_gelu')
void quick_gelu(const ConstMatRef& x, MatMap y);

// y = x · sigmoid(x), elementwise (nn.SiLU())
void silu(const ConstMatRef& x, MatMap y);

// y = SiLU(h₁) ⊙ h₂ with h₁, h₂ the left and right halves of h's columns
// (DINOv2 ViT-g's SwiGLU: timm SwiGLUPacked, HF Dinov2SwiGLUFFN)
void swiglu(const ConstMatRef& h, MatMap y);

// y = x ⊙ gamma per row (timm's LayerScale: x * self.gamma)
void layer_scale(const ConstMatRef& x, const Vec& gamma, MatMap y);

// y = softmax(x) over each row, max subtracted first (x and y may alias)
void softmax_rows(const ConstMatRef& x, MatMap y);

}  // namespace vit
