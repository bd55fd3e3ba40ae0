// vitviz-cli's intervention flags (parsed by core/pass/intervention_flags.h) and
// the occlusion map and logit lens output.
#include "interventions_args.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "base/error.h"
#include "base/file_io.h"
#include "base/finite.h"
#include "explain/logit_lens.h"
#include "formats/npy.h"
#include "explain/occlusion.h"

namespace vit::cli {

namespace {

void write_if(const std::string& dump_dir, const char* name, const Tensor& t) {
    if (dump_dir.empty()) return;
    make_folder(dump_dir);
    write_npy((std::filesystem::path(dump_dir) / name).string(), t);
}

void print_occlusion(const Model& model, const OcclusionMap& map, int grid) {
    std::printf("occlusion map: p(%s) = %.4f unmasked; with each patch masked:\n",
                model.config.labels[map.top_class].c_str(), map.top_probability);
    for (int r = 0; r < grid; ++r) {
        for (int c = 0; c < grid; ++c) std::printf(" %.4f", map.probabilities[r * grid + c]);
        std::printf("\n");
    }
}

void print_lens(const Model& model, const Mat& lens) {
    Eigen::Index final_top = 0;
    lens.row(lens.rows() - 1).maxCoeff(&final_top);
    std::printf("logit lens: block, p(%s), the block's top class\n", model.config.labels[final_top].c_str());
    for (Eigen::Index b = 0; b < lens.rows(); ++b) {
        Eigen::Index top = 0;
        const float p = lens.row(b).maxCoeff(&top);
        std::printf(" %3d %.4f  %.4f %s\n", static_cast<int>(b), lens(b, final_top), p,
                    model.config.labels[top].c_str());
    }
}

}  // namespace

bool InterventionArgs::take(int argc, char** argv, int& i) {
    const std::string flag = argv[i];
    if (flag == "--occlusion-map") return occlusion = true;
    if (flag == "--logit-lens") return lens = true;
    const std::vector<std::string> rest(argv + i, argv + std::min(argc, i + 2));  // the flag and its value
    size_t at = 0;
    const bool taken = flags.take(rest, at);
    i += static_cast<int>(at);
    return taken;
}

Interventions InterventionArgs::resolve(const ModelConfig& config, const Tensor& input) const {
    return flags.resolve(config, static_cast<int>(input.shape[1] / config.patch_size));
}

void run_analyses(const InterventionArgs& args, const Model& model, const Tensor& input, const Interventions& iv,
                  const Trace& trace, const std::string& dump_dir, bool allow_nonfinite) {
    if ((args.occlusion || args.lens) && model.config.num_classes == 0)
        throw Error(std::string(args.occlusion ? "--occlusion-map" : "--logit-lens") + ": " + model.config.name +
                    " has no classifier head");
    if (args.occlusion) {
        const int grid = static_cast<int>(input.shape[1] / model.config.patch_size);
        const OcclusionMap map = occlusion_map(model, input, iv);
        Tensor t({static_cast<int64_t>(map.probabilities.size())});
        t.data.assign(map.probabilities.begin(), map.probabilities.end());
        write_if(dump_dir, "occlusion.npy", t);
        check_answer("occlusion map probabilities", t.data.data(), t.data.size(), allow_nonfinite);
        check_answer("unmasked probabilities", &map.top_probability, 1, allow_nonfinite);
        print_occlusion(model, map, grid);
    }
    if (args.lens) {
        const Mat lens = logit_lens(model, trace);
        Tensor t({lens.rows(), lens.cols()});
        t.mat() = lens;
        write_if(dump_dir, "lens.npy", t);
        check_answer("logit lens probabilities", t.data.data(), t.data.size(), allow_nonfinite);
        print_lens(model, lens);
    }
}

void check_answer(const std::string& what, const float* values, size_t count, bool allow_nonfinite) {
    const std::string problem = nonfinite_answer(what, values, count);
    if (problem.empty()) return;
    if (!allow_nonfinite) throw Error(problem + " (--allow-nonfinite prints it anyway)");
    std::cerr << "vitviz-cli: warning: " << problem << "\n";
}

}  // namespace vit::cli
