// Class-specific relevance (Chefer, Gur & Wolf 2021, "Generic
// Attention-model Explainability for Interpreting Bi-Modal and
// Encoder-Decoder Transformers"): attention weighted by its gradient.
#pragma once
#include "pass/trace.h"

namespace vit {

// With A_b = block{b}.attn and ∇A_b the gradient of logit[c] w.r.t. it
// (logit_gradients): Ā_b = mean over heads of max(0, ∇A_b ⊙ A_b);
// R = I, then R = R + Ā_b · R for b = 0..depth−1.  Returns R: T×T.
// The class-c map over the image is R[0, 1:].
Tensor relevance(const Trace& values, const Trace& gradients, int depth);

}  // namespace vit
