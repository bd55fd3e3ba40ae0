// vitviz-bench-train: one training step (per-sample forward + backward over the
// batch, the mean cross-entropy, AdamW) of the digits model at batch 64 and of
// ViT-Ti/16 at batch 8, at 1 and 2 threads, beside PyTorch's forward +
// backward + AdamW step of the same architecture on the same machine in the
// same run (tests/bench/torch_train.py with Debian's python3-torch).
//   vitviz-bench-train [--runs N] [--python PATH]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench_args.h"
#include "model/random_model.h"
#include "tensor/threads.h"
#include "pass/timing.h"
#include "torch_timing.h"
#include "train/training.h"

namespace {

struct Case {
    const char* name;  // torch_train.py's --model
    vit::ModelConfig config;
    int batch;
};

double time_core(const Case& c, int threads, int runs) {
    vit::set_threads(threads);
    vit::Model model = vit::init_model(c.config, 0);
    const int side = c.config.patch_size * c.config.pos_grid;
    std::vector<vit::Tensor> inputs;
    std::vector<int> labels;
    for (int b = 0; b < c.batch; ++b) {
        vit::Tensor t({c.config.channels, side, side});
        for (size_t i = 0; i < t.data.size(); ++i)
            t.data[i] = static_cast<float>((i * 7919 + b) % 1000) / 500.0f - 1.0f;
        inputs.push_back(std::move(t));
        labels.push_back(b % c.config.num_classes);
    }
    vit::AdamW optimizer(model, {});
    vit::train_step(model, optimizer, inputs, labels, 1e-3f);  // warm-up
    std::vector<double> ms;
    for (int r = 0; r < runs; ++r) {
        const vit::Stopwatch clock;
        vit::train_step(model, optimizer, inputs, labels, 1e-3f);
        ms.push_back(clock.ms());
    }
    return vit::timing_stats(ms).median_ms;
}

// PyTorch's median training step for one case and thread count (0 if the script failed), and its thread count.
vit_bench::TorchTiming time_torch(const std::string& python, const Case& c, int threads, int runs) {
    return vit_bench::time_torch(python, "torch_train.py",
                                 "--model " + std::string(c.name) + " --batch " + std::to_string(c.batch) +
                                     " --threads " + std::to_string(threads) + " --runs " + std::to_string(runs));
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 5;
    std::string python = "/usr/bin/python3";
    vit_bench::BenchArgs args("vitviz-bench-train", "A training step of digits and ViT-Ti beside PyTorch's.");
    args.count("--runs", &runs, 1, vit::kMaxTimedRuns, "timed steps (default 5)");
    args.text("--python", &python, "the Python with torch (default /usr/bin/python3)");
    args.parse(argc, argv);
    const Case cases[] = {{"digits", vit::digits_config(), 64}, {"tiny", vit::vit_tiny_config(), 8}};
    std::printf("%-8s %-6s %-7s %12s %12s %8s %15s\n", "model", "batch", "threads", "vitviz_ms", "pytorch_ms", "ratio",
                "pytorch_threads");
    for (const Case& c : cases)
        for (int threads : {1, 2}) {
            const double core = time_core(c, threads, runs);
            const vit_bench::TorchTiming torch = time_torch(python, c, threads, runs);
            if (torch.median_ms > 0)
                std::printf("%-8s %-6d %-7d %12.1f %12.1f %8.2f %15d\n", c.name, c.batch, threads, core,
                            torch.median_ms, core / torch.median_ms, torch.threads);
            else std::printf("%-8s %-6d %-7d %12.1f %12s %8s\n", c.name, c.batch, threads, core, "n/a", "n/a");
            std::fflush(stdout);
        }
    std::printf(
        "ratio = vitviz training step / PyTorch forward + backward + AdamW step (lower is better); "
        "medians of %d steps;\npytorch_threads = torch.get_num_threads() (pinned below the machine's cores, "
        "else PyTorch's default)\n",
        runs);
    return 0;
}
