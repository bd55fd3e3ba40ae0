// vitviz-cli: runs a ViT on one image and prints its top predictions; dumps
// every stage as .npy (--dump) and gradients (--grad, --relevance: grad_dump.h)
// or times the forward pass (--bench); --train trains one (train_command.h);
// interventions, the occlusion map and the logit lens: interventions_args.h.
//   vitviz-cli --model PATH|NAME|hf-hub:ORG/NAME[@REV] [--image PATH] [--image-size S]
//              (NAME: core/loading/builtin.h; hf-hub: core/hub/hub_fetch.h, its downloads' progress on stderr)
//              [--dump DIR] [--top K] [--threads T] [--bench N] [--backend cpu|gpu]
//              [--allow-nonfinite] [--grad CLASS] [--relevance CLASS] [interventions: interventions_args.h]
// Any user error prints one line on stderr and exits 1, and so do weights
// holding NaN or Inf and a pass whose answer holds them, unless --allow-nonfinite
// (then a warning). --threads is at most the cores the machine has.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

#include "loading/builtin.h"
#include "loading/load_model.h"
#include "base/error.h"
#include "base/file_io.h"
#include "base/parse.h"
#include "pass/forward.h"
#include "grad_dump.h"
#include "formats/image.h"
#include "interventions_args.h"
#include "formats/npy.h"
#include "tensor/threads.h"
#include "pass/timing.h"
#include "pass/trace_budget.h"
#include "train_command.h"
#ifdef VITVIZ_WITH_GPU
#include "gpu_run.h"
#endif

namespace {

struct Options {
    std::string model = vit::kToyModel;
    std::string image;
    std::string dump_dir;
    int image_size = 0;
    int top = 5;
    int threads = 0;
    int bench = 0;
    bool gpu = false;
    bool allow_nonfinite = false;
    vit::cli::GradRequest grads;  // dump_dir, gpu and bench copied in after parsing
    vit::cli::InterventionArgs interventions;
};

std::string usage() {
    return "usage: vitviz-cli --model PATH|hf-hub:ORG/NAME[@REV]|" + vit::builtin_model_names("|") +
           " [--image PATH] [--image-size S] [--dump DIR] [--top K]\n"
           "                  [--threads T] [--bench N] [--backend cpu|gpu] [--allow-nonfinite]\n"
           "                  [--grad CLASS|top] [--relevance CLASS|top]\n"
           "                  [--mask-patches LIST] [--drop-tokens LIST] [--ablate-heads B:H,...] [--no-pos]\n"
           "                  [--permute-patches LIST] [--temperature T] [--occlusion-map] [--logit-lens]\n"
           "  --model  a checkpoint folder or .safetensors file; hf-hub:ORG/NAME[@REVISION], a timm or Hugging Face\n"
           "           model on the Hub, from the Hugging Face cache or downloaded into it (HF_ENDPOINT, "
           "HF_HUB_OFFLINE,\n"
           "           HF_TOKEN as huggingface_hub reads them); or a built-in model:\n" +
           vit::builtin_model_lines("           ") +
           "  --allow-nonfinite  run weights that hold NaN or Inf, and print answers that hold them, with a warning\n"
           "                     instead of refusing them\n"
           "  --threads  at most the cores this machine has\n";
}

Options parse_options(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (flag == "--help" || flag == "-h") {
            std::cout << usage();
            std::exit(0);
        }
        if (flag == "--allow-nonfinite") {
            o.allow_nonfinite = true;
            continue;
        }
        if (o.interventions.take(argc, argv, i)) continue;
        if (i + 1 >= argc) throw vit::Error("unknown or incomplete option '" + flag + "'\n" + usage());
        const std::string value = argv[++i];
        if (flag == "--model") o.model = vit::parse_path(flag, value);
        else if (flag == "--image") o.image = vit::parse_path(flag, value);
        else if (flag == "--dump") o.dump_dir = vit::parse_path(flag, value);
        else if (flag == "--image-size") o.image_size = vit::parse_int(flag, value, 1);
        else if (flag == "--top") o.top = vit::parse_int(flag, value, 0);
        else if (flag == "--threads") o.threads = vit::parse_threads(flag, value);
        else if (flag == "--bench") o.bench = vit::parse_int(flag, value, 1, vit::kMaxTimedRuns);
        else if (flag == "--backend") o.gpu = vit::parse_backend_is_gpu(value);
        else if (flag == "--grad") o.grads.grad = value;
        else if (flag == "--relevance") o.grads.relevance = value;
        else throw vit::Error("unknown option '" + flag + "'\n" + usage());
    }
    o.grads.dump_dir = o.dump_dir, o.grads.gpu = o.gpu, o.grads.bench = o.bench > 0;
    return o;
}

void print_top(const vit::Model& model, const vit::Trace& trace, int top, bool allow_nonfinite) {
    const vit::Stage* probs = trace.find(vit::StageRef{vit::StageKind::Probs});
    if (!probs) {
        std::cerr << "vitviz-cli: " << model.config.name << " has no classifier head: no predictions\n";
        return;
    }
    const vit::FloatStorage& p = probs->tensor.data;
    vit::cli::check_answer("class probabilities", p.data(), p.size(), allow_nonfinite);
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    const int k = std::min<int>(top, static_cast<int>(p.size()));
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int a, int b) { return p[a] > p[b]; });
    for (int i = 0; i < k; ++i) std::printf("%.6f %s\n", p[order[i]], model.config.labels[order[i]].c_str());
}

// Every stage of the pass as DIR/<stage id>.npy; a Stream trace's block stages recomputed a block at a time.
void dump_trace(const vit::Model& model, const vit::Trace& trace, const vit::Interventions& iv,
                const std::string& dir) {
    vit::make_folder(dir);
    vit::for_each_stage(model, trace, iv, [&](const vit::Stage& s) {
        vit::write_npy((std::filesystem::path(dir) / (s.id + ".npy")).string(), s.tensor);
    });
}

void bench(const vit::Model& model, const vit::Tensor& input, int runs) {
    const vit::ForwardTiming t = vit::time_forward(model, input, runs);
    const double gflops = vit::forward_flops(model.config, t.tokens) / (t.median_ms * 1e6);
    std::printf(
        "forward_ms median=%.3f min=%.3f runs=%d gflops=%.1f rollout_ms=%.3f (once, apart: a view or a dump "
        "adds it)\n",
        t.median_ms, t.min_ms, runs, gflops, t.rollout_ms);
}

int run_gpu(const Options& o, const vit::Model& model, const vit::Tensor& input, const vit::Interventions& iv) {
#ifdef VITVIZ_WITH_GPU
    if (o.bench > 0) {
        vit::cli::gpu_bench(model, input, o.bench);
        return 0;
    }
    const vit::Trace trace = vit::cli::gpu_forward(model, input, iv);
    if (!o.dump_dir.empty()) dump_trace(model, trace, iv, o.dump_dir);
    vit::cli::run_analyses(o.interventions, model, input, iv, trace, o.dump_dir, o.allow_nonfinite);
    print_top(model, trace, o.top, o.allow_nonfinite);
    return 0;
#else
    (void)model, (void)input, (void)o, (void)iv;
    throw vit::Error("this vitviz-cli was built without the GPU backend (VITVIZ_BUILD_APP=OFF)");
#endif
}

// A download's progress on stderr: on a terminal one line per file, rewritten at most four
// times a second; elsewhere (a log) a line as each file completes.
vit::HubProgress download_progress() {
    const bool terminal = isatty(fileno(stderr));
    return [terminal, shown_at = -1.0, finished = std::string()](const vit::HubTransfer& t) mutable {
        const bool done = t.done >= t.total;
        if (done ? finished == t.repo + t.file : !terminal || t.seconds - shown_at < 0.25) return true;
        if (done) finished = t.repo + t.file;
        shown_at = t.seconds;
        std::fprintf(stderr, "%svitviz-cli: %s: %s %s%s", terminal ? "\r\033[K" : "", t.repo.c_str(), t.file.c_str(),
                     vit::transfer_text(t).c_str(), done || !terminal ? "\n" : "");
        return true;
    };
}

int run(const Options& o) {
    vit::cli::check_grad_request(o.grads);
    vit::set_threads(o.threads);
    const vit::Model model = vit::load_model(o.model, {}, download_progress());
    if (!model.nonfinite_weights.empty() && !o.allow_nonfinite)
        throw vit::Error(model.nonfinite_weights + " (--allow-nonfinite runs it anyway)");
    if (!model.nonfinite_weights.empty()) std::cerr << "vitviz-cli: warning: " << model.nonfinite_weights << "\n";
    // The gradients walk every stage back (backward.h), and --bench and the GPU time the full
    // trace: those keep every stage; the others keep the residual stream and recompute a
    // block's stages when a dump asks (TraceKeep in trace.h).
    const bool every = o.grads.any() || o.gpu || o.bench > 0;
    const vit::TraceKeep keep = every ? vit::TraceKeep::Every : vit::TraceKeep::Stream;
    vit::check_input_fits(model.config, o.image_size, vit::trace_budget_bytes(), 1, keep);
    const vit::Image image = vit::model_image(o.model, o.image, model.config.channels);
    const vit::Tensor input = vit::preprocess(image, model.config.preprocess, o.image_size, o.image);
    const vit::Interventions iv = o.interventions.resolve(model.config, input);
    if (o.gpu) return run_gpu(o, model, input, iv);
    if (o.bench > 0) {
        bench(model, input, o.bench);
        return 0;
    }
    if (!iv.empty() && o.grads.any())
        throw vit::Error("--grad and --relevance are for the unmodified pass, without interventions");
    const vit::Trace trace = vit::forward(model, input, iv, keep);
    if (!o.dump_dir.empty()) dump_trace(model, trace, iv, o.dump_dir);
    if (o.grads.any()) vit::cli::dump_gradients(o.grads, model, trace);
    vit::cli::run_analyses(o.interventions, model, input, iv, trace, o.dump_dir, o.allow_nonfinite);
    print_top(model, trace, o.top, o.allow_nonfinite);
    return 0;
}

// Every failure as one line on stderr; 1 for them all.
int fail(const std::string& what) {
    std::cerr << "vitviz-cli: " << what << "\n";
    return 1;
}

// The printed results reached standard output (a full disk or closed pipe makes them lost).
int check_stdout(int code) {
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return code;
    return fail(std::string("cannot write the output: ") + std::strerror(errno));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (vit::cli::wants_training(argc, argv)) return check_stdout(vit::cli::run_training(argc, argv));
        return check_stdout(run(parse_options(argc, argv)));
    } catch (...) {
        return fail(vit::failure_message());
    }
}
