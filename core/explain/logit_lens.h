// The logit lens: the final LayerNorm and the classifier head applied to each
// block's CLS row (`block{i}.out[0]`), as if the model stopped there — how the
// prediction forms layer by layer.
#pragma once
#include "model/model.h"
#include "pass/trace.h"

namespace vit {

// depth × classes softmax probabilities; row `depth − 1` equals `probs`.
// Throws vit::Error for a model without a classifier head.
Mat logit_lens(const Model& model, const Trace& trace);

}  // namespace vit
