// vitviz-bench: the full-trace CPU forward of ViT-Ti/16 and ViT-B/16 at 224×224
// (random weights, timm's shapes) at 1 and 2 threads, beside PyTorch's forward
// of the same architecture (tests/bench/torch_forward.py with Debian's
// python3-torch), runs interleaved in the same run, and the ratio. Beside them
// the GEMM floor: the pass's product FLOPs at the best rate that the core's
// product or the BLAS's sgemm (Eigen's GEMM in a build without one) reaches at
// the model's layer shapes in the same run.
// The pass is forward_into's: every stage but the rollout, whose time (when a
// view or a dump asks for it) is printed apart. Then peak resident memory of
// ViT-B at 224 and 448 (785 tokens), each measured in a fresh process, beside
// the size of the trace itself.
//   vitviz-bench [--runs N] [--rounds R] [--threads T (only T, not 1 and 2)] [--python PATH]
//   vitviz-bench --peak-memory base|tiny SIZE   (one memory case; run by the above)
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "forward.h"
#include "layers.h"
#include "random_model.h"
#include "rollout.h"
#include "threads.h"
#include "timing.h"
#include "torch_timing.h"

namespace {

vit::Tensor bench_input(int size) {
    vit::Tensor input({3, size, size});
    for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>((i * 7919) % 1000) / 500.0f - 1.0f;
    return input;
}

// One GEMM shape of a linear layer: y (rows × out) = x (rows × inner) · wᵀ.
struct GemmShape {
    int rows, inner, out;
};

std::vector<GemmShape> layer_shapes(const vit::ModelConfig& c, int tokens) {
    const int D = c.embed_dim, M = c.mlp_dim;
    return {{tokens, D, 3 * D}, {tokens, D, D}, {tokens, D, M}, {tokens, M, D}};
}

// The best GFLOP/s each product reaches over the shapes: the core's own
// (vit::linear, no bias: gemm.h's kernel with AVX-512) and Eigen's product, which
// is the BLAS's sgemm in a BLAS build (Eigen's own GEMM otherwise).
struct GemmRates {
    double core = 0, sgemm = 0;
    double best() const { return std::max(core, sgemm); }
};

GemmRates best_gemm_rates(const std::vector<GemmShape>& shapes, int runs) {
    GemmRates rates;
    for (const GemmShape& s : shapes) {
        const vit::Mat x = vit::Mat::Random(s.rows, s.inner), w = vit::Mat::Random(s.out, s.inner);
        vit::Mat y(s.rows, s.out);
        const vit::Vec no_bias;
        const double gflop = 2.0 * s.rows * s.inner * s.out / 1e9;
        for (int i = 0; i < runs + 1; ++i) {  // the first is a warm-up
            const vit::Stopwatch core_watch;
            vit::linear(x, w, no_bias, vit::MatMap(y.data(), y.rows(), y.cols()));
            const double core_ms = core_watch.ms();
            const vit::Stopwatch sgemm_watch;
            y.noalias() = x * w.transpose();
            const double sgemm_ms = sgemm_watch.ms();
            if (i == 0) continue;
            rates.core = std::max(rates.core, gflop / core_ms * 1e3);
            rates.sgemm = std::max(rates.sgemm, gflop / sgemm_ms * 1e3);
        }
    }
    return rates;
}

// Median ms of add_rollout on a pass of `model` at the current thread count.
double time_rollout(const vit::Model& model, const vit::Tensor& input, int runs) {
    vit::Trace trace = vit::forward(model, input);
    std::vector<double> ms;
    for (int i = 0; i < runs; ++i) {
        const vit::Stopwatch watch;
        vit::add_rollout(trace);
        ms.push_back(watch.ms());
    }
    return vit::timing_stats(ms).median_ms;
}

// PyTorch's median for one model and thread count (0 if the script failed), and its thread count.
vit_bench::TorchTiming time_torch(const std::string& python, const char* size, int threads, int runs) {
    return vit_bench::time_torch(python, "torch_forward.py", std::string("--model ") + size + " --threads " +
                                                                 std::to_string(threads) + " --runs " + std::to_string(runs));
}

double resident_mb() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * sysconf(_SC_PAGESIZE) / (1 << 20);
}

// One memory case, in this (fresh) process: prints `rss_mb before=… peak=… trace_mb=…`.
int peak_memory_case(const std::string& size, int pixels) {
    const vit::Model model =
        vit::make_random_model(size == "tiny" ? vit::vit_tiny_config() : vit::vit_base_config(), 42);
    const double before = resident_mb();
    const vit::Trace trace = vit::forward(model, bench_input(pixels));
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double trace_bytes = 0;
    for (const vit::Stage& s : trace.stages()) trace_bytes += static_cast<double>(s.tensor.numel()) * sizeof(float);
    std::printf("rss_mb before=%.1f peak=%.1f trace_mb=%.1f tokens=%lld\n", before, usage.ru_maxrss / 1024.0,
                trace_bytes / (1 << 20), static_cast<long long>(trace.at(vit::StageRef{vit::StageKind::Tokens}).shape[0]));
    return 0;
}

void print_peak_memory(const char* size, int pixels) {
    const std::string command = "/proc/" + std::to_string(getpid()) + "/exe --peak-memory " + size + " " +
                                std::to_string(pixels);
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    double before = 0, peak = 0, trace = 0;
    long long tokens = 0;
    std::array<char, 256> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get()))
        std::sscanf(line.data(), "rss_mb before=%lf peak=%lf trace_mb=%lf tokens=%lld", &before, &peak, &trace, &tokens);
    if (trace <= 0) {
        std::printf("ViT-%-4s %4d  memory case failed\n", size, pixels);
        return;
    }
    std::printf("ViT-%-4s %4d %7lld %10.1f %12.1f %10.1f %16.2f\n", size, pixels, tokens, trace, before, peak,
                (peak - before) / trace);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--peak-memory") return peak_memory_case(argv[2], std::atoi(argv[3]));
    int runs = 10, rounds = 3;
    std::vector<int> thread_counts = {1, 2};
    std::string python = "/usr/bin/python3";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
        if (flag == "--rounds") rounds = std::max(1, std::atoi(argv[i + 1]));
        if (flag == "--threads") thread_counts = {std::max(1, std::atoi(argv[i + 1]))};
        if (flag == "--python") python = argv[i + 1];
    }
    std::printf("%-8s %-7s %10s %10s %7s %10s %11s %10s %11s %15s\n", "model", "threads", "vitviz_ms", "pytorch_ms",
                "ratio", "core_GF/s", "sgemm_GF/s", "floor_ms", "vitviz/floor", "pytorch_threads");
    const std::pair<const char*, vit::ModelConfig> models[] = {{"tiny", vit::vit_tiny_config()},
                                                               {"base", vit::vit_base_config()}};
    const vit::Tensor input = bench_input(224);
    std::vector<std::pair<const char*, double>> rollout_ms;
    for (const auto& [size, config] : models) {
        const vit::Model model = vit::make_random_model(config, 42);
        const double gflop = vit::forward_flops(config, 197) / 1e9;
        for (int threads : thread_counts) {
            // Rounds alternate the core, PyTorch and the GEMM rate, so load changes hit all three.
            std::vector<double> core_ms, torch_ms;
            GemmRates rates;
            int torch_threads = 0;
            for (int r = 0; r < rounds; ++r) {
                vit::set_threads(threads);
                core_ms.push_back(vit::time_forward(model, input, runs).median_ms);
                const GemmRates round_rates = best_gemm_rates(layer_shapes(config, 197), runs);
                rates.core = std::max(rates.core, round_rates.core);
                rates.sgemm = std::max(rates.sgemm, round_rates.sgemm);
                const vit_bench::TorchTiming t = time_torch(python, size, threads, runs);
                if (t.median_ms > 0) torch_ms.push_back(t.median_ms), torch_threads = t.threads;
            }
            const double core = vit::timing_stats(core_ms).median_ms, floor = gflop / rates.best() * 1e3;
            if (torch_ms.empty()) {
                std::printf("ViT-%-4s %-7d %10.2f %10s %7s %10.1f %11.1f %10.2f %11.2f\n", size, threads, core, "n/a",
                            "n/a", rates.core, rates.sgemm, floor, core / floor);
            } else {
                const double torch = vit::timing_stats(torch_ms).median_ms;
                std::printf("ViT-%-4s %-7d %10.2f %10.2f %7.2f %10.1f %11.1f %10.2f %11.2f %15d\n", size, threads, core,
                            torch, core / torch, rates.core, rates.sgemm, floor, core / floor, torch_threads);
            }
            std::fflush(stdout);
        }
        vit::set_threads(1);
        rollout_ms.emplace_back(size, time_rollout(model, input, runs));
    }
    std::printf("ratio = vitviz full-trace forward / PyTorch forward (lower is better), median of %d rounds x %d runs;\n"
                "core_GF/s, sgemm_GF/s = best rate at the model's layer shapes (this run) of the core's product and of\n"
                "  Eigen's (the BLAS's sgemm in a BLAS build); floor = the pass's product FLOPs at the better of the two;\n"
                "pytorch_threads = torch.get_num_threads() (pinned below the machine's cores, else PyTorch's default)\n",
                rounds, runs);
    for (const auto& [size, ms] : rollout_ms)
        std::printf("ViT-%s rollout, computed when a view or a dump asks (not in vitviz_ms), 1 thread: %.2f ms\n", size, ms);
    std::printf("\n");
    std::printf("%-8s %4s %7s %10s %12s %10s %16s\n", "model", "size", "tokens", "trace_MB", "rss_before_MB",
                "peak_MB", "(peak-before)/trace");
    std::fflush(stdout);
    print_peak_memory("base", 224);
    print_peak_memory("base", 448);
    std::printf("rss_before = resident after building the model, before the forward pass (fresh process per case)\n");
    return 0;
}
