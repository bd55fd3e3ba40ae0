// The backward pass through every stage of the catalogue, last to first:
// head → final norm → blocks (MLP, then attention, residuals adding up;
// through LayerScale and QuickGELU where the model has them) → norm_pre →
// positions (through the bicubic resample when interpolated) → CLS → patch
// projection → pixels. Reads the forward Trace; recomputes nothing but the
// LayerNorm statistics.
#include "explain/backward.h"

#include <algorithm>
#include <cassert>

#include "explain/attention_backward.h"
#include "base/error.h"
#include "explain/layers_backward.h"
#include "pass/patches.h"
#include "pass/pos_embed.h"
#include "tensor/threads.h"

namespace vit {

namespace {

// The forward values and the gradients being filled, by stage.
struct Pass {
    const Model& model;
    const Trace& values;
    Gradients& grads;

    const Tensor& value(StageKind kind, int block = -1) const { return values.at({kind, block}); }
    const Tensor& value(const StageRef& s) const { return values.at(s); }
    Tensor& grad(const StageRef& s) { return grads.stages.find(s)->tensor; }
    Tensor& grad(StageKind kind, int block = -1) { return grad({kind, block}); }
};

// The stream entering block b (the previous block's `out`, or `tokens`), or
// the final norm's input for b == depth.
StageRef stream_into(int b, const ModelConfig& c) {
    const StageRef s = b < c.depth ? StageRef{StageKind::Ln1, b} : StageRef{StageKind::Norm, -1};
    return *stage_input(s, c);
}

// d(branch) from d(what the residual adds): through LayerScale's ⊙ gamma when
// the model has it (its `ls1`/`ls2` stage gets the stream's gradient), else the same.
void scaled_branch_backward(Pass& p, int b, StageKind scaled, StageKind branch, StageKind sum, const Vec& gamma,
                            Vec& dgamma) {
    if (!p.model.config.layer_scale) {
        p.grad(branch, b).data = p.grad(sum, b).data;
        return;
    }
    p.grad(scaled, b).data = p.grad(sum, b).data;
    layer_scale_backward(p.value(branch, b).mat(), gamma, p.grad(scaled, b).mat(), p.grad(branch, b).mat(), dgamma);
}

// d(fc1) from d(activation): GELU's, QuickGELU's or SwiGLU's derivative.
void activation_backward(Pass& p, int b) {
    const Activation kind = p.model.config.activation;
    const ConstMatRef fc1 = p.value(StageKind::Fc1, b).mat();
    const ConstMatRef dact = p.grad(activation_stage(kind), b).mat();
    const MatMap dfc1 = p.grad(StageKind::Fc1, b).mat();
    switch (kind) {
        case Activation::Gelu: return gelu_backward(fc1, dact, dfc1);
        case Activation::QuickGelu: return quick_gelu_backward(fc1, dact, dfc1);
        case Activation::SwiGlu: return swiglu_backward(fc1, dact, dfc1);
    }
}

// block{b}: dL/d(out) → dL/d(stream in) and the block's weight gradients.
void block_backward(Pass& p, int b) {
    const ModelConfig& c = p.model.config;
    const BlockWeights& w = p.model.blocks[b];
    BlockWeights& gw = p.grads.params.blocks[b];
    const int64_t T = p.value(StageKind::Out, b).shape[0], D = c.embed_dim;
    auto value = [&](StageKind k) -> const Tensor& { return p.value(k, b); };
    auto grad = [&](StageKind k) -> Tensor& { return p.grad(k, b); };

    // out = res1 + ls2(mlp_out);  mlp_out = fc2(act(fc1(ln2(res1))))
    scaled_branch_backward(p, b, StageKind::Ls2, StageKind::MlpOut, StageKind::Out, w.ls2, gw.ls2);
    const StageKind act = activation_stage(c.activation);
    linear_backward(value(act).mat(), w.fc2_w, grad(StageKind::MlpOut).mat(), grad(act).mat(), gw.fc2_w, gw.fc2_b);
    activation_backward(p, b);
    linear_backward(value(StageKind::Ln2).mat(), w.fc1_w, grad(StageKind::Fc1).mat(), grad(StageKind::Ln2).mat(),
                    gw.fc1_w, gw.fc1_b);
    Mat through_norm(T, D);
    layer_norm_backward(value(StageKind::Res1).mat(), w.ln2_w, c.ln_eps, grad(StageKind::Ln2).mat(),
                        MatMap(through_norm.data(), T, D), gw.ln2_w, gw.ln2_b);
    grad(StageKind::Res1).mat() = grad(StageKind::Out).mat() + through_norm;

    // res1 = x + ls1(attn_out);  attn_out = proj(attn(q, k) · v);  q, k, v = split(qkv(ln1(x)))
    scaled_branch_backward(p, b, StageKind::Ls1, StageKind::AttnOut, StageKind::Res1, w.ls1, gw.ls1);
    linear_backward(value(StageKind::Context).mat(), w.proj_w, grad(StageKind::AttnOut).mat(),
                    grad(StageKind::Context).mat(), gw.proj_w, gw.proj_b);
    attention_context_backward(value(StageKind::Attn), value(StageKind::V), grad(StageKind::Context),
                               grad(StageKind::Attn), grad(StageKind::V));
    attention_weights_backward(value(StageKind::Q), value(StageKind::K), value(StageKind::Attn), grad(StageKind::Attn),
                               grad(StageKind::Scores), grad(StageKind::Q), grad(StageKind::K));
    Mat dqkv(T, 3 * D);
    merge_heads(grad(StageKind::Q), grad(StageKind::K), grad(StageKind::V), MatMap(dqkv.data(), T, 3 * D));
    linear_backward(value(StageKind::Ln1).mat(), w.qkv_w, dqkv, grad(StageKind::Ln1).mat(), gw.qkv_w, gw.qkv_b);

    const StageRef stream = stream_into(b, c);
    MatMap dx = p.grad(stream).mat();
    layer_norm_backward(p.value(stream).mat(), w.ln1_w, c.ln_eps, grad(StageKind::Ln1).mat(), dx, gw.ln1_w, gw.ln1_b);
    dx += grad(StageKind::Res1).mat();
}

// logits = norm[0] · head_wᵀ + head_b;  norm = LayerNorm(last block's out)
void head_backward(Pass& p, const Tensor& dlogits) {
    const Model& m = p.model;
    Model& g = p.grads.params;
    const int64_t D = m.config.embed_dim;
    p.grad(StageKind::Logits).data = dlogits.data;
    const Tensor& norm = p.value(StageKind::Norm);
    linear_backward(ConstMatMap(norm.data.data(), 1, D), m.head_w, dlogits.mat(),
                    MatMap(p.grad(StageKind::Norm).data.data(), 1, D), g.head_w, g.head_b);
    const StageRef stream = stream_into(m.config.depth, m.config);
    layer_norm_backward(p.value(stream).mat(), m.norm_w, m.config.ln_eps, p.grad(StageKind::Norm).mat(),
                        p.grad(stream).mat(), g.norm_w, g.norm_b);
}

// tokens = cls + positions;  cls = [cls_token; patch_embed];  patch_embed = patches · patch_wᵀ + b
// tokens = drop(cls + positions): a dropped token's row of cls gets no gradient.
Mat undropped_gradient(const Pass& p, const MatMap& dtokens) {
    const int64_t T = p.value(StageKind::Cls).rows();
    if (dtokens.rows() == T) return dtokens;
    Mat full = Mat::Zero(T, dtokens.cols());
    full.row(0) = dtokens.row(0);
    const std::vector<int>& kept = p.values.token_patches();  // token row i + 1 holds patch kept[i]
    for (size_t i = 0; i < kept.size(); ++i) full.row(1 + kept[i]) = dtokens.row(static_cast<int64_t>(i) + 1);
    return full;
}

// norm_pre = LayerNorm(tokens) (CLIP): the blocks' gradient reaches `tokens` through it.
void norm_pre_backward(Pass& p) {
    const Model& m = p.model;
    if (!m.config.norm_pre) return;
    layer_norm_backward(p.value(StageKind::Tokens).mat(), m.norm_pre_w, m.config.ln_eps,
                        p.grad(StageKind::NormPre).mat(), p.grad(StageKind::Tokens).mat(), p.grads.params.norm_pre_w,
                        p.grads.params.norm_pre_b);
}

void embedding_backward(Pass& p) {
    const Model& m = p.model;
    Model& g = p.grads.params;
    norm_pre_backward(p);
    const Mat dtokens = undropped_gradient(p, p.grad(StageKind::Tokens).mat());
    p.grad(StageKind::Cls).mat() = dtokens;
    g.pos_embed += resample_pos_embed_backward(dtokens, m.config.pos_grid);
    g.cls_token += dtokens.row(0).transpose();
    Tensor& dembed = p.grad(StageKind::PatchEmbed);
    dembed.mat() = dtokens.bottomRows(dembed.shape[0]);
    linear_backward(p.value(StageKind::Patches).mat(), m.patch_w, dembed.mat(), p.grad(StageKind::Patches).mat(),
                    g.patch_w, g.patch_b);
    scatter_patches(p.grad(StageKind::Patches), m.config.patch_size, p.grad(StageKind::Input));
}

}  // namespace

BackwardWalk::BackwardWalk(const Model& model, const Trace& trace, const Tensor& dlogits, Gradients& grads)
    : model_(model), trace_(trace), grads_(grads), next_block_(model.config.depth - 1) {
    const ModelConfig& c = model.config;
    if (c.num_classes <= 0)
        throw Error(c.name + " has no classifier head (num_classes 0): there are no logits to take gradients of");
    if (dlogits.numel() != c.num_classes)
        throw Error("the logits' gradient has " + std::to_string(dlogits.numel()) + " values, not one per class (" +
                    std::to_string(c.num_classes) + ")");
    if (!c.plain_tokens())
        throw Error(c.name +
                    ": the backward pass follows one CLS token with the head on its row; this model's "
                    "registers, distillation token or average pooling have no gradients here");
    const std::vector<int>& embedded = trace.embedded_patches();
    for (size_t i = 0; i < embedded.size(); ++i)
        if (embedded[i] != static_cast<int>(i))
            throw Error("the backward pass follows the patches in their places: this pass shuffled them");
    // Every stage's gradient is written whole below (a stage's storage from an
    // earlier pass is reused as is); the rows of `norm` past CLS get none and
    // stay at the zeros a new tensor starts with.
    size_t count = 0;
    for (const Stage& s : trace.stages())
        if (s.kind != StageKind::Probs && s.kind != StageKind::Rollout)
            grads.stages.put(count++, s.ref(), s.tensor.shape);
    grads.stages.truncate(count);
    assert(grads.params.blocks.size() == model.blocks.size() && grads.params.patch_w.size() == model.patch_w.size());

    size_team_for_pass();
    Pass pass{model, trace, grads};
    head_backward(pass, dlogits);
}

bool BackwardWalk::step() {
    Pass pass{model_, trace_, grads_};
    if (next_block_ >= 0) {
        block_backward(pass, next_block_--);
        return true;
    }
    embedding_backward(pass);
    return false;
}

void backward_into(const Model& model, const Trace& trace, const Tensor& dlogits, Gradients& grads) {
    BackwardWalk walk(model, trace, dlogits, grads);
    while (walk.step()) {}
}

Gradients backward(const Model& model, const Trace& trace, const Tensor& dlogits) {
    Gradients grads;
    grads.params = zeros_like(model);
    backward_into(model, trace, dlogits, grads);
    return grads;
}

Tensor logit_seed(const Model& model, int cls) {
    const int classes = model.config.num_classes;
    if (classes > 0 && (cls < 0 || cls >= classes))
        throw Error("class " + std::to_string(cls) + " is out of range: " + model.config.name + " has " +
                    std::to_string(classes) + " classes (0.." + std::to_string(classes - 1) + ")");
    Tensor seed({std::max(classes, 0)});
    if (classes > 0) seed.data[static_cast<size_t>(cls)] = 1.0f;
    return seed;
}

Gradients logit_gradients(const Model& model, const Trace& trace, int cls) {
    return backward(model, trace, logit_seed(model, cls));
}

}  // namespace vit
