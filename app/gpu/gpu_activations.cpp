// Allocation of the per-stage buffers and the stage table (GPU backend).
#include "gpu_activations.h"

#include <climits>

#include "error.h"
#include "trace.h"

namespace vit::gpu {

namespace {

class Allocator {
public:
    explicit Allocator(Activations& acts) : acts_(acts) {
        GLint64 limit = 0;
        glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &limit);
        limit_bytes_ = limit > 0 ? limit : INT64_MAX;
    }

    // A buffer of the product of `shape`, registered as stage `id` when id is non-empty.
    void make(GpuBuffer& buf, const std::string& id, std::vector<int64_t> shape, int block = -1) {
        int64_t count = 1;
        for (int64_t s : shape) count *= s;
        check(id.empty() ? "scratch" : id, count);
        buf = GpuBuffer(static_cast<size_t>(count));
        if (!id.empty()) add(id, buf, 0, std::move(shape), block);
    }

    void add(const std::string& id, const GpuBuffer& buf, size_t offset, std::vector<int64_t> shape, int block) {
        acts_.ids.push_back(id);
        acts_.slots[id] = StageSlot{&buf, offset, std::move(shape), block};
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
    int64_t limit_bytes_ = 0;
};

}  // namespace

void allocate_activations(const ModelConfig& c, int grid, Activations& acts) {
    acts = Activations{};
    while (glGetError() != GL_NO_ERROR) {
    }
    acts.grid = grid;
    const int64_t N = int64_t(grid) * grid, T = N + 1, D = c.embed_dim, H = c.num_heads, Dh = c.head_dim(),
                  M = c.mlp_dim, S = int64_t(grid) * c.patch_size;
    acts.tokens = static_cast<int>(T);
    Allocator a(acts);

    a.make(acts.input, "input", {c.channels, S, S});
    a.make(acts.patches, "patches", {N, c.patch_dim()});
    a.make(acts.patch_embed, "patch_embed", {N, D});
    a.make(acts.cls, "cls", {T, D});
    a.make(acts.tokens_buf, "tokens", {T, D});
    if (grid != c.pos_grid) a.make(acts.pos, "", {T, D});

    acts.blocks.resize(static_cast<size_t>(c.depth));
    for (int b = 0; b < c.depth; ++b) {
        BlockActivations& x = acts.blocks[b];
        auto id = [b](const char* name) { return block_stage_id(b, name); };
        a.make(x.ln1, id("ln1"), {T, D}, b);
        a.make(x.qkv, "", {3, H, T, Dh});
        a.add(id("q"), x.qkv, 0, {H, T, Dh}, b);
        a.add(id("k"), x.qkv, static_cast<size_t>(T * D), {H, T, Dh}, b);
        a.add(id("v"), x.qkv, static_cast<size_t>(2 * T * D), {H, T, Dh}, b);
        a.make(x.scores, id("scores"), {H, T, T}, b);
        a.make(x.attn, id("attn"), {H, T, T}, b);
        a.make(x.context, id("context"), {T, D}, b);
        a.make(x.attn_out, id("attn_out"), {T, D}, b);
        a.make(x.res1, id("res1"), {T, D}, b);
        a.make(x.ln2, id("ln2"), {T, D}, b);
        a.make(x.fc1, id("fc1"), {T, M}, b);
        a.make(x.gelu, id("gelu"), {T, M}, b);
        a.make(x.mlp_out, id("mlp_out"), {T, D}, b);
        a.make(x.out, id("out"), {T, D}, b);
    }
    a.make(acts.norm, "norm", {T, D});
    if (c.num_classes > 0) {
        a.make(acts.logits, "logits", {c.num_classes});
        a.make(acts.probs, "probs", {c.num_classes});
    }
    a.make(acts.rollout, "rollout", {T, T});
    if (c.depth > 1) {
        a.make(acts.rollout_tmp, "", {T, T});
        a.make(acts.rollout_factor, "", {T, T});
    }
    if (glGetError() == GL_OUT_OF_MEMORY) {
        acts = Activations{};
        throw Error("GPU backend: out of GPU memory for " + std::to_string(T) + " tokens (use a smaller image or the CPU core)");
    }
}

}  // namespace vit::gpu
