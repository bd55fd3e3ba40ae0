// vitviz-gpu-bench: the GPU backend against the CPU core, in one run on one machine.
//   1. The attention core of ViT-B/16 (12 heads of 64): scores = q·kᵀ/√Dh, softmax,
//      attn·v with heads concatenated — at 224, 512 and 1024 px (197, 1,025 and
//      4,097 tokens). CPU: the core's own attention (core/pass/attention.h).
//   2. The whole ViT-B/16 forward pass (random weights, every stage kept on the
//      GPU, predictions read back) against vit::forward_into with every stage;
//      with --large also a ViT-L/14 at 518 px (1,370 tokens; the GPU backend runs
//      no registers or LayerScale, so it is the plain ViT-L/14 of DINOv2's size).
// GPU time comes from GL_TIME_ELAPSED queries; wall time includes the submission
// and, for the forward pass, the read-back. Medians (and minimums) over --reps runs.
// Each row is followed by the largest |GPU − CPU| of each stage.
//
// vitviz-gpu-bench [--reps N] [--full-reps N] [--threads T] [--sizes 224,512,1024]
//                  [--full-sizes 224] [--large]
// (the full pass runs at 224 by default: at 512 it takes minutes on llvmpipe; add it
// with --full-sizes 224,512 on a real GPU, as tools/gpu-check.sh does).
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

// Rows of one markdown table, and below it each row's largest |GPU − CPU| per stage.
struct Report {
    bool timer_reliable = true;  // false on llvmpipe: its timer queries read 0 for compute
    std::vector<std::string> details;

    static void header() {
        std::printf(
            "| what | px | tokens | GPU timer ms | GPU wall ms | CPU ms | CPU/GPU wall | largest abs(GPU − CPU) |\n"
            "|---|---:|---:|---:|---:|---:|---:|---|\n");
    }
    void row(const std::string& what, int size, int tokens, Stats gpu, Stats wall, Stats cpu,
             const std::vector<std::pair<std::string, double>>& differences) {
        char timer[32] = "n/a";
        if (timer_reliable) std::snprintf(timer, sizeof timer, "%.3f", gpu.median_ms);
        auto worst = std::max_element(differences.begin(), differences.end(),
                                      [](const auto& a, const auto& b) { return a.second < b.second; });
        std::printf("| %s | %d | %d | %s | %.2f | %.2f | %.2fx | %.1e (%s) |\n", what.c_str(), size, tokens, timer,
                    wall.median_ms, cpu.median_ms, cpu.median_ms / wall.median_ms, worst->second, worst->first.c_str());
        std::fflush(stdout);
        std::string line = what + " " + std::to_string(size) + " px:";
        for (size_t i = 0; i < differences.size(); ++i) {
            char cell[48];
            std::snprintf(cell, sizeof cell, "%s %-9s %.1e", i % 6 == 0 ? "\n   " : "", differences[i].first.c_str(),
                          differences[i].second);
            line += cell;
        }
        details.push_back(line);
    }
    void print_details() const {
        if (details.empty()) return;
        std::printf("\nlargest abs(GPU − CPU) per stage (over blocks):\n");
        for (const std::string& d : details) std::printf("%s\n", d.c_str());
    }
};

// The largest |GPU − CPU| between a GPU buffer and the CPU's tensor of the same size.
double largest_difference(const vit::gpu::GpuBuffer& gpu, const vit::Tensor& cpu) {
    vit::Tensor read(cpu.shape);
    gpu.download(read.data.data(), read.data.size());
    return vit::compare(read, cpu).max_abs;
}

void bench_attention(Report& report, vit::gpu::GpuOps& ops, int size, int reps) {
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
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    report.row("ViT-B/16 attention", size, T, stats(gpu_ms), stats(wall_ms), stats(cpu_ms),
               {{"scores", largest_difference(scores, cpu_scores)},
                {"attn", largest_difference(attn, cpu_attn)},
                {"context", largest_difference(context, cpu_context)}});
}

// The largest |GPU − CPU| of each stage kind (over its blocks), in catalogue order; every
// stage must be there (Readback::All).
std::vector<std::pair<std::string, double>> stage_differences(const vit::Trace& gpu, const vit::Trace& cpu) {
    std::vector<std::pair<std::string, double>> largest;
    for (const vit::Stage& s : cpu.stages()) {
        const std::string name = vit::stage_def(s.kind).name;
        const double d = vit::compare(gpu.at(s.ref()), s.tensor).max_abs;
        auto it = std::find_if(largest.begin(), largest.end(), [&](const auto& e) { return e.first == name; });
        if (it == largest.end()) largest.emplace_back(name, d);
        else it->second = std::max(it->second, d);
    }
    return largest;
}

void bench_forward(Report& report, const std::string& what, vit::GpuBackend& gpu, const vit::Model& model, int size,
                   int reps) {
    const int grid = size / model.config.patch_size, T = grid * grid + 1;
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

    vit::Trace trace;
    for (int r = 0; r <= reps; ++r) {
        const Stopwatch watch;
        vit::forward_into(model, input, trace);
        vit::add_rollout(trace);  // the GPU pass computes it too
        if (r > 0) cpu_ms.push_back(watch.ms());
    }
    report.row(what, size, T, stats(gpu_ms), stats(wall_ms), stats(cpu_ms),
               stage_differences(gpu.forward(input, vit::GpuBackend::Readback::All), trace));
}

// DINOv2 ViT-L/14's size at 518 px (D 1024, 16 heads, 24 blocks, MLP 4096) without its
// registers and LayerScale, which the GPU backend does not run.
vit::ModelConfig vit_large_518_config() {
    vit::ModelConfig c = vit::vit_base_config();
    c.name = "ViT-L/14 at 518 px (random weights)";
    c.embed_dim = 1024;
    c.num_heads = 16;
    c.depth = 24;
    c.mlp_dim = 4096;
    c.patch_size = 14;
    c.pos_grid = 37;
    c.preprocess.image_size = 518;
    return c;
}

}  // namespace

int main(int argc, char** argv) {
    int reps = 3, full_reps = 1, threads = 0;
    bool large = false;
    std::vector<int> sizes = {224, 512, 1024}, full_sizes = {224};
    vit_bench::BenchArgs args("vitviz-gpu-bench",
                              "The GPU backend's attention core and forward pass beside the CPU's.");
    args.count("--reps", &reps, 1, vit::kMaxTimedRuns, "timed attention runs (default 3)");
    args.count("--full-reps", &full_reps, 1, vit::kMaxTimedRuns, "timed forward passes (default 1)");
    args.count("--threads", &threads, 0, 256, "CPU threads, 0 for all (default 0)");
    args.counts("--sizes", &sizes, 16, vit::kMaxImageSide, "attention image sizes (default 224,512,1024)");
    args.counts("--full-sizes", &full_sizes, 16, vit::kMaxImageSide, "forward image sizes (default 224)");
    args.flag("--large", &large, "also the forward pass of a ViT-L/14 at 518 px (about 10 GB of CPU memory)");
    args.parse(argc, argv);
    for (const std::vector<int>* list : {&sizes, &full_sizes})
        for (int s : *list)
            if (s % 16) return std::fprintf(stderr, "vitviz-gpu-bench: size %d is not a multiple of 16\n", s), 2;
    try {
        vit::set_threads(threads);
        vit::ComputeGlContext gl;
        vit::GpuBackend gpu;
        const std::string device = gpu.device();
        std::printf(
            "GPU: %s\nCPU core threads: %d; timed runs after a warm-up: %d (attention), %d (forward); medians\n",
            device.c_str(), threads > 0 ? threads : vit::machine_threads(), reps, full_reps);
        if (device.find("llvmpipe") != std::string::npos)
            std::printf(
                "note: llvmpipe runs the shaders on the CPU cores the CPU core also uses, and its\n"
                "      GL_TIME_ELAPSED is unreliable for compute (one dispatch can read 0 ms): read GPU wall.\n");
        std::printf(
            "attention: 12 heads × 64, scores + softmax + attn·v; forward: random weights, the GPU keeps "
            "every stage and reads back the predictions, the CPU writes every stage\n\n");
        Report report;
        report.timer_reliable = device.find("llvmpipe") == std::string::npos;
        Report::header();
        vit::gpu::GpuOps ops;
        for (int s : sizes) bench_attention(report, ops, s, reps);
        if (!full_sizes.empty()) {
            const vit::Model model = vit::make_random_model(vit::vit_base_config(), 1);
            gpu.set_model(model);
            for (int s : full_sizes) bench_forward(report, "ViT-B/16 forward", gpu, model, s, full_reps);
        }
        if (large) {
            const vit::Model model = vit::make_random_model(vit_large_518_config(), 1);
            gpu.set_model(model);
            bench_forward(report, "ViT-L/14 forward", gpu, model, 518, full_reps);
        }
        report.print_details();
    } catch (const vit::Error& e) {
        std::fprintf(stderr, "vitviz-gpu-bench: %s\n", e.what());
        return 1;
    }
    return 0;
}
