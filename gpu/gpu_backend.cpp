// The GPU forward pass: the steps of core/pass/forward.cpp, each a compute shader
// dispatch (gpu_ops.h) into the per-stage buffers (gpu_activations.h), timed
// with a GL_TIME_ELAPSED query; stages are read back only when asked for.
#include "gpu_backend.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/error.h"
#include "gl_context.h"
#include "gpu_activations.h"
#include "gpu_model.h"
#include "gpu_ops.h"
#include "pass/patches.h"
#include "pass/pos_embed.h"

namespace vit {

using namespace gpu;

struct GpuBackend::Impl {
    GpuOps ops;
    std::optional<GpuModel> model;
    Activations acts;
    GpuTimer timer;
    bool has_pass = false;
    double gpu_ms = 0.0;
    std::vector<int> embedded_patches, token_patches;  // of the last pass

    void check_input(const Tensor& input) const;
    void run(const Tensor& input, const Interventions& iv);
    void embed(const Tensor& input, const Interventions& iv);
    void run_block(int b, GLuint x, const Interventions& iv);
    Trace read(const std::vector<StageRef>& wanted) const;
    Tensor read_one(const StageRef& stage) const;
};

GpuBackend::GpuBackend() {
    require_gl43();
    impl_ = std::make_unique<Impl>();
}

GpuBackend::~GpuBackend() = default;

void GpuBackend::set_model(const Model& model) {
    impl_->has_pass = false;
    impl_->acts = Activations{};
    impl_->model.reset();  // free the old weights before uploading new ones
    impl_->model = upload_model(model);
}

// The core's checks and messages (model.h).
void GpuBackend::Impl::check_input(const Tensor& input) const {
    if (!model) throw Error("GPU backend: no model (call set_model first)");
    check_model_input(model->config, input);
}

void GpuBackend::Impl::run_block(int b, GLuint x, const Interventions& iv) {
    const ModelConfig& c = model->config;
    const GpuBlockWeights& w = model->blocks[b];
    BlockActivations& a = acts.blocks[b];
    const int T = acts.tokens, D = c.embed_dim, H = c.num_heads, Dh = c.head_dim(), M = c.mlp_dim;
    const auto bias = [](const GpuBuffer& buf, bool has) { return has ? buf.id() : 0u; };

    ops.layernorm(x, w.ln1_w.id(), w.ln1_b.id(), a.ln1.id(), T, D, c.ln_eps);
    // q, k, v straight into head-major 3×H×T×Dh.
    ops.matmul_bias(a.ln1.id(), 0, D, w.qkv_w.id(), bias(w.qkv_b, w.qkv_has_bias), a.qkv.id(), T, 3 * D, D, Dh);
    const float scale = 1.0f / std::sqrt(static_cast<float>(Dh));
    ops.attn_scores(a.qkv.id(), 0, a.qkv.id(), T * D, a.scores.id(), H, T, Dh, scale);
    ops.softmax_rows(a.scores.id(), a.attn.id(), H * T, T, iv.temperature);
    ops.weighted_sum(a.attn.id(), a.qkv.id(), 2 * T * D, a.context.id(), H, T, Dh, T, D);
    const std::vector<int> silenced = ablated_heads(iv, b);
    if (!silenced.empty()) {
        std::vector<float> kept(static_cast<size_t>(D), 1.0f);  // 0 on a silenced head's columns
        for (int h : silenced) std::fill_n(kept.begin() + h * Dh, Dh, 0.0f);
        a.head_scale.upload(kept.data(), kept.size());
        ops.scale_columns(a.context.id(), a.head_scale.id(), T, D);
    }
    ops.matmul_bias(a.context.id(), 0, D, w.proj_w.id(), bias(w.proj_b, w.proj_has_bias), a.attn_out.id(), T, D, D);
    ops.add(x, a.attn_out.id(), a.res1.id(), T * D);
    ops.layernorm(a.res1.id(), w.ln2_w.id(), w.ln2_b.id(), a.ln2.id(), T, D, c.ln_eps);
    ops.matmul_bias(a.ln2.id(), 0, D, w.fc1_w.id(), bias(w.fc1_b, w.fc1_has_bias), a.fc1.id(), T, M, D);
    ops.gelu(a.fc1.id(), a.gelu.id(), T * M);
    ops.matmul_bias(a.gelu.id(), 0, M, w.fc2_w.id(), bias(w.fc2_b, w.fc2_has_bias), a.mlp_out.id(), T, D, M);
    ops.add(a.res1.id(), a.mlp_out.id(), a.out.id(), T * D);
}

// The stages before the blocks: input (masked on the CPU before upload),
// patches, patch_embed (gathered into the permuted order), cls and tokens
// (positions added or not, dropped rows left out by a gather).
void GpuBackend::Impl::embed(const Tensor& input, const Interventions& iv) {
    const ModelConfig& c = model->config;
    const int grid = acts.grid, N = grid * grid, T = acts.tokens, D = c.embed_dim;
    const GLuint pos = grid == c.pos_grid ? model->pos.id() : acts.pos.id();
    ops.patch_extract(acts.input.id(), acts.patches.id(), c.channels, static_cast<int>(input.shape[1]),
                      static_cast<int>(input.shape[2]), c.patch_size);
    const GLuint embed_out = iv.permute_patches.empty() ? acts.patch_embed.id() : acts.embed_unpermuted.id();
    ops.matmul_bias(acts.patches.id(), 0, c.patch_dim(), model->patch_w.id(),
                    model->patch_has_bias ? model->patch_b.id() : 0u, embed_out, N, D, c.patch_dim());
    if (!iv.permute_patches.empty())
        ops.gather_rows(acts.embed_unpermuted.id(), acts.permutation.id(), acts.patch_embed.id(), N, D);
    const bool dropping = T != N + 1;
    ops.embed_tokens(acts.patch_embed.id(), model->cls_token.id(), pos, acts.cls.id(),
                     dropping ? acts.tokens_all.id() : acts.tokens_buf.id(), N + 1, D, !iv.no_positions);
    if (dropping) ops.gather_rows(acts.tokens_all.id(), acts.kept_rows.id(), acts.tokens_buf.id(), T, D);
}

void GpuBackend::Impl::run(const Tensor& input, const Interventions& iv) {
    check_input(input);
    const ModelConfig& c = model->config;
    const int grid = static_cast<int>(input.shape[1] / c.patch_size);
    const int N = grid * grid;
    validate_interventions(iv, c, grid);
    embedded_patches = vit::embedded_patches(iv, N);
    token_patches = kept_patches(iv, N);
    const int T = static_cast<int>(token_patches.size()) + 1;
    if (acts.grid != grid || acts.tokens != T) {
        has_pass = false;
        acts = Activations{};  // free before allocating the new size
        allocate_activations(c, grid, N + 1 - T, acts);
        if (grid != c.pos_grid) {
            const Mat pos = resample_pos_embed(model->pos_embed, grid);  // the core's bicubic, on the CPU
            acts.pos.upload(pos.data(), static_cast<size_t>(pos.size()));
        }
    }
    if (iv.mask_patches.empty()) {
        acts.input.upload(input.data.data(), input.data.size());
    } else {
        Tensor masked = input;
        zero_patches(iv.mask_patches, c.patch_size, masked);
        acts.input.upload(masked.data.data(), masked.data.size());
    }
    if (!iv.permute_patches.empty()) {
        const std::vector<float> order(iv.permute_patches.begin(), iv.permute_patches.end());
        acts.permutation.upload(order.data(), order.size());
    }
    if (T != N + 1) {
        const std::vector<int> kept = kept_token_rows(iv, N);
        const std::vector<float> rows(kept.begin(), kept.end());
        acts.kept_rows.upload(rows.data(), rows.size());
    }

    const int D = c.embed_dim;
    timer.begin();
    embed(input, iv);

    GLuint x = acts.tokens_buf.id();
    for (int b = 0; b < c.depth; ++b) {
        run_block(b, x, iv);
        x = acts.blocks[b].out.id();
    }

    ops.layernorm(x, model->norm_w.id(), model->norm_b.id(), acts.norm.id(), T, D, c.ln_eps);
    if (c.num_classes > 0) {
        // The head reads the CLS row only: a 1×D by D×classes product.
        ops.matmul_bias(acts.norm.id(), 0, D, model->head_w.id(), model->head_has_bias ? model->head_b.id() : 0u,
                        acts.logits.id(), 1, c.num_classes, D);
        ops.softmax_rows(acts.logits.id(), acts.probs.id(), 1, c.num_classes);
    }

    // Rollout Â_{L−1}·…·Â_0, ping-ponging so that the last product lands in `rollout`.
    const int L = c.depth;
    if (L == 0) {
        Mat eye = Mat::Identity(T, T);
        acts.rollout.upload(eye.data(), static_cast<size_t>(eye.size()));
    }
    auto dest = [&](int p) -> GpuBuffer& { return (L - 1 - p) % 2 == 0 ? acts.rollout : acts.rollout_tmp; };
    for (int p = 0; p < L; ++p) {
        if (p == 0) {
            ops.rollout_prepare(acts.blocks[0].attn.id(), dest(0).id(), c.num_heads, T);
        } else {
            ops.rollout_prepare(acts.blocks[p].attn.id(), acts.rollout_factor.id(), c.num_heads, T);
            ops.weighted_sum(acts.rollout_factor.id(), dest(p - 1).id(), 0, dest(p).id(), 1, T, T, T, T);
        }
    }
    timer.end();
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    has_pass = true;
}

Tensor GpuBackend::Impl::read_one(const StageRef& stage) const {
    if (!has_pass) throw Error("GPU backend: no forward pass to read stage '" + stage_id(stage) + "' from");
    const StageSlot* s = acts.slot(stage);
    if (!s) throw Error("GPU backend: no stage '" + stage_id(stage) + "'");
    Tensor t(s->shape);
    s->buffer->download(t.data.data(), t.data.size(), s->offset);
    return t;
}

// The stages of `wanted` this pass holds, in catalogue order whatever the order asked for.
Trace GpuBackend::Impl::read(const std::vector<StageRef>& wanted) const {
    for (const StageRef& stage : wanted)
        if (!acts.slot(stage)) throw Error("GPU backend: no stage '" + stage_id(stage) + "'");
    Trace trace;
    trace.set_patch_rows(embedded_patches, token_patches);
    for (const StageSlot& s : acts.slots) {
        if (std::find(wanted.begin(), wanted.end(), s.stage) == wanted.end()) continue;
        Tensor& t = trace.add(s.stage, s.shape);
        s.buffer->download(t.data.data(), t.data.size(), s.offset);
    }
    return trace;
}

Trace GpuBackend::forward(const Tensor& input, Readback what, const Interventions& iv) {
    impl_->run(input, iv);
    const ModelConfig& c = impl_->model->config;
    std::vector<StageRef> stages;
    if (what == Readback::All)
        for (const StageSlot& s : impl_->acts.slots) stages.push_back(s.stage);
    else stages = prediction_stages(c.depth, c.num_classes > 0);
    Trace trace = impl_->read(stages);
    impl_->gpu_ms = impl_->timer.ms();
    return trace;
}

Trace GpuBackend::forward(const Tensor& input, const std::vector<StageRef>& wanted, const Interventions& iv) {
    if (!impl_->model) throw Error("GPU backend: no model (call set_model first)");
    const ModelConfig& c = impl_->model->config;
    const std::vector<StageRef> known = stage_list(c.depth, c.num_classes > 0);
    for (const StageRef& stage : wanted)
        if (std::find(known.begin(), known.end(), stage) == known.end())
            throw Error("GPU backend: no stage '" + stage_id(stage) + "'");
    impl_->run(input, iv);
    Trace trace = impl_->read(wanted);
    impl_->gpu_ms = impl_->timer.ms();
    return trace;
}

Tensor GpuBackend::read_stage(const StageRef& stage) const { return impl_->read_one(stage); }

double GpuBackend::last_gpu_ms() const { return impl_->gpu_ms; }

std::string GpuBackend::device() const { return gl_description(); }

std::vector<StageRef> GpuBackend::prediction_stages(int depth, bool has_head) {
    std::vector<StageRef> stages;
    for (const StageRef& s : stage_list(depth, has_head))
        if (s.kind == StageKind::Attn || s.kind == StageKind::Logits || s.kind == StageKind::Probs ||
            s.kind == StageKind::Rollout)
            stages.push_back(s);
    return stages;
}

}  // namespace vit
