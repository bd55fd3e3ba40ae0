// vitviz-bench-occlusion: the occlusion map (core/explain/occlusion.h: N lean passes,
// one per masked patch) for the built-in digits model, ViT-Ti/16 and ViT-B/16
// at 224×224 (random weights), beside N full-trace passes of the core (each
// patch masked in turn, one reused Trace) and beside PyTorch running the same
// N masked inputs as one batch (tests/bench/torch_occlusion.py).
//   vitviz-bench-occlusion [--threads T] [--runs N] [--models digits,tiny,base] [--python PATH]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_args.h"
#include "loading/builtin.h"
#include "loading/load_model.h"
#include "pass/forward.h"
#include "explain/occlusion.h"
#include "model/random_model.h"
#include "tensor/threads.h"
#include "pass/timing.h"
#include "torch_timing.h"

namespace {

using vit::TimingStats;

vit::Tensor test_input(const vit::ModelConfig& c) {
    const int64_t size = int64_t(c.pos_grid) * c.patch_size;
    vit::Tensor input({c.channels, size, size});
    for (size_t i = 0; i < input.data.size(); ++i)
        input.data[i] = static_cast<float>((i * 7919) % 1000) / 500.0f - 1.0f;
    return input;
}

TimingStats time_occlusion(const vit::Model& model, const vit::Tensor& input, int runs) {
    std::vector<double> ms;
    vit::OcclusionMapper mapper;  // as the app keeps it
    mapper.run(model, input);     // warm-up
    for (int r = 0; r < runs; ++r) {
        vit::Stopwatch clock;
        mapper.run(model, input);
        ms.push_back(clock.ms());
    }
    return vit::timing_stats(ms);
}

// N full-trace passes, patch n masked in the n-th, into one reused Trace.
TimingStats time_full_passes(const vit::Model& model, const vit::Tensor& input, int runs) {
    const int patches =
        static_cast<int>((input.shape[1] / model.config.patch_size) * (input.shape[2] / model.config.patch_size));
    vit::Trace trace;
    vit::forward_into(model, input, trace);
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        vit::Stopwatch clock;
        vit::Interventions iv;
        iv.mask_patches = {0};
        for (int n = 0; n < patches; ++n) {
            iv.mask_patches[0] = n;
            vit::forward_into(model, input, trace, iv);
        }
        ms.push_back(clock.ms());
    }
    return vit::timing_stats(ms);
}

}  // namespace

int main(int argc, char** argv) {
    int threads = 1, runs = 3;
    std::string python = "/usr/bin/python3", models = "digits,tiny,base";
    vit_bench::BenchArgs args("vitviz-bench-occlusion", "The occlusion map beside N full passes and PyTorch's batch.");
    args.count("--threads", &threads, 1, 256, "threads (default 1)");
    args.count("--runs", &runs, 1, vit::kMaxTimedRuns, "timed runs (default 3)");
    args.text("--python", &python, "the Python with torch (default /usr/bin/python3)");
    args.text("--models", &models, "which of digits,tiny,base (default all three)");
    args.parse(argc, argv);
    vit::set_threads(threads);
    std::printf("occlusion map, %d thread(s), medians of %d runs\n", threads, runs);
    std::printf("%-8s %5s %14s %16s %16s %8s\n", "model", "N", "occlusion_ms", "N_full_passes_ms", "pytorch_batch_ms",
                "ratio");
    for (const char* name : {"digits", "tiny", "base"}) {
        if (models.find(name) == std::string::npos) continue;
        const std::string n = name;
        const vit::Model model = n == "digits" ? vit::load_model("digits")
                                 : n == "tiny" ? vit::make_random_model(vit::vit_tiny_config(), 42)
                                               : vit::make_random_model(vit::vit_base_config(), 42);
        const vit::Tensor input = test_input(model.config);
        const int patches = model.config.pos_grid * model.config.pos_grid;
        const int model_runs = n == "base" ? 1 : runs;
        const TimingStats occ = time_occlusion(model, input, n == "digits" ? 20 * runs : model_runs);
        const TimingStats full = time_full_passes(model, input, model_runs);
        const vit_bench::TorchTiming torch = vit_bench::time_torch(
            python, "torch_occlusion.py",
            "--model " + n + " --threads " + std::to_string(threads) + " --runs " + std::to_string(model_runs));
        std::printf("%-8s %5d %14.2f %16.2f %16.2f %8.2f\n", name, patches, occ.median_ms, full.median_ms,
                    torch.median_ms, torch.median_ms > 0 ? occ.median_ms / torch.median_ms : 0.0);
        std::fflush(stdout);
    }
    std::printf("ratio = occlusion map time / PyTorch's batch time (lower is better)\n");
    return 0;
}
