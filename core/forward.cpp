// The forward pass of timm's VisionTransformer (eval mode, class-token pooling)
// recorded stage by stage: patchify → project → prepend CLS → add positions →
// pre-norm blocks (x += attn(ln1(x)); x += mlp(ln2(x))) → final norm → head.
// Every stage is written straight into the Trace, which is the working memory.
#include "forward.h"

#include <Eigen/Core>

#include "allocator.h"
#include "attention.h"
#include "error.h"
#include "layers.h"
#include "patches.h"
#include "pos_embed.h"
#include "rollout.h"

namespace vit {

namespace {

// Hands out the stages in order, shaped by the catalogue, reusing the storage
// of an earlier Trace.
class StageWriter {
public:
    StageWriter(Trace& trace, const ModelSizes& sizes) : trace_(trace), sizes_(sizes) {}
    Tensor& next(StageKind kind, int block = -1) {
        return trace_.put(count_++, {kind, block}, stage_shape(kind, sizes_));
    }
    void finish() { trace_.truncate(count_); }

private:
    Trace& trace_;
    ModelSizes sizes_;
    size_t count_ = 0;
};

// One pre-norm block; returns its output stage `block{b}.out`.
const Tensor& run_block(const Model& model, int b, const Tensor& x, StageWriter& out,
                        std::vector<const Tensor*>& attns) {
    const ModelConfig& c = model.config;
    const BlockWeights& w = model.blocks[b];
    const int64_t T = x.shape[0], D = c.embed_dim;

    Tensor& ln1 = out.next(StageKind::Ln1, b);
    layer_norm(x.mat(), w.ln1_w, w.ln1_b, c.ln_eps, ln1.mat());

    Mat qkv(T, 3 * D);
    linear(ln1.mat(), w.qkv_w, w.qkv_b, MatMap(qkv.data(), T, 3 * D));
    Tensor& q = out.next(StageKind::Q, b);
    Tensor& k = out.next(StageKind::K, b);
    Tensor& v = out.next(StageKind::V, b);
    split_heads(ConstMatMap(qkv.data(), T, 3 * D), c.num_heads, q, k, v);

    Tensor& scores = out.next(StageKind::Scores, b);
    Tensor& attn = out.next(StageKind::Attn, b);
    attention_weights(q, k, scores, attn);
    attns.push_back(&attn);

    Tensor& context = out.next(StageKind::Context, b);
    attention_context(attn, v, context);
    Tensor& attn_out = out.next(StageKind::AttnOut, b);
    linear(context.mat(), w.proj_w, w.proj_b, attn_out.mat());
    Tensor& res1 = out.next(StageKind::Res1, b);
    add(x.mat(), attn_out.mat(), res1.mat());

    Tensor& ln2 = out.next(StageKind::Ln2, b);
    layer_norm(res1.mat(), w.ln2_w, w.ln2_b, c.ln_eps, ln2.mat());
    Tensor& fc1 = out.next(StageKind::Fc1, b);
    linear(ln2.mat(), w.fc1_w, w.fc1_b, fc1.mat());
    Tensor& act = out.next(StageKind::Gelu, b);
    gelu(fc1.mat(), act.mat());
    Tensor& mlp_out = out.next(StageKind::MlpOut, b);
    linear(act.mat(), w.fc2_w, w.fc2_b, mlp_out.mat());
    Tensor& block_out = out.next(StageKind::Out, b);
    add(res1.mat(), mlp_out.mat(), block_out.mat());
    return block_out;
}

}  // namespace

void forward_into(const Model& model, const Tensor& input, Trace& trace) {
    validate_model_shapes(model);
    check_model_input(model.config, input);
    keep_working_memory();
    const ModelConfig& c = model.config;
    const int grid = static_cast<int>(input.shape[1] / c.patch_size);
    const int64_t N = static_cast<int64_t>(grid) * grid;
    StageWriter out(trace, model_sizes(c, grid));

    Tensor& in = out.next(StageKind::Input);
    if (&in != &input) in.data = input.data;

    Tensor& patches = out.next(StageKind::Patches);
    extract_patches(in, c.patch_size, patches);
    Tensor& embed = out.next(StageKind::PatchEmbed);
    linear(patches.mat(), model.patch_w, model.patch_b, embed.mat());

    Tensor& cls = out.next(StageKind::Cls);
    cls.mat().row(0) = model.cls_token.transpose();
    cls.mat().bottomRows(N) = embed.mat();

    Tensor& tokens = out.next(StageKind::Tokens);
    if (grid == c.pos_grid) {
        tokens.mat() = cls.mat() + model.pos_embed;
    } else {
        tokens.mat() = cls.mat() + resample_pos_embed(model.pos_embed, grid);
    }

    std::vector<const Tensor*> attns;
    const Tensor* x = &tokens;
    for (int b = 0; b < c.depth; ++b) x = &run_block(model, b, *x, out, attns);

    Tensor& norm = out.next(StageKind::Norm);
    layer_norm(x->mat(), model.norm_w, model.norm_b, c.ln_eps, norm.mat());
    if (c.num_classes > 0) {
        Tensor& logits = out.next(StageKind::Logits);
        logits.mat().noalias() = norm.mat().row(0) * model.head_w.transpose();
        logits.mat() += model.head_b.transpose();
        Tensor& probs = out.next(StageKind::Probs);
        softmax_rows(logits.mat(), probs.mat());
    }
    attention_rollout(attns, out.next(StageKind::Rollout));
    out.finish();
}

Trace forward(const Model& model, const Tensor& input) {
    Trace trace;
    forward_into(model, input, trace);
    return trace;
}

}  // namespace vit
