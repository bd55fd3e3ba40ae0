// Attention rollout (Abnar & Zuidema, 2020): how much each token's final
// representation draws on each input token, through every block's attention
// and the residual path.
#pragma once
#include <vector>

#include "tensor/tensor.h"
#include "pass/trace.h"

namespace vit {

// For each block: Â = mean over heads of attn + I, rows renormalised to sum 1.
// rollout = Â_{L-1} · … · Â_1 · Â_0.  attns: H×T×T each; out: T×T.
void attention_rollout(const std::vector<const Tensor*>& attns, Tensor& out);

// Computes stage `rollout` from the trace's `block{b}.attn` stages and puts it
// last (in place of a rollout already there). forward() calls it; a pass run
// with forward_into has no rollout until a view or a dump asks for one.
const Tensor& add_rollout(Trace& trace);

}  // namespace vit
