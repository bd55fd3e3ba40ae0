// Multi-head self-attention, split into the stages the app shows (timm's
// Attention.forward with fused_attn off): q, k, v per head, scores, softmax,
// context. The qkv and output projections are plain linear layers (layers.h).
#pragma once
#include "tensor.h"

namespace vit {

// qkv: T×3D (rows of ln1 · qkv_wᵀ + b) → q, k, v: H×T×Dh each
// (timm: qkv.reshape(B, N, 3, H, Dh).permute(2, 0, 3, 1, 4))
void split_heads(const ConstMatRef& qkv, int heads, Tensor& q, Tensor& k, Tensor& v);

// Per head h:  scores_h = q_h · k_hᵀ / √Dh;  attn_h = softmax(scores_h / τ) over the last axis;
//              context[:, h·Dh:(h+1)·Dh] = attn_h · v_h
//   q, k, v: H×T×Dh   scores, attn: H×T×T   context: T×D   τ: the temperature, 1 in the model
void attention(const Tensor& q, const Tensor& k, const Tensor& v, Tensor& scores, Tensor& attn, Tensor& context,
               float temperature = 1.0f);

}  // namespace vit
