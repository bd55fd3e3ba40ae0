// Allocation of the per-stage buffers and the stage table (GPU backend).
#include "gpu_activations.h"

#include <climits>

#include "base/error.h"

namespace vit::gpu {

namespace {

class Allocator {
public:
    Allocator(Activations& acts, const ModelSizes& sizes) : acts_(acts), sizes_(sizes) {
        GLint64 limit = 0;
        glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &limit);
        limit_bytes_ = limit > 0 ? limit : INT64_MAX;
    }

    // A buffer for stage `stage`, shaped by the catalogue.
    void make(GpuBuffer& buf, StageKind kind, int block = -1) {
        const std::vector<int64_t> shape = stage_shape(kind, sizes_);
        scratch(buf, shape, stage_id(kind, block));
        add(buf, 0, kind, block);
    }

    // A buffer that is no stage (or holds several).
    void scratch(GpuBuffer& buf, const std::vector<int64_t>& shape, const std::string& what = "scratch") {
        int64_t count = 1;
        for (int64_t s : shape) count *= s;
        check(what, count);
        buf = GpuBuffer(static_cast<size_t>(count));
    }

    // Stage `kind` of `block` lives in `buf` from float `offset` on.
    void add(const GpuBuffer& buf, size_t offset, StageKind kind, int block = -1) {
        acts_.slots.push_back(StageSlot{&buf, offset, stage_shape(kind, sizes_), {kind, block}});
    }

private:
    void check(const std::string& what, int64_t count) const {
        const int64_t bytes = count * static_cast<int64_t>(sizeof(float));
        if (count > INT_MAX || bytes > limit_bytes_)
            throw Error("GPU backend: stage '" + what + "' needs " + std::to_string(bytes >> 20) +
                        " MiB, more than this GPU's storage block limit of " + std::to_string(limit_bytes_ >> 20) +
                        " MiB (use a smaller image or the CPU core)");
    }

    Activations& acts_;
    ModelSizes sizes_;
    int64_t limit_bytes_ = 0;
};

}  // namespace

const StageSlot* Activations::slot(const StageRef& stage) const {
    for (const StageSlot& s : slots)
        if (s.stage == stage) return &s;
    return nullptr;
}

void allocate_activations(const ModelConfig& c, int grid, int dropped, Activations& acts) {
    acts = Activations{};
    while (glGetError() != GL_NO_ERROR) {}
    acts.grid = grid;
    const ModelSizes sizes = model_sizes(c, grid, dropped);
    const int64_t T = sizes.T, T0 = sizes.T0, N = sizes.N, D = sizes.D;
    acts.tokens = static_cast<int>(T);
    Allocator a(acts, sizes);

    a.make(acts.input, StageKind::Input);
    a.make(acts.patches, StageKind::Patches);
    a.make(acts.patch_embed, StageKind::PatchEmbed);
    a.make(acts.cls, StageKind::Cls);
    a.make(acts.tokens_buf, StageKind::Tokens);
    if (grid != c.pos_grid) a.scratch(acts.pos, {T0, D});
    a.scratch(acts.embed_unpermuted, {N, D});
    a.scratch(acts.permutation, {N});
    a.scratch(acts.tokens_all, {T0, D});
    a.scratch(acts.kept_rows, {T});

    acts.blocks.resize(static_cast<size_t>(c.depth));
    for (int b = 0; b < c.depth; ++b) {
        BlockActivations& x = acts.blocks[b];
        a.make(x.ln1, StageKind::Ln1, b);
        a.scratch(x.qkv, {3, T, D});
        a.add(x.qkv, 0, StageKind::Q, b);
        a.add(x.qkv, static_cast<size_t>(T * D), StageKind::K, b);
        a.add(x.qkv, static_cast<size_t>(2 * T * D), StageKind::V, b);
        a.make(x.scores, StageKind::Scores, b);
        a.make(x.attn, StageKind::Attn, b);
        a.make(x.context, StageKind::Context, b);
        a.make(x.attn_out, StageKind::AttnOut, b);
        a.make(x.res1, StageKind::Res1, b);
        a.make(x.ln2, StageKind::Ln2, b);
        a.make(x.fc1, StageKind::Fc1, b);
        a.make(x.gelu, StageKind::Gelu, b);
        a.make(x.mlp_out, StageKind::MlpOut, b);
        a.make(x.out, StageKind::Out, b);
        a.scratch(x.head_scale, {D});
    }
    a.make(acts.norm, StageKind::Norm);
    if (c.num_classes > 0) {
        a.make(acts.logits, StageKind::Logits);
        a.make(acts.probs, StageKind::Probs);
    }
    a.make(acts.rollout, StageKind::Rollout);
    if (c.depth > 1) {
        a.scratch(acts.rollout_tmp, {T, T});
        a.scratch(acts.rollout_factor, {T, T});
    }
    if (glGetError() == GL_OUT_OF_MEMORY) {
        acts = Activations{};
        throw Error("GPU backend: out of GPU memory for " + std::to_string(T) +
                    " tokens (use a smaller image or the CPU core)");
    }
}

}  // namespace vit::gpu
