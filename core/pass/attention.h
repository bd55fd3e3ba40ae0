// Multi-head self-attention, split into the stages the app shows (timm's
// Attention.forward with fused_attn off): q, k, v per head, scores, softmax,
// context. The qkv and output projections are linear layers (layers.h), qkv's
// written head by head.
#pragma once
#include "tensor/tensor.h"

namespace vit {

class PackedBt;

// q, k, v: H×T×Dh each, the heads of x · wᵀ + b (T×3D), each product's tile
// written straight into its head (timm: qkv(x).reshape(B, N, 3, H, Dh).permute(2, 0, 3, 1, 4));
// `packed`: w packed beforehand (gemm.h), or null
void qkv_heads(const ConstMatRef& x, const Mat& w, const Vec& b, Tensor& q, Tensor& k, Tensor& v,
               const PackedBt* packed = nullptr);

// Per head h:  scores_h = q_h · k_hᵀ / √Dh;  attn_h = softmax(scores_h / τ) over the last axis;
//              context[:, h·Dh:(h+1)·Dh] = attn_h · v_h
//   q, k, v: H×T×Dh   scores, attn: H×T×T   context: T×D   τ: the temperature, 1 in the model
// `scores` and `attn` may be one tensor (a pass that keeps neither): each part's weights
// are copied over its scores, so it ends as attn.
void attention(const Tensor& q, const Tensor& k, const Tensor& v, Tensor& scores, Tensor& attn, Tensor& context,
               float temperature = 1.0f);

}  // namespace vit
