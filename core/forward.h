// The forward pass of a pre-norm ViT (timm's VisionTransformer.forward in eval
// mode), recording every stage of DESIGN.md's catalogue into a Trace.
#pragma once
#include "model.h"
#include "trace.h"

namespace vit {

// `input` is C×S×S (preprocess()); S must be a multiple of the patch size.
// The positional embedding is interpolated (bicubic, CLS row kept) when the
// patch grid differs from the one it was trained on.
Trace forward(const Model& model, const Tensor& input);
// The same, writing into `trace`: a Trace from an earlier call of the same
// model and input size is reused without allocating (for benchmarks and the app).
void forward_into(const Model& model, const Tensor& input, Trace& trace);

}  // namespace vit
