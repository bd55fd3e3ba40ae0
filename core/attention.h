// Multi-head self-attention, split into the stages the app shows (timm's
// Attention.forward with fused_attn off): q, k, v per head, scores, softmax,
// context. The qkv and output projections are plain linear layers (layers.h).
#pragma once
#include "tensor.h"

namespace vit {

// qkv: T×3D (rows of ln1 · qkv_wᵀ + b) → q, k, v: H×T×Dh each
// (timm: qkv.reshape(B, N, 3, H, Dh).permute(2, 0, 3, 1, 4))
void split_heads(const ConstMatRef& qkv, int heads, Tensor& q, Tensor& k, Tensor& v);

// scores_h = q_h · k_hᵀ / √Dh;  attn_h = softmax(scores_h / τ) over the last axis
//   q, k: H×T×Dh   scores, attn: H×T×T   τ: the temperature, 1 in the model
void attention_weights(const Tensor& q, const Tensor& k, Tensor& scores, Tensor& attn, float temperature = 1.0f);

// context[:, h·Dh:(h+1)·Dh] = attn_h · v_h   attn: H×T×T, v: H×T×Dh, context: T×D
void attention_context(const Tensor& attn, const Tensor& v, Tensor& context);

}  // namespace vit
