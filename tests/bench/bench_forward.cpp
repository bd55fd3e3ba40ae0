// vitviz-bench: the full-trace CPU forward of ViT-Ti/16 and ViT-B/16 at 224×224
// (random weights, timm's shapes) at 1 and 2 threads, beside ONNX Runtime's
// (tests/bench/ort_forward.js, onnxruntime-node from tools/install-deps.sh --ort,
// on an ONNX export of PyTorch's model: the same weights) and PyTorch's forward
// of the same architecture (tests/bench/torch_forward.py with Debian's
// python3-torch), runs interleaved in the same run, and the ratios. Then the
// contended rows: the same passes with one core kept busy by a spinning child
// process (busy_core.h), the 2-thread pass against the quiet 1-thread pass,
// and beside it the 2-thread pass on a fixed team (threads.h's sizing off). Beside them
// the GEMM floor: the time of every matrix product the pass makes, each timed
// alone at its own shape in the same run, the core's product or the BLAS's sgemm
// (Eigen's GEMM in a build without one), whichever is faster; both as an sgemm
// is called, packing the weights on every call.
// The pass is time_forward's: forward_into, every stage but the rollout (whose
// time, when a view or a dump asks for it, is printed apart), with the weights
// packed once before the timed passes (packed_weights.h). Then peak resident
// memory of ViT-B at 224 and 448 (785 tokens), each measured in a fresh
// process, beside the size of the trace itself and of the packed weights.
// Between them the interactive rows (interactive_rows.h): ViT-B's occlusion map
// beside 196 passes, and the app's --measure-pass beside the core's pass.
//   vitviz-bench [--runs N] [--rounds R] [--threads T (only T, not 1 and 2; no contended rows)]
//                [--python PATH] [--ort DIR (holding node_modules/onnxruntime-node; default build/ort)]
//   vitviz-bench --peak-memory base|tiny SIZE   (one memory case; run by the above)
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <array>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.h"
#include "pass/forward.h"
#include "tensor/gemm.h"
#include "pass/layers.h"
#include "model/packed_weights.h"
#include "model/random_model.h"
#include "pass/rollout.h"
#include "tensor/threads.h"
#include "pass/timing.h"
#include "busy_core.h"
#include "interactive_rows.h"
#include "torch_timing.h"

namespace {

vit::Tensor bench_input(int size) {
    vit::Tensor input({3, size, size});
    for (size_t i = 0; i < input.data.size(); ++i)
        input.data[i] = static_cast<float>((i * 7919) % 1000) / 500.0f - 1.0f;
    return input;
}

// One kind of matrix product in the pass, `count` times a pass:
// c (rows × cols) = a (rows × depth) · bᵀ (a linear layer, the attention
// scores, the head), or · b (attention's weighted sum). `per_head`: one of a
// block's heads, which the pass splits over the threads a head at a time.
struct PassProduct {
    int rows, depth, cols;
    bool b_transposed, per_head;
    int count;
};

// Every product of a pass of `c` on `tokens` tokens: forward_flops counts the same.
std::vector<PassProduct> pass_products(const vit::ModelConfig& c, int tokens) {
    const int T = tokens, D = c.embed_dim, M = c.mlp_dim, hd = c.head_dim(), L = c.depth, LH = L * c.num_heads;
    return {{T - 1, c.patch_dim(), D, true, false, 1},  // patch embedding
            {T, D, 3 * D, true, false, L},
            {T, D, D, true, false, L},  // qkv, output projection
            {T, D, M, true, false, L},
            {T, M, D, true, false, L},  // fc1, fc2
            {T, hd, T, true, true, LH},
            {T, T, hd, false, true, LH},             // scores, weighted sum
            {1, D, c.num_classes, true, false, 1}};  // head (CLS row)
}

double product_gflop(const PassProduct& p) { return 2.0 * p.rows * p.depth * p.cols * p.count / 1e9; }

// The best ms one product took: the core's own (gemm.h's kernel with AVX-512)
// and Eigen's product, which is the BLAS's sgemm in a BLAS build (Eigen's own
// GEMM otherwise). Both split over the threads as the pass splits it: a linear
// layer's output columns (vit::linear; a BLAS splits its own), a block's heads a head per thread.
struct ProductTimes {
    double core_ms = 1e300, sgemm_ms = 1e300;
};

void time_product(const PassProduct& p, int heads, int runs, ProductTimes& best) {
    const int n = p.per_head ? heads : 1;
    std::vector<vit::Mat> a(n, vit::Mat::Random(p.rows, p.depth)), c(n, vit::Mat(p.rows, p.cols));
    std::vector<vit::Mat> b(n, p.b_transposed ? vit::Mat::Random(p.cols, p.depth) : vit::Mat::Random(p.depth, p.cols));
    const vit::Vec no_bias;
    const auto product = [&](int i, bool core) {
        if (core && !p.per_head) vit::linear(a[i], b[i], no_bias, vit::MatMap(c[i].data(), p.rows, p.cols));
        else if (core && p.b_transposed) vit::multiply_bt(a[i], b[i], c[i]);
        else if (core) vit::multiply(a[i], b[i], c[i]);
        else if (p.b_transposed) c[i].noalias() = a[i] * b[i].transpose();
        else c[i].noalias() = a[i] * b[i];
    };
    const auto time_all = [&](bool core) {
        const vit::Stopwatch watch;
#pragma omp parallel for schedule(static) if (p.per_head)
        for (int i = 0; i < n; ++i) product(i, core);
        return watch.ms() / n;
    };
    for (int run = 0; run < runs + 1; ++run) {  // the first is a warm-up
        const double core_ms = time_all(true), sgemm_ms = time_all(false);
        if (run == 0) continue;
        best.core_ms = std::min(best.core_ms, core_ms);
        best.sgemm_ms = std::min(best.sgemm_ms, sgemm_ms);
    }
}

// The GEMM floor of a pass: every product at the better of its two best times;
// beside it each kind's rate over all the pass's products.
struct GemmFloor {
    double core_gflops = 0, sgemm_gflops = 0, floor_ms = 0;
};

GemmFloor gemm_floor(const std::vector<PassProduct>& products, const std::vector<ProductTimes>& times) {
    double gflop = 0, core_ms = 0, sgemm_ms = 0, floor_ms = 0;
    for (size_t i = 0; i < products.size(); ++i) {
        gflop += product_gflop(products[i]);
        core_ms += times[i].core_ms * products[i].count;
        sgemm_ms += times[i].sgemm_ms * products[i].count;
        floor_ms += std::min(times[i].core_ms, times[i].sgemm_ms) * products[i].count;
    }
    return {gflop / core_ms * 1e3, gflop / sgemm_ms * 1e3, floor_ms};
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
    return vit_bench::time_torch(
        python, "torch_forward.py",
        std::string("--model ") + size + " --threads " + std::to_string(threads) + " --runs " + std::to_string(runs));
}

// ONNX Runtime's side: node with onnxruntime-node in `dir`, and the models
// exported there by torch_forward.py --onnx (once; the weights are seeded).
struct OrtSide {
    std::string node_modules;  // empty: not installed
};

bool file_exists(const std::string& path) {
    struct stat info {};
    return stat(path.c_str(), &info) == 0;
}

OrtSide find_ort(const std::string& dir) {
    const std::string modules = dir + "/node_modules";
    if (!file_exists(modules + "/onnxruntime-node/package.json") ||
        std::system("node --version >/dev/null 2>&1") != 0) {
        std::printf("ONNX Runtime: not installed (tools/install-deps.sh --ort %s)\n", dir.c_str());
        return {};
    }
    return {modules};
}

std::string onnx_model(const OrtSide& ort, const std::string& python, const char* size) {
    const std::string path = ort.node_modules + "/../vit-" + size + ".onnx";
    if (!file_exists(path))
        std::system((python + " " VITVIZ_SOURCE_DIR "/tests/bench/torch_forward.py --model " + size +
                     " --threads 1 --onnx " + path + " >/dev/null 2>&1")
                        .c_str());
    return path;
}

// ONNX Runtime's median for one model and thread count (0 if not installed or it failed).
vit_bench::TorchTiming time_ort(const OrtSide& ort, const std::string& model, int threads, int runs) {
    if (ort.node_modules.empty()) return {};
    return vit_bench::read_timing("node " VITVIZ_SOURCE_DIR "/tests/bench/ort_forward.js " + ort.node_modules + " " +
                                  model + " " + std::to_string(threads) + " " + std::to_string(runs));
}

double resident_mb() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * sysconf(_SC_PAGESIZE) / (1 << 20);
}

// One memory case, in this (fresh) process, the pass as time_forward runs it:
// prints `rss_mb packed=… before=… peak=… trace_mb=…`.
int peak_memory_case(const std::string& size, int pixels) {
    const vit::Model model =
        vit::make_random_model(size == "tiny" ? vit::vit_tiny_config() : vit::vit_base_config(), 42);
    const double model_only = resident_mb();
    const vit::PackedWeights packed(model);
    const double before = resident_mb();
    vit::Trace trace;
    vit::forward_into(model, bench_input(pixels), trace, {}, &packed);
    vit::add_rollout(trace);
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    double trace_bytes = 0;
    for (const vit::Stage& s : trace.stages()) trace_bytes += static_cast<double>(s.tensor.numel()) * sizeof(float);
    std::printf("rss_mb packed=%.1f before=%.1f peak=%.1f trace_mb=%.1f tokens=%lld\n", before - model_only, before,
                usage.ru_maxrss / 1024.0, trace_bytes / (1 << 20),
                static_cast<long long>(trace.at(vit::StageRef{vit::StageKind::Tokens}).shape[0]));
    return 0;
}

void print_peak_memory(const char* size, int pixels) {
    const std::string command =
        "/proc/" + std::to_string(getpid()) + "/exe --peak-memory " + size + " " + std::to_string(pixels);
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
    double packed = 0, before = 0, peak = 0, trace = 0;
    long long tokens = 0;
    std::array<char, 256> line{};
    while (pipe && std::fgets(line.data(), line.size(), pipe.get()))
        std::sscanf(line.data(), "rss_mb packed=%lf before=%lf peak=%lf trace_mb=%lf tokens=%lld", &packed, &before,
                    &peak, &trace, &tokens);
    if (trace <= 0) {
        std::printf("ViT-%-4s %4d  memory case failed\n", size, pixels);
        return;
    }
    std::printf("ViT-%-4s %4d %7lld %10.1f %10.1f %12.1f %10.1f %16.2f\n", size, pixels, tokens, trace, packed, before,
                peak, (peak - before) / trace);
}

struct Options {
    int runs = 10, rounds = 3;
    std::vector<int> thread_counts = {1, 2};
    std::string python = "/usr/bin/python3", ort_dir = VITVIZ_BINARY_DIR "/ort";
};

// "%.2f" of a positive value (a median, a ratio to one), or "n/a" for a missing one (0).
std::string two_places(double value) {
    if (!(value > 0)) return "n/a";
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.2f", value);
    return text.data();
}

// One model at one thread count, its rounds alternating the core, ONNX
// Runtime, PyTorch and the products, so load changes hit them all. Prints the
// row; returns the core's median.
double quiet_row(const char* size, const vit::Model& model, const std::vector<PassProduct>& products,
                 const std::string& onnx, const OrtSide& ort, int threads, const Options& o) {
    const vit::Tensor input = bench_input(224);
    std::vector<double> core_ms, ort_ms, torch_ms;
    std::vector<ProductTimes> product_times(products.size());
    int torch_threads = 0;
    for (int r = 0; r < o.rounds; ++r) {
        vit::set_threads(threads);
        core_ms.push_back(vit::time_forward(model, input, o.runs).median_ms);
        for (size_t i = 0; i < products.size(); ++i)
            time_product(products[i], model.config.num_heads, o.runs, product_times[i]);
        const vit_bench::TorchTiming ort_timing = time_ort(ort, onnx, threads, o.runs);
        if (ort_timing.median_ms > 0) ort_ms.push_back(ort_timing.median_ms);
        const vit_bench::TorchTiming t = time_torch(o.python, size, threads, o.runs);
        if (t.median_ms > 0) torch_ms.push_back(t.median_ms), torch_threads = t.threads;
    }
    const GemmFloor rates = gemm_floor(products, product_times);
    const double core = vit::timing_stats(core_ms).median_ms, floor = rates.floor_ms;
    const double ort_median = vit::timing_stats(ort_ms).median_ms, torch = vit::timing_stats(torch_ms).median_ms;
    const auto ratio = [core](double other) { return two_places(other > 0 ? core / other : 0); };
    std::printf("ViT-%-4s %-7d %10.2f %8s %10s %8s %10s %10.1f %11.1f %10.2f %12.2f %15s\n", size, threads, core,
                two_places(ort_median).c_str(), two_places(torch).c_str(), ratio(ort_median).c_str(),
                ratio(torch).c_str(), rates.core_gflops, rates.sgemm_gflops, floor, core / floor,
                torch > 0 ? std::to_string(torch_threads).c_str() : "");
    std::fflush(stdout);
    return core;
}

// The contended rows of one model: with one core kept busy, rounds alternating
// the 2-thread pass (teams sized to the free cores), the same on a fixed team
// and the 1-thread pass, beside the quiet 1-thread pass.
void contended_row(const char* size, const vit::Model& model, double quiet_one_ms, const Options& o) {
    const vit::Tensor input = bench_input(224);
    const vit_bench::BusyCore busy;
    std::this_thread::sleep_for(std::chrono::duration<double>(2 * vit::kTeamWindowSeconds));  // a window sees it
    std::vector<double> sized_ms, fixed_ms, one_ms;
    int team = 0;
    for (int r = 0; r < o.rounds; ++r) {
        vit::set_threads(2);
        sized_ms.push_back(vit::time_forward(model, input, o.runs).median_ms);
        team = vit::last_block_team();
        vit::set_team_sizing(false);
        fixed_ms.push_back(vit::time_forward(model, input, o.runs).median_ms);
        vit::set_team_sizing(true);
        vit::set_threads(1);
        one_ms.push_back(vit::time_forward(model, input, o.runs).median_ms);
    }
    const double sized = vit::timing_stats(sized_ms).median_ms;
    std::printf("ViT-%-4s %13.2f %13.2f %17.2f %5d %17.2f %13.2f\n", size, quiet_one_ms, sized, sized / quiet_one_ms,
                team, vit::timing_stats(fixed_ms).median_ms, vit::timing_stats(one_ms).median_ms);
    std::fflush(stdout);
}

Options parse_options(int argc, char** argv) {
    Options o;
    int threads = 0;
    vit_bench::BenchArgs args("vitviz-bench",
                              "The full-trace forward of ViT-Ti/16 and ViT-B/16 beside ONNX Runtime's "
                              "and PyTorch's, same run, interleaved.");
    args.count("--runs", &o.runs, 1, vit::kMaxTimedRuns, "timed passes per round (default 10)");
    args.count("--rounds", &o.rounds, 1, 100, "rounds, interleaved with the anchors' (default 3)");
    args.count("--threads", &threads, 1, 256, "only this thread count, no contended rows (default: 1 and 2)");
    args.text("--python", &o.python, "the Python with torch (default /usr/bin/python3)");
    args.text("--ort", &o.ort_dir, "a folder holding node_modules/onnxruntime-node (default build/ort)");
    args.parse(argc, argv);
    if (threads > 0) o.thread_counts = {threads};
    return o;
}

void print_notes(const Options& o) {
    std::printf(
        "core/ORT, core/torch = vitviz full-trace forward / ONNX Runtime's / PyTorch's forward (lower is better),\n"
        "  median of %d rounds x %d runs; ONNX Runtime on the same weights and threads (intraOpNumThreads);\n"
        "floor = every matrix product of the pass (linear layers, attention per head, head) at its best time\n"
        "  this run from the core's product or Eigen's (the BLAS's sgemm in a BLAS build), whichever is faster,\n"
        "  each packing its weights on every call as an sgemm does (the pass uses them packed once);\n"
        "core_GF/s, sgemm_GF/s = each one's rate over all those products (at their best times);\n"
        "pytorch_threads = torch.get_num_threads() (pinned below the machine's cores, else PyTorch's default)\n",
        o.rounds, o.runs);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--peak-memory") return peak_memory_case(argv[2], std::atoi(argv[3]));
    const Options o = parse_options(argc, argv);
    const OrtSide ort = find_ort(o.ort_dir);
    std::printf("%-8s %-7s %10s %8s %10s %8s %10s %10s %11s %10s %12s %15s\n", "model", "threads", "vitviz_ms",
                "ort_ms", "pytorch_ms", "core/ORT", "core/torch", "core_GF/s", "sgemm_GF/s", "floor_ms", "vitviz/floor",
                "pytorch_threads");
    const std::pair<const char*, vit::ModelConfig> models[] = {{"tiny", vit::vit_tiny_config()},
                                                               {"base", vit::vit_base_config()}};
    std::vector<std::pair<const char*, double>> rollout_ms;
    std::vector<double> quiet_one_ms;
    for (const auto& [size, config] : models) {
        const vit::Model model = vit::make_random_model(config, 42);
        const std::vector<PassProduct> products = pass_products(config, 197);
        double products_gflop = 0;
        for (const PassProduct& p : products) products_gflop += product_gflop(p);
        if (std::abs(products_gflop - vit::forward_flops(config, 197) / 1e9) > 1e-6) {
            std::fprintf(stderr, "vitviz-bench: the pass's products (%.4f GFLOP) disagree with forward_flops\n",
                         products_gflop);
            return 1;
        }
        const std::string onnx = ort.node_modules.empty() ? "" : onnx_model(ort, o.python, size);
        for (int threads : o.thread_counts) {
            const double core = quiet_row(size, model, products, onnx, ort, threads, o);
            if (threads == 1) quiet_one_ms.push_back(core);
        }
        vit::set_threads(1);
        rollout_ms.emplace_back(size, time_rollout(model, bench_input(224), o.runs));
    }
    print_notes(o);
    for (const auto& [size, ms] : rollout_ms)
        std::printf("ViT-%s rollout, computed when a view or a dump asks (not in vitviz_ms), 1 thread: %.2f ms\n", size,
                    ms);
    if (!quiet_one_ms.empty() && o.thread_counts.size() > 1) {
        std::printf(
            "\nOne core kept busy by another process (a spinning child), median of %d rounds x %d runs:\n"
            "%-8s %13s %13s %17s %5s %17s %13s\n",
            o.rounds, o.runs, "model", "quiet_1t_ms", "busy_2t_ms", "busy_2t/quiet_1t", "team", "busy_2t_fixed_ms",
            "busy_1t_ms");
        for (size_t m = 0; m < quiet_one_ms.size(); ++m)
            contended_row(models[m].first, vit::make_random_model(models[m].second, 42), quiet_one_ms[m], o);
        std::printf(
            "busy_2t = 2 threads asked, the team sized to the free cores and chosen by block times\n"
            "  (tensor/threads.h; team = the last block's);\n"
            "busy_2t_fixed = the same on a fixed team of 2 (the sizing off); goal busy_2t/quiet_1t <= 1.1\n");
    }
    vit_bench::print_occlusion_row(bench_input(224), o.runs);
    vit_bench::print_app_row(o.runs);
    std::printf("\n");
    std::printf("%-8s %4s %7s %10s %10s %12s %10s %16s\n", "model", "size", "tokens", "trace_MB", "packed_MB",
                "rss_before_MB", "peak_MB", "(peak-before)/trace");
    std::fflush(stdout);
    print_peak_memory("base", 224);
    print_peak_memory("base", 448);
    std::printf(
        "rss_before = resident after building the model and packing its weights, before the forward pass\n"
        "  (fresh process per case); packed_MB = what the packing added\n");
    return 0;
}
