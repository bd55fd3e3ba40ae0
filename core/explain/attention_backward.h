// The backward pass of multi-head attention (attention.h), stage by stage:
// context → attn and v, attn → scores (softmax), scores → q and k, and the
// heads merged back into the qkv projection's output.
#pragma once
#include "tensor/tensor.h"

namespace vit {

// context_h = attn_h · v_h:  dattn_h = dcontext_h · v_hᵀ,  dv_h = attn_hᵀ · dcontext_h
//   attn, dattn: H×T×T   v, dv: H×T×Dh   dcontext: T×D
void attention_context_backward(const Tensor& attn, const Tensor& v, const Tensor& dcontext, Tensor& dattn, Tensor& dv);

// attn_h = softmax(scores_h),  scores_h = q_h · k_hᵀ / √Dh:
//   dscores_h = attn_h ⊙ (dattn_h − rowsum(dattn_h ⊙ attn_h))
//   dq_h = dscores_h · k_h / √Dh,  dk_h = dscores_hᵀ · q_h / √Dh
//   q, k, dq, dk: H×T×Dh   attn, dattn, dscores: H×T×T
void attention_weights_backward(const Tensor& q, const Tensor& k, const Tensor& attn, const Tensor& dattn,
                                Tensor& dscores, Tensor& dq, Tensor& dk);

// The transpose of qkv_heads's split into heads: dq, dk, dv (H×T×Dh) → dqkv: T×3D
void merge_heads(const Tensor& dq, const Tensor& dk, const Tensor& dv, MatMap dqkv);

}  // namespace vit
