// vitviz-bench: the full-trace CPU forward of ViT-Ti/16 and ViT-B/16 at 224×224
// (random weights, timm's shapes) at 1 and 2 threads, beside PyTorch's forward
// of the same architecture on the same machine in the same run
// (tests/bench/torch_forward.py with Debian's python3-torch), and the ratio.
//   vitviz-bench [--runs N] [--python PATH]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "forward.h"
#include "random_model.h"
#include "timing.h"
#include "torch_timing.h"

namespace {

using Timing = vit::TimingStats;

Timing time_core(const vit::Model& model, int threads, int runs) {
    vit::set_threads(threads);
    vit::Tensor input({3, 224, 224});
    for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>((i * 7919) % 1000) / 500.0f - 1.0f;
    return vit::time_forward(model, input, runs);
}

Timing time_torch(const std::string& python, const char* size, int threads, int runs) {
    return vit_bench::time_torch(python, "torch_forward.py", std::string("--model ") + size + " --threads " +
                                                                 std::to_string(threads) + " --runs " + std::to_string(runs));
}

}  // namespace

int main(int argc, char** argv) {
    int runs = 10;
    std::string python = "/usr/bin/python3";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
        if (flag == "--python") python = argv[i + 1];
    }
    std::printf("%-8s %-7s %12s %10s %12s %8s\n", "model", "threads", "vitviz_ms", "GFLOP/s", "pytorch_ms", "ratio");
    const std::pair<const char*, vit::ModelConfig> models[] = {{"tiny", vit::vit_tiny_config()},
                                                               {"base", vit::vit_base_config()}};
    for (const auto& [size, config] : models) {
        const vit::Model model = vit::make_random_model(config, 42);
        const double gflop = vit::forward_flops(config, 197) / 1e9;
        for (int threads : {1, 2}) {
            const Timing core = time_core(model, threads, runs);
            const Timing torch = time_torch(python, size, threads, runs);
            if (torch.median_ms > 0) {
                std::printf("ViT-%-4s %-7d %12.2f %10.1f %12.2f %8.2f\n", size, threads, core.median_ms,
                            gflop / (core.median_ms / 1e3), torch.median_ms, core.median_ms / torch.median_ms);
            } else {
                std::printf("ViT-%-4s %-7d %12.2f %10.1f %12s %8s\n", size, threads, core.median_ms,
                            gflop / (core.median_ms / 1e3), "n/a", "n/a");
            }
            std::fflush(stdout);
        }
    }
    std::printf("ratio = vitviz full-trace forward time / PyTorch forward time (lower is better); medians of %d runs\n",
                runs);
    return 0;
}
