// The backward pass of the ViT (what torch.autograd computes for timm's
// VisionTransformer), stage by stage from a forward Trace: the gradient of a
// scalar of the logits with respect to every stage and every weight.
#pragma once
#include "model/model.h"
#include "pass/trace.h"

namespace vit {

struct Gradients {
    // dL/d(stage) for every stage the logits depend on, with the forward's
    // StageRefs and shapes, in the forward's order (no `probs`, no `rollout`).
    Trace stages;
    // dL/d(weight) in Model's layout (config copied); an empty bias stays empty.
    Model params;
};

// `trace` is forward(model, input); dlogits = dL/dlogits (classes).
// Throws vit::Error when the model has no head or dlogits has the wrong size.
Gradients backward(const Model& model, const Trace& trace, const Tensor& dlogits);

// The same into `grads`, for a batch: the stage gradients are rewritten in the
// storage of the previous call, and the weight gradients are added to
// grads.params, which must start as zeros_like(model), so the samples sum.
void backward_into(const Model& model, const Trace& trace, const Tensor& dlogits, Gradients& grads);

// The same in pieces, so a job can stop between them: the constructor checks
// and seeds the head, each step() walks back through one block (last to
// first), and the step after block 0 through the embedding. step() returns
// whether pieces remain; `grads` is complete once it returns false.
class BackwardWalk {
public:
    BackwardWalk(const Model& model, const Trace& trace, const Tensor& dlogits, Gradients& grads);
    bool step();

private:
    const Model& model_;
    const Trace& trace_;
    Gradients& grads_;
    int next_block_;  // the block the next step walks through; -1: the embedding
};

// dL/dlogits for L = logit[cls] (one-hot); throws vit::Error naming the class
// count when cls is out of range.
Tensor logit_seed(const Model& model, int cls);

// The gradient of logit[cls]; throws vit::Error as logit_seed, or when the model has no head.
Gradients logit_gradients(const Model& model, const Trace& trace, int cls);

}  // namespace vit
