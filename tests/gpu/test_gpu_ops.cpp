// Claim: each compute shader, fed the CPU core's own inputs for its stage,
// reproduces the CPU stage within the strict 1e-5 + 1e-4·|cpu| for every
// element — every stage of every block, on shapes that are not multiples of the
// workgroup tiles. (Whole passes, where rounding compounds, are in
// test_gpu_forward.cpp.)
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <random>

#include "pass/forward.h"
#include "gpu_buffers.h"
#include "gpu_ops.h"
#include "gpu_test_util.h"
#include "pass/pos_embed.h"
#include "model/random_model.h"

using namespace vit;
using namespace vit::gpu;
using vit::gpu_test::require_gl;
using vit::gpu_test::small_config;

namespace {

class OpChecker {
public:
    OpChecker(const Model& model, const Trace& cpu, std::string label)
        : model_(model), cpu_(cpu), label_(std::move(label)) {}

    static GpuBuffer up(const Tensor& t) { return GpuBuffer(t.data.size(), t.data.data()); }

    // Reads `count` floats at `offset` of `buf` as stage `id` and compares it strictly.
    void check(const std::string& id, const GpuBuffer& buf, size_t offset = 0) {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        const Tensor& want = cpu_.at(id);
        Tensor got(want.shape);
        buf.download(got.data.data(), got.data.size(), offset);
        const Difference d = compare(got, want, kGpuShaderTolerance);
        std::printf("  %-18s max diff %9.3g  strict %5.2f\n", id.c_str(), d.max_abs, d.tolerance_used);
        worst_ = std::max(worst_, d.tolerance_used);
        const size_t w = static_cast<size_t>(d.worst_flat);
        INFO(label_ << ", " << id << ": largest difference " << d.max_abs << "; worst element "
                    << index_string(unravel(d.worst_flat, want.shape)) << ": cpu " << want.data[w] << ", gpu "
                    << got.data[w]);
        CHECK(d.within());
    }

    void run() {
        const ModelConfig& c = model_.config;
        const Tensor& input = cpu_.at("input");
        const int S = static_cast<int>(input.shape[1]), grid = S / c.patch_size, N = grid * grid, T = N + 1;
        const int D = c.embed_dim, H = c.num_heads, Dh = c.head_dim(), M = c.mlp_dim;
        std::printf("%s: each shader on the CPU's inputs, strict tolerance\n", label_.c_str());
        auto bias = [](const GpuBuffer& b, const Vec& v) { return v.size() ? b.id() : 0u; };

        GpuBuffer in = up(input), patches(size_t(N) * c.patch_dim());
        ops_.patch_extract(in.id(), patches.id(), c.channels, S, S, c.patch_size);
        check("patches", patches);

        GpuBuffer p_in = up(cpu_.at("patches")), pw = upload_static(model_.patch_w), pb = upload_static(model_.patch_b);
        GpuBuffer embed(size_t(N) * D);
        ops_.matmul_bias(p_in.id(), 0, c.patch_dim(), pw.id(), bias(pb, model_.patch_b), embed.id(), N, D,
                         c.patch_dim());
        check("patch_embed", embed);

        const Mat pos = resample_pos_embed(model_.pos_embed, grid);
        GpuBuffer e_in = up(cpu_.at("patch_embed")), cls_tok = upload_static(model_.cls_token),
                  pos_buf = upload_static(pos), cls(size_t(T) * D), tokens(size_t(T) * D);
        ops_.embed_tokens(e_in.id(), cls_tok.id(), pos_buf.id(), cls.id(), tokens.id(), T, D);
        check("cls", cls);
        check("tokens", tokens);

        for (int b = 0; b < c.depth; ++b) {
            const BlockWeights& w = model_.blocks[b];
            auto id = [b](const char* name) { return "block" + std::to_string(b) + "." + name; };
            auto cpu = [&](const char* name) -> const Tensor& { return cpu_.at(id(name)); };
            const Tensor& x_cpu = b == 0 ? cpu_.at("tokens") : cpu_.at(("block" + std::to_string(b - 1) + ".out"));
            GpuBuffer x = up(x_cpu), out_td(size_t(T) * D), out_tm(size_t(T) * M);
            GpuBuffer ln1_w = upload_static(w.ln1_w), ln1_b = upload_static(w.ln1_b);
            ops_.layernorm(x.id(), ln1_w.id(), ln1_b.id(), out_td.id(), T, D, c.ln_eps);
            check(id("ln1"), out_td);

            GpuBuffer ln1 = up(cpu("ln1")), qkv_w = upload_static(w.qkv_w), qkv_b = upload_static(w.qkv_b);
            GpuBuffer qkv(size_t(3) * T * D);
            ops_.matmul_bias(ln1.id(), 0, D, qkv_w.id(), bias(qkv_b, w.qkv_b), qkv.id(), T, 3 * D, D, Dh);
            check(id("q"), qkv, 0);
            check(id("k"), qkv, size_t(T) * D);
            check(id("v"), qkv, size_t(2) * T * D);

            GpuBuffer qkv_cpu(size_t(3) * T * D);  // the CPU's q, k, v in the backend's layout
            qkv_cpu.upload(cpu("q").data.data(), size_t(T) * D, 0);
            qkv_cpu.upload(cpu("k").data.data(), size_t(T) * D, size_t(T) * D);
            qkv_cpu.upload(cpu("v").data.data(), size_t(T) * D, size_t(2) * T * D);
            GpuBuffer scores(size_t(H) * T * T);
            ops_.attn_scores(qkv_cpu.id(), 0, qkv_cpu.id(), T * D, scores.id(), H, T, Dh,
                             1.0f / std::sqrt(static_cast<float>(Dh)));
            check(id("scores"), scores);

            GpuBuffer scores_cpu = up(cpu("scores")), attn(size_t(H) * T * T);
            ops_.softmax_rows(scores_cpu.id(), attn.id(), H * T, T);
            check(id("attn"), attn);

            GpuBuffer attn_cpu = up(cpu("attn"));
            ops_.weighted_sum(attn_cpu.id(), qkv_cpu.id(), 2 * T * D, out_td.id(), H, T, Dh, T, D);
            check(id("context"), out_td);

            GpuBuffer context = up(cpu("context")), proj_w = upload_static(w.proj_w), proj_b = upload_static(w.proj_b);
            ops_.matmul_bias(context.id(), 0, D, proj_w.id(), bias(proj_b, w.proj_b), out_td.id(), T, D, D);
            check(id("attn_out"), out_td);

            GpuBuffer attn_out = up(cpu("attn_out"));
            ops_.add(x.id(), attn_out.id(), out_td.id(), T * D);
            check(id("res1"), out_td);

            GpuBuffer res1 = up(cpu("res1")), ln2_w = upload_static(w.ln2_w), ln2_b = upload_static(w.ln2_b);
            ops_.layernorm(res1.id(), ln2_w.id(), ln2_b.id(), out_td.id(), T, D, c.ln_eps);
            check(id("ln2"), out_td);

            GpuBuffer ln2 = up(cpu("ln2")), fc1_w = upload_static(w.fc1_w), fc1_b = upload_static(w.fc1_b);
            ops_.matmul_bias(ln2.id(), 0, D, fc1_w.id(), bias(fc1_b, w.fc1_b), out_tm.id(), T, M, D);
            check(id("fc1"), out_tm);

            GpuBuffer fc1 = up(cpu("fc1"));
            ops_.gelu(fc1.id(), out_tm.id(), T * M);
            check(id("gelu"), out_tm);

            GpuBuffer act = up(cpu("gelu")), fc2_w = upload_static(w.fc2_w), fc2_b = upload_static(w.fc2_b);
            ops_.matmul_bias(act.id(), 0, M, fc2_w.id(), bias(fc2_b, w.fc2_b), out_td.id(), T, D, M);
            check(id("mlp_out"), out_td);

            GpuBuffer mlp_out = up(cpu("mlp_out"));
            ops_.add(res1.id(), mlp_out.id(), out_td.id(), T * D);
            check(id("out"), out_td);
        }

        GpuBuffer last = up(cpu_.at(("block" + std::to_string(c.depth - 1) + ".out"))),
                  norm_w = upload_static(model_.norm_w), norm_b = upload_static(model_.norm_b), norm(size_t(T) * D);
        ops_.layernorm(last.id(), norm_w.id(), norm_b.id(), norm.id(), T, D, c.ln_eps);
        check("norm", norm);
        if (c.num_classes > 0) {
            GpuBuffer norm_cpu = up(cpu_.at("norm")), head_w = upload_static(model_.head_w),
                      head_b = upload_static(model_.head_b), logits(size_t(c.num_classes));
            ops_.matmul_bias(norm_cpu.id(), 0, D, head_w.id(), bias(head_b, model_.head_b), logits.id(), 1,
                             c.num_classes, D);
            check("logits", logits);
            GpuBuffer logits_cpu = up(cpu_.at("logits")), probs(size_t(c.num_classes));
            ops_.softmax_rows(logits_cpu.id(), probs.id(), 1, c.num_classes);
            check("probs", probs);
        }

        // Rollout from the CPU's attention maps: Â_b, then Â_b · R on the GPU.
        GpuBuffer r(size_t(T) * T), r_next(size_t(T) * T), factor(size_t(T) * T);
        for (int b = 0; b < c.depth; ++b) {
            GpuBuffer attn_cpu = up(cpu_.at(("block" + std::to_string(b) + ".attn")));
            ops_.rollout_prepare(attn_cpu.id(), b == 0 ? r.id() : factor.id(), H, T);
            if (b > 0) {
                ops_.weighted_sum(factor.id(), r.id(), 0, r_next.id(), 1, T, T, T, T);
                std::swap(r, r_next);
            }
        }
        check("rollout", r);
        std::printf("  worst: %.2f of the strict tolerance\n", worst_);
    }

private:
    const Model& model_;
    const Trace& cpu_;
    std::string label_;
    GpuOps ops_;
    double worst_ = 0;
};

void check_ops(const ModelConfig& c, int size, uint32_t seed, const std::string& label) {
    require_gl();
    const Model model = make_random_model(c, seed);
    Tensor input({c.channels, size, size});
    std::mt19937 rng(seed + 100);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    for (float& x : input.data) x = dist(rng);
    const Trace cpu = forward(model, input);
    OpChecker(model, cpu, label).run();
}

}  // namespace

TEST_CASE("each shader equals its CPU stage: 65 tokens, 4 heads of 16, 3 blocks", "[gpu][ops]") {
    check_ops(small_config(3, 8, 8, 64, 4, 3, 200, 10), 64, 1, "ops, 65 tokens, Dh 16");
}

TEST_CASE("each shader equals its CPU stage: 197 tokens, 12 heads of 64", "[gpu][ops]") {
    check_ops(small_config(3, 16, 14, 768, 12, 2, 300, 1000), 224, 2, "ops, 197 tokens, 12 heads of 64");
}

TEST_CASE("each shader equals its CPU stage: interpolated positions, one channel, no head", "[gpu][ops]") {
    check_ops(small_config(1, 6, 5, 48, 3, 2, 96, 0), 42, 3, "ops, interpolated pos, headless");
}
