// vitviz-gpu-bench: the GPU backend against the CPU core, in one run on one machine.
//   1. The attention core of ViT-B/16 (12 heads of 64): scores = q·kᵀ/√Dh, softmax,
//      attn·v with heads concatenated — at 224 (197 tokens) and 512 (1025 tokens).
//      CPU: the core's own attention (core/pass/attention.h).
//   2. The whole ViT-B/16 forward pass (random weights, every stage kept on the
//      GPU, predictions read back) against vit::forward_into with every stage.
// GPU time comes from GL_TIME_ELAPSED queries; wall time includes the submission
// and, for the forward pass, the read-back. Medians (and minimums) over --reps runs.
//
// vitviz-gpu-bench [--reps N] [--full-reps N] [--threads T] [--sizes 224,512] [--full-sizes 224]
// (the full pass runs at 224 by default: at 512 it takes minutes on llvmpipe; add it
// with --full-sizes 224,512 on a real GPU).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_args.h"
#include "pass/attention.h"
#include "explain/compare.h"
#include "base/error.h"
#include "pass/forward.h"
#include "gl_context.h"
#include "gpu_backend.h"
#include "gpu_buffers.h"
#include "gpu_ops.h"
#include "model/random_model.h"  // core: vit_base_config, make_random_model
#include "pass/rollout.h"
#include "tensor/threads.h"
#include "pass/timing.h"

namespace {

using vit::Stopwatch;
using Stats = vit::TimingStats;
Stats stats(std::vector<double> ms) { return vit::timing_stats(std::move(ms)); }

void print_row(const char* what, int size, int tokens, Stats gpu, Stats wall, Stats cpu) {
    std::printf("%-10s %4d px %5d tok | GPU %9.2f ms (min %9.2f) | GPU wall %9.2f ms | CPU %9.2f ms (min %9.2f) | "
                "CPU/GPU %6.2fx (wall %6.2fx)\n",
                what, size, tokens, gpu.median_ms, gpu.min_ms, wall.median_ms, cpu.median_ms, cpu.min_ms,
                cpu.median_ms / gpu.median_ms, cpu.median_ms / wall.median_ms);
    std::fflush(stdout);
}

void bench_attention(vit::gpu::GpuOps& ops, int size, int reps) {
    const int H = 12, Dh = 64, D = H * Dh, grid = size / 16, T = grid * grid + 1;
    std::mt19937 rng(7);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    vit::Tensor q({H, T, Dh}), k({H, T, Dh}), v({H, T, Dh});
    for (vit::Tensor* t : {&q, &k, &v})
        for (float& x : t->data) x = dist(rng);

    // GPU: q, k, v in one head-major qkv buffer, as the backend keeps them.
    using vit::gpu::GpuBuffer;
    GpuBuffer qkv(size_t(3) * T * D), scores(size_t(H) * T * T), attn(size_t(H) * T * T), context(size_t(T) * D);
    qkv.upload(q.data.data(), q.data.size(), 0);
    qkv.upload(k.data.data(), k.data.size(), size_t(T) * D);
    qkv.upload(v.data.data(), v.data.size(), size_t(2) * T * D);
    const float scale = 1.0f / std::sqrt(static_cast<float>(Dh));
    vit::gpu::GpuTimer timer;
    std::vector<double> gpu_ms, wall_ms, cpu_ms;
    for (int r = 0; r <= reps; ++r) {  // run 0 is the warm-up
        glFinish();
        const Stopwatch watch;
        timer.begin();
        ops.attn_scores(qkv.id(), 0, qkv.id(), T * D, scores.id(), H, T, Dh, scale);
        ops.softmax_rows(scores.id(), attn.id(), H * T, T);
        ops.weighted_sum(attn.id(), qkv.id(), 2 * T * D, context.id(), H, T, Dh, T, D);
        timer.end();
        glFinish();
        const double wall = watch.ms();
        const double gpu = timer.ms();
        if (r > 0) {
            gpu_ms.push_back(gpu);
            wall_ms.push_back(wall);
        }
    }

    vit::Tensor cpu_scores({H, T, T}), cpu_attn({H, T, T}), cpu_context({T, D});
    for (int r = 0; r <= reps; ++r) {
        const Stopwatch watch;
        vit::attention(q, k, v, cpu_scores, cpu_attn, cpu_context);
        if (r > 0) cpu_ms.push_back(watch.ms());
    }

    // The two must agree, or the timing means nothing.
    vit::Tensor gpu_context(cpu_context.shape);
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    context.download(gpu_context.data.data(), gpu_context.data.size());
    print_row("attention", size, T, stats(gpu_ms), stats(wall_ms), stats(cpu_ms));
    std::printf("           (context max |GPU − CPU| = %.3g)\n", vit::compare(gpu_context, cpu_context).max_abs);
}

void bench_forward(vit::GpuBackend& gpu, const vit::Model& model, int size, int reps) {
    const int grid = size / 16, T = grid * grid + 1;
    vit::Tensor input({3, size, size});
    std::mt19937 rng(11);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    for (float& x : input.data) x = dist(rng);

    std::vector<double> gpu_ms, wall_ms, cpu_ms;
    for (int r = 0; r <= reps; ++r) {
        glFinish();
        const Stopwatch watch;
        const vit::Trace t = gpu.forward(input, vit::GpuBackend::Readback::Predictions);
        const double wall = watch.ms();
        if (r > 0) {
            gpu_ms.push_back(gpu.last_gpu_ms());
            wall_ms.push_back(wall);
        }
    }
    const vit::Tensor gpu_probs = gpu.read_stage(vit::stage_id(vit::StageKind::Probs));

    vit::Trace trace;
    for (int r = 0; r <= reps; ++r) {
        const Stopwatch watch;
        vit::forward_into(model, input, trace);
        vit::add_rollout(trace);  // the GPU pass computes it too
        if (r > 0) cpu_ms.push_back(watch.ms());
    }
    const double max_diff = vit::compare(gpu_probs, trace.at(vit::StageRef{vit::StageKind::Probs})).max_abs;
    const Stats g = stats(gpu_ms);
    print_row("forward", size, T, g, stats(wall_ms), stats(cpu_ms));
    std::printf("           (probs max |GPU − CPU| = %.3g; GPU %.1f GFLOP/s)\n", max_diff,
                vit::forward_flops(model.config, T) / (g.median_ms * 1e6));
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 3, full_reps = 1, threads = 0;
    std::vector<int> sizes = {224, 512}, full_sizes = {224};
    vit_bench::BenchArgs args("vitviz-gpu-bench", "The GPU backend's attention core and forward pass beside the CPU's.");
    args.count("--reps", &reps, 1, vit::kMaxTimedRuns, "timed attention runs (default 3)");
    args.count("--full-reps", &full_reps, 1, vit::kMaxTimedRuns, "timed forward passes (default 1)");
    args.count("--threads", &threads, 0, 256, "CPU threads, 0 for all (default 0)");
    args.counts("--sizes", &sizes, 16, vit::kMaxImageSide, "attention image sizes (default 224,512)");
    args.counts("--full-sizes", &full_sizes, 16, vit::kMaxImageSide, "forward image sizes (default 224)");
    args.parse(argc, argv);
    for (const std::vector<int>* list : {&sizes, &full_sizes})
        for (int s : *list)
            if (s % 16) return std::fprintf(stderr, "vitviz-gpu-bench: size %d is not a multiple of 16\n", s), 2;
    try {
        vit::set_threads(threads);
        vit::ComputeGlContext gl;
        vit::GpuBackend gpu;
        const std::string device = gpu.device();
        std::printf("GPU: %s\nCPU core threads: %d; timed runs after a warm-up: %d (attention), %d (forward); medians\n",
                    device.c_str(), threads > 0 ? threads : Eigen::nbThreads(), reps, full_reps);
        if (device.find("llvmpipe") != std::string::npos)
            std::printf("note: llvmpipe runs the shaders on the CPU cores the CPU core also uses, and its\n"
                        "      GL_TIME_ELAPSED is unreliable for compute (one dispatch can read 0 ms): read GPU wall.\n");
        std::printf("ViT-B/16 attention core: 12 heads × 64, scores + softmax + attn·v\n");
        vit::gpu::GpuOps ops;
        for (int s : sizes) bench_attention(ops, s, reps);
        if (!full_sizes.empty()) {
            std::printf("ViT-B/16 full forward (random weights; GPU keeps every stage, reads back predictions; "
                        "CPU writes every stage)\n");
            const vit::Model model = vit::make_random_model(vit::vit_base_config(), 1);
            gpu.set_model(model);
            for (int s : full_sizes) bench_forward(gpu, model, s, full_reps);
        }
    } catch (const vit::Error& e) {
        std::fprintf(stderr, "vitviz-gpu-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
