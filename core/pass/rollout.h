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

// The same product a block at a time, for a pass that holds one block's attention
// at once (TraceKeep::Stream): add() each block's attn in order; the same
// arithmetic as attention_rollout, so the same numbers bit for bit.
class RolloutWalk {
public:
    explicit RolloutWalk(int64_t tokens);
    void add(const Tensor& attn);
    const Mat& result() const { return result_; }  // the identity before the first block

private:
    Mat result_, block_, product_;
    bool first_ = true;
};

// Computes stage `rollout` from the trace's `block{b}.attn` stages and puts it
// last (in place of a rollout already there). forward() calls it; a pass run
// with forward_into has no rollout until a view or a dump asks for one.
const Tensor& add_rollout(Trace& trace);

}  // namespace vit
