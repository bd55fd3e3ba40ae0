// The forward pass of timm's VisionTransformer (eval mode, class-token pooling)
// recorded stage by stage: patchify → project → prepend CLS → add positions →
// (norm_pre) → pre-norm blocks (x += ls1(attn(ln1(x))); x += ls2(mlp(ln2(x))),
// LayerScale when the model has it) → final norm → head,
// with the interventions of interventions.h applied where they act; forward()
// then adds the rollout (rollout.h). Each residual add and the LayerNorm that
// reads its sum are one pass over the rows (add_layer_norm).
// One pass body serves two kinds of working memory: the Trace (every stage
// kept) and LeanPass (a few buffers reused, for the occlusion map); ForwardWalk
// runs the same body a piece at a time.
#include "pass/forward.h"

#include <Eigen/Core>
#include <algorithm>
#include <new>
#include <optional>

#include "tensor/allocator.h"
#include "pass/attention.h"
#include "base/error.h"
#include "pass/layers.h"
#include "pass/patches.h"
#include "pass/pos_embed.h"
#include "pass/trace_budget.h"
#include "pass/rollout.h"
#include "tensor/threads.h"

namespace vit {

namespace {

// Hands out the stages in order, shaped by the catalogue, reusing the storage
// of an earlier Trace.
class TraceWriter {
public:
    TraceWriter(Trace& trace, const ModelSizes& sizes) : trace_(trace), sizes_(sizes) {}
    Tensor& next(StageKind kind, int block = -1) {
        return trace_.put(count_++, {kind, block}, stage_shape(kind, sizes_));
    }
    void finish() { trace_.truncate(count_); }

private:
    Trace& trace_;
    ModelSizes sizes_;
    size_t count_ = 0;
};

// Hands out one buffer per stage kind and block parity (a block reads the
// previous block's `out`), so a pass of any depth lives in a fixed set; the
// attention-sized stages (scores, attn: H×T×T), which no block reads past its
// own end, one buffer for both: the attention copies each part's scores and then
// its weights over the same rows (attention.cpp), so the buffer ends as attn.
class ScratchWriter {
public:
    ScratchWriter(std::vector<Tensor>& buffers, const ModelSizes& sizes) : buffers_(buffers), sizes_(sizes) {
        buffers_.resize(2 * (static_cast<size_t>(StageKind::Rollout) + 1));
    }
    Tensor& next(StageKind kind, int block = -1) {
        const bool square = kind == StageKind::Scores || kind == StageKind::Attn;
        if (square) kind = StageKind::Attn;
        Tensor& t = buffers_[2 * static_cast<size_t>(kind) + (square ? 0 : block & 1)];
        std::vector<int64_t> shape = stage_shape(kind, sizes_);
        if (t.shape != shape) t = Tensor(std::move(shape));
        return t;
    }

private:
    std::vector<Tensor>& buffers_;
    ModelSizes sizes_;
};

// Hands out the stages a Stream trace keeps (keeps() in trace.h) from the trace,
// as TraceWriter, and a block's other stages from one buffer per kind, which the
// next block writes over (a block reads only its own and the kept ones).
class StreamWriter {
public:
    StreamWriter(Trace& trace, std::vector<Tensor>& buffers, const ModelSizes& sizes)
        : kept_(trace, sizes), scratch_(buffers, sizes) {}
    Tensor& next(StageKind kind, int block = -1) {
        if (keeps(TraceKeep::Stream, kind)) return kept_.next(kind, block);
        return scratch_.next(kind, 0);
    }
    void finish() { kept_.finish(); }

private:
    TraceWriter kept_;
    ScratchWriter scratch_;
};

// The residual stream after the embedding or a block, and its LayerNorm (the
// next block's ln1, or the final norm), written together in one pass.
struct NormedStream {
    const Tensor* x;
    const Tensor* norm;
};

// The stage and weights of the LayerNorm that reads the stream before block b:
// its ln1, or past the last block the final norm.
struct StreamNorm {
    Tensor& y;
    const Vec& gamma;
    const Vec& beta;
};
template <typename Writer>
StreamNorm stream_norm(const Model& model, int b, Writer& out) {
    if (b < model.config.depth) return {out.next(StageKind::Ln1, b), model.blocks[b].ln1_w, model.blocks[b].ln1_b};
    return {out.next(StageKind::Norm), model.norm_w, model.norm_b};
}

// norm.y = the LayerNorm of `stream` (a copy for a norm without weights); row by
// row as add_stream_norm, so a block's ln1 recomputed from its stream is the same.
void normalise_stream(const Model& model, const Tensor& stream, const StreamNorm& norm) {
    if (norm.gamma.size() > 0) layer_norm(stream.mat(), norm.gamma, norm.beta, model.config.ln_eps, norm.y.mat());
    else norm.y.mat() = stream.mat();
}

// sum = a + b and norm.y = its LayerNorm; a final norm without weights (timm's
// nn.Identity when fc_norm is used) copies the sum.
void add_stream_norm(const ConstMatRef& a, const ConstMatRef& b, const StreamNorm& norm, float eps, MatMap sum) {
    if (norm.gamma.size() > 0) return add_layer_norm(a, b, norm.gamma, norm.beta, eps, sum, norm.y.mat());
    sum = a + b;
    norm.y.mat() = sum;
}

// A branch as it is added to the residual stream: with LayerScale its `ls1`/`ls2`
// stage, branch ⊙ gamma; without, the branch itself.
template <typename Writer>
const Tensor& scaled_branch(const Model& model, StageKind kind, int b, const Vec& gamma, const Tensor& branch,
                            Writer& out) {
    if (!model.config.layer_scale) return branch;
    Tensor& scaled = out.next(kind, b);
    layer_scale(branch.mat(), gamma, scaled.mat());
    return scaled;
}

// fc1 and its activation: GELU (fused into fc1's product), QuickGELU or SwiGLU.
template <typename Writer>
const Tensor& run_activation(const Model& model, int b, const Tensor& ln2, Writer& out, const PackedBt* packed) {
    const BlockWeights& w = model.blocks[b];
    Tensor& fc1 = out.next(StageKind::Fc1, b);
    const Activation kind = model.config.activation;
    if (kind != Activation::Gelu) {
        linear(ln2.mat(), w.fc1_w, w.fc1_b, fc1.mat(), packed);
        Tensor& act = out.next(activation_stage(kind), b);
        if (kind == Activation::QuickGelu) quick_gelu(fc1.mat(), act.mat());
        else swiglu(fc1.mat(), act.mat());
        return act;
    }
    Tensor& act = out.next(StageKind::Gelu, b);
    linear_gelu(ln2.mat(), w.fc1_w, w.fc1_b, fc1.mat(), act.mat(), packed);
    return act;
}

// One pre-norm block, from its input and its ln1; returns its output `block{b}.out`
// and that output's norm. Ablated heads' context columns are zeroed; attention is
// softmax(scores / τ).
template <typename Writer>
NormedStream run_block(const Model& model, int b, NormedStream in, const Interventions& iv, Writer& out,
                       const PackedWeights* packed) {
    const ModelConfig& c = model.config;
    const BlockWeights& w = model.blocks[b];
    const PackedWeights::Block* pw = packed ? &packed->blocks.at(b) : nullptr;
    const BlockTeam team(in.x->shape[0] * c.embed_dim * c.fc1_dim());  // every block of the pass: the same work

    Tensor& q = out.next(StageKind::Q, b);
    Tensor& k = out.next(StageKind::K, b);
    Tensor& v = out.next(StageKind::V, b);
    qkv_heads(in.norm->mat(), w.qkv_w, w.qkv_b, q, k, v, pw ? &pw->qkv : nullptr);

    Tensor& scores = out.next(StageKind::Scores, b);
    Tensor& attn = out.next(StageKind::Attn, b);
    Tensor& context = out.next(StageKind::Context, b);
    attention(q, k, v, scores, attn, context, iv.temperature);
    for (int h : ablated_heads(iv, b)) context.mat().middleCols(int64_t(h) * c.head_dim(), c.head_dim()).setZero();
    Tensor& attn_out = out.next(StageKind::AttnOut, b);
    linear(context.mat(), w.proj_w, w.proj_b, attn_out.mat(), pw ? &pw->proj : nullptr);
    const Tensor& attn_branch = scaled_branch(model, StageKind::Ls1, b, w.ls1, attn_out, out);
    Tensor& res1 = out.next(StageKind::Res1, b);
    Tensor& ln2 = out.next(StageKind::Ln2, b);
    add_layer_norm(in.x->mat(), attn_branch.mat(), w.ln2_w, w.ln2_b, c.ln_eps, res1.mat(), ln2.mat());

    const Tensor& act = run_activation(model, b, ln2, out, pw ? &pw->fc1 : nullptr);
    Tensor& mlp_out = out.next(StageKind::MlpOut, b);
    linear(act.mat(), w.fc2_w, w.fc2_b, mlp_out.mat(), pw ? &pw->fc2 : nullptr);
    const Tensor& mlp_branch = scaled_branch(model, StageKind::Ls2, b, w.ls2, mlp_out, out);
    Tensor& block_out = out.next(StageKind::Out, b);
    const StreamNorm next = stream_norm(model, b + 1, out);
    add_stream_norm(res1.mat(), mlp_branch.mat(), next, c.ln_eps, block_out.mat());
    return {&block_out, &next.y};
}

// The prefix tokens in timm's order (CLS, DIST, REG0…) on top of the patch rows.
void prepend_prefix_tokens(const Model& model, const Tensor& embed, Tensor& cls) {
    int64_t row = 0;
    if (model.config.class_token) cls.mat().row(row++) = model.cls_token.transpose();
    if (model.config.dist_token) cls.mat().row(row++) = model.dist_token.transpose();
    if (model.config.reg_tokens > 0) cls.mat().middleRows(row, model.reg_token.rows()) = model.reg_token;
    cls.mat().bottomRows(embed.mat().rows()) = embed.mat();
}

// `tokens`: the kept rows of `cls` plus their positions. Token t takes the
// positional embedding's row settings.pos_row(t) (no_embed_class: the prefix
// tokens get none; Dinov2WithRegisters: the registers get none).
void add_positions(const TokenSettings& settings, const Tensor& cls, const Mat* pos, const std::vector<int>& kept_rows,
                   Tensor& tokens) {
    int64_t row = 0;
    for (int t : kept_rows) {
        const int pos_row = pos ? settings.pos_row(t) : -1;
        if (pos_row >= 0) tokens.mat().row(row++) = cls.mat().row(t) + pos->row(pos_row);
        else tokens.mat().row(row++) = cls.mat().row(t);
    }
}

// The stages before the blocks, ending with `tokens`: the masked input, its
// patches, their (permuted) embedding, the prefix tokens prepended, positions
// added (unless removed) and the dropped tokens taken out.
template <typename Writer>
const Tensor& run_embedding(const Model& model, const Tensor& input, const Interventions& iv, Writer& out,
                            const PackedWeights* packed) {
    const ModelConfig& c = model.config;
    const int grid = static_cast<int>(input.shape[1] / c.patch_size);
    const int64_t N = static_cast<int64_t>(grid) * grid;

    Tensor& in = out.next(StageKind::Input);
    if (&in != &input) in.data = input.data;
    zero_patches(iv.mask_patches, c.patch_size, in);

    Tensor& patches = out.next(StageKind::Patches);
    extract_patches(in, c.patch_size, patches);
    Tensor& embed = out.next(StageKind::PatchEmbed);
    linear(patches.mat(), model.patch_w, model.patch_b, embed.mat(), packed ? &packed->patch : nullptr);
    if (!iv.permute_patches.empty()) {
        const Mat unpermuted = embed.mat();
        for (int64_t n = 0; n < N; ++n) embed.mat().row(n) = unpermuted.row(iv.permute_patches[n]);
    }

    Tensor& cls = out.next(StageKind::Cls);
    prepend_prefix_tokens(model, embed, cls);

    Mat resampled;
    const Mat* pos = nullptr;
    if (!iv.no_positions && grid == c.pos_grid) pos = &model.pos_embed;
    if (!iv.no_positions && grid != c.pos_grid)
        pos = &(resampled = resample_pos_embed(model.pos_embed, grid, c.pos_prefix(), c.pos_resample));

    Tensor& tokens = out.next(StageKind::Tokens);
    if (iv.drop_tokens.empty() && pos && pos->rows() == cls.mat().rows()) {
        tokens.mat() = cls.mat() + *pos;  // the common case, one pass
        return tokens;
    }
    add_positions(c, cls, pos, kept_token_rows(iv, static_cast<int>(N), c.prefix_tokens()), tokens);
    return tokens;
}

// The stream entering block 0: the embedding's `tokens`, or with norm_pre
// (CLIP) their LayerNorm, the `norm_pre` stage.
template <typename Writer>
const Tensor& pre_blocks(const Model& model, const Tensor& tokens, Writer& out) {
    if (!model.config.norm_pre) return tokens;
    Tensor& normed = out.next(StageKind::NormPre);
    layer_norm(tokens.mat(), model.norm_pre_w, model.norm_pre_b, model.config.ln_eps, normed.mat());
    return normed;
}

// The stream entering block 0 and its norm (block 0's ln1, or the final norm).
template <typename Writer>
NormedStream first_stream(const Model& model, const Tensor& tokens, Writer& out) {
    const Tensor& stream = pre_blocks(model, tokens, out);
    const StreamNorm first = stream_norm(model, 0, out);
    normalise_stream(model, stream, first);
    return {&stream, &first.y};
}

// The blocks, from the embedding's `tokens` to the final norm.
template <typename Writer>
const Tensor& run_blocks(const Model& model, const Tensor& tokens, const Interventions& iv, Writer& out,
                         const PackedWeights* packed) {
    NormedStream stream = first_stream(model, tokens, out);
    for (int b = 0; b < model.config.depth; ++b) stream = run_block(model, b, stream, iv, out, packed);
    return *stream.norm;
}

// The features the head reads: the CLS row of the final norm, or the `pool`
// stage (timm's global_pool: the mean of the patch rows, prefix tokens left
// out, or the CLS row; HF DINOv2's CLS row joined with that mean) and its
// LayerNorm `fc_norm`.
template <typename Writer>
Mat pooled_features(const Model& model, const Tensor& norm, Writer& out) {
    const ModelConfig& c = model.config;
    if (!has_variant(c, Variant::Pool)) return norm.mat().topRows(1);
    Tensor& pool = out.next(StageKind::Pool);
    const int64_t patch_rows = norm.mat().rows() - c.prefix_tokens();
    if (c.global_pool == GlobalPool::Avg) {
        pool.mat() = norm.mat().bottomRows(patch_rows).colwise().mean();
    } else if (c.global_pool == GlobalPool::ClsAvg) {  // [CLS row, patch mean], as one row of 2D
        pool.mat().leftCols(c.embed_dim) = norm.mat().topRows(1);
        pool.mat().rightCols(c.embed_dim) = norm.mat().bottomRows(patch_rows).colwise().mean();
    } else {
        pool.mat() = norm.mat().topRows(1);
    }
    if (!has_variant(c, Variant::FcNorm)) return pool.mat();
    Tensor& fc_norm = out.next(StageKind::FcNorm);
    layer_norm(pool.mat(), model.fc_norm_w, model.fc_norm_b, c.ln_eps, fc_norm.mat());
    return fc_norm.mat();
}

// DeiT distilled: `logits_cls` from the CLS row, `logits_dist` from the DIST
// row, and `logits` their mean (timm's eval output).
template <typename Writer>
Tensor& distilled_logits(const Model& model, const Tensor& norm, Writer& out) {
    Tensor& from_cls = out.next(StageKind::LogitsCls);
    linear(norm.mat().topRows(1), model.head_w, model.head_b, from_cls.mat());
    Tensor& from_dist = out.next(StageKind::LogitsDist);
    linear(norm.mat().middleRows(1, 1), model.head_dist_w, model.head_dist_b, from_dist.mat());
    Tensor& logits = out.next(StageKind::Logits);
    logits.mat() = 0.5f * (from_cls.mat() + from_dist.mat());
    return logits;
}

// The pooled features and, with a head, the logits and probabilities.
template <typename Writer>
void run_head(const Model& model, const Tensor& norm, Writer& out) {
    const ModelConfig& c = model.config;
    const Mat features = pooled_features(model, norm, out);
    if (c.num_classes == 0) return;
    Tensor* logits = nullptr;
    if (c.dist_token) {
        logits = &distilled_logits(model, norm, out);
    } else {
        logits = &out.next(StageKind::Logits);
        logits->mat().noalias() = features * model.head_w.transpose();
        logits->mat() += model.head_b.transpose();
    }
    Tensor& probs = out.next(StageKind::Probs);
    softmax_rows(logits->mat(), probs.mat());
}

// The checks every pass makes, and the sizes of its stages.
ModelSizes checked_sizes(const Model& model, const Tensor& input, const Interventions& iv, bool allow_all_masked) {
    validate_model_shapes(model);
    check_model_input(model.config, input);
    const int grid = static_cast<int>(input.shape[1] / model.config.patch_size);
    validate_interventions(iv, model.config, grid, allow_all_masked);
    keep_working_memory();
    const int kept = static_cast<int>(kept_patches(iv, grid * grid).size());
    return model_sizes(model.config, grid, grid * grid - kept);
}

// The trace's last stage written and its patch rows set.
template <typename Writer>
void finish_trace(Writer& out, Trace& trace, const Interventions& iv, const ModelSizes& sizes) {
    out.finish();
    const int N = static_cast<int>(sizes.N);
    trace.set_patch_rows(embedded_patches(iv, N), kept_patches(iv, N));
    trace.set_interventions(iv);
}

}  // namespace

void forward_into(const Model& model, const Tensor& input, Trace& trace, const Interventions& iv,
                  const PackedWeights* packed) {
    const ModelSizes sizes = checked_sizes(model, input, iv, false);
    size_team_for_pass();
    try {
        TraceWriter out(trace, sizes);
        run_head(model, run_blocks(model, run_embedding(model, input, iv, out, packed), iv, out, packed), out);
        finish_trace(out, trace, iv, sizes);
        trace.set_keep(TraceKeep::Every);
    } catch (const std::bad_alloc&) {
        throw out_of_memory(model.config, static_cast<int>(input.shape[1]));
    }
}

Trace forward(const Model& model, const Tensor& input, const Interventions& iv, TraceKeep keep) {
    if (keep == TraceKeep::Stream) return ForwardWalk(model, input, iv, nullptr, {}, keep).take();
    Trace trace;
    forward_into(model, input, trace, iv);
    add_rollout(trace);
    return trace;
}

Trace recompute_block(const Model& model, const Trace& kept, int block, const Interventions& iv,
                      const PackedWeights* packed, Trace reuse) {
    if (block < 0 || block >= model.config.depth)
        throw Error(model.config.name + " has no block " + std::to_string(block));
    const ModelSizes sizes = checked_sizes(model, kept.at(StageRef{StageKind::Input}), iv, false);
    size_team_for_pass();
    Trace stages = std::move(reuse).storage();
    TraceWriter out(stages, sizes);
    const Tensor& stream_in = kept.at(*stage_input({StageKind::Ln1, block}, model.config));
    const StreamNorm ln1 = stream_norm(model, block, out);
    normalise_stream(model, stream_in, ln1);
    run_block(model, block, {&stream_in, &ln1.y}, iv, out, packed);
    stages.truncate(stages.size() - 1);  // the next block's ln1 (or the final norm): `kept` holds it
    return stages;
}

std::shared_ptr<Trace> recompute_over(const Model& model, std::shared_ptr<const Trace> stream, int block,
                                      const PackedWeights* packed, Trace reuse) {
    stream = stream_of(stream);
    auto seen = std::make_shared<Trace>(
        recompute_block(model, *stream, block, stream->interventions(), packed, std::move(reuse)));
    seen->read_through(std::move(stream));
    return seen;
}

std::shared_ptr<const Trace> with_block(const Model& model, std::shared_ptr<const Trace> stream, int block,
                                        const PackedWeights* packed) {
    stream = stream_of(stream);
    if (stream->keep() == TraceKeep::Every || block < 0) return stream;
    return recompute_over(model, std::move(stream), block, packed);
}

std::vector<StageRef> pass_stages(const ModelConfig& config, const Trace& trace) {
    std::vector<StageRef> stages;
    for (const StageRef& s : stage_list(config))
        if (trace.find(s.block < 0 ? s : StageRef{StageKind::Out, s.block})) stages.push_back(s);
    return stages;
}

void for_each_stage(const Model& model, const Trace& trace, const Interventions& iv,
                    const std::function<void(const Stage&)>& visit) {
    for (const Stage& s : trace.stages()) {
        if (trace.keep() == TraceKeep::Every || s.block < 0) {
            visit(s);
        } else if (s.kind == StageKind::Out) {  // a Stream trace's block, whole, then gone
            const Trace block = recompute_block(model, trace, s.block, iv);
            for (const Stage& inner : block.stages()) visit(inner);
        }
    }
}

struct ForwardWalk::State {
    State(const Model& m, const Tensor& in, const Interventions& i, const PackedWeights* p, Trace reuse, TraceKeep k)
        : model(m),
          input(in),
          iv(i),
          packed(p),
          keep(k),
          sizes(checked_sizes(m, in, i, false)),
          trace(std::move(reuse)),
          every(trace, sizes),
          stream_out(trace, buffers, sizes) {
        if (keep == TraceKeep::Stream) rollout.emplace(sizes.T);
    }
    // The next piece, its stages handed out by `out` (TraceWriter or StreamWriter).
    template <typename Writer>
    void piece(Writer& out);

    const Model& model;
    const Tensor& input;
    Interventions iv;
    const PackedWeights* packed;
    TraceKeep keep;
    ModelSizes sizes;
    Trace trace;
    std::vector<Tensor> buffers;  // a Stream pass's block stages, one block at a time
    TraceWriter every;
    StreamWriter stream_out;
    std::optional<RolloutWalk> rollout;  // a Stream pass folds each block's attention in as it goes
    NormedStream stream{};
    int next = -1;  // −1: the embedding; 0…depth−1: that block; depth: the head; depth + 1: the rollout
};

template <typename Writer>
void ForwardWalk::State::piece(Writer& out) {
    const int depth = model.config.depth;
    if (next < 0) {
        stream = first_stream(model, run_embedding(model, input, iv, out, packed), out);
    } else if (next < depth) {
        stream = run_block(model, next, stream, iv, out, packed);
        if (rollout) rollout->add(stream_out.next(StageKind::Attn, next));  // the buffer the block just wrote
    } else if (next == depth) {
        run_head(model, *stream.norm, out);
        finish_trace(out, trace, iv, sizes);
        trace.set_keep(keep);
    } else if (rollout) {
        trace.add({StageKind::Rollout}, {sizes.T, sizes.T}).mat() = rollout->result();
    } else {
        add_rollout(trace);
    }
}

ForwardWalk::ForwardWalk(const Model& model, const Tensor& input, const Interventions& iv, const PackedWeights* packed,
                         Trace reuse, TraceKeep keep) {
    try {
        state_ = std::make_unique<State>(model, input, iv, packed, std::move(reuse), keep);
    } catch (const std::bad_alloc&) {
        throw out_of_memory(model.config, static_cast<int>(input.shape[1]), keep);
    }
    size_team_for_pass();
}

ForwardWalk::~ForwardWalk() = default;

bool ForwardWalk::step() {
    try {
        return next_piece();
    } catch (const std::bad_alloc&) {
        throw out_of_memory(state_->model.config, static_cast<int>(state_->input.shape[1]), state_->keep);
    }
}

bool ForwardWalk::next_piece() {
    State& s = *state_;
    if (s.next > s.model.config.depth + 1) return false;
    if (s.keep == TraceKeep::Stream) s.piece(s.stream_out);
    else s.piece(s.every);
    return ++s.next <= s.model.config.depth + 1;
}

int ForwardWalk::blocks_done() const { return std::clamp(state_->next, 0, state_->model.config.depth); }

Trace ForwardWalk::take() {
    while (step()) {}
    return std::move(state_->trace);
}

const Tensor& LeanPass::probs(const Model& model, const Tensor& input, const Interventions& iv, bool allow_all_masked,
                              const PackedWeights* packed) {
    if (model.config.num_classes == 0) throw Error(model.config.name + " has no classifier head: no probabilities");
    ScratchWriter out(buffers_, checked_sizes(model, input, iv, allow_all_masked));
    size_team_for_pass();
    run_head(model, run_blocks(model, run_embedding(model, input, iv, out, packed), iv, out, packed), out);
    return out.next(StageKind::Probs);
}

}  // namespace vit
