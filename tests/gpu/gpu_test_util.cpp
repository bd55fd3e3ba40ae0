// GPU test helpers: the shared context and the stage comparison.
#include "gpu_test_util.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "error.h"
#include "gl_context.h"

namespace vit::gpu_test {

void require_gl() {
    static std::unique_ptr<HiddenGlContext> context;
    static std::string failure;
    if (!context && failure.empty()) {
        try {
            context = std::make_unique<HiddenGlContext>();
            std::printf("GPU tests on: %s\n", gpu::gl_description().c_str());
        } catch (const Error& e) {
            failure = e.what();
        }
    }
    if (!context) FAIL(failure + " (run the GPU tests under xvfb-run with Mesa's llvmpipe)");
}

StageDiff compare(const Tensor& cpu, const Tensor& gpu, double abs_tol, double rel_tol) {
    StageDiff d;
    for (size_t i = 0; i < cpu.data.size(); ++i) {
        const double c = cpu.data[i], g = gpu.data[i];
        const double diff = std::isnan(g) || std::isnan(c) ? INFINITY : std::fabs(g - c);
        const double ratio = diff / (abs_tol + rel_tol * std::fabs(c));
        d.max_abs = std::max(d.max_abs, diff);
        if (ratio > d.worst_ratio) {
            d.worst_ratio = ratio;
            d.worst_index = i;
            d.cpu_value = cpu.data[i];
            d.gpu_value = gpu.data[i];
        }
    }
    return d;
}

std::string index_string(const std::vector<int64_t>& shape, size_t flat) {
    std::vector<int64_t> idx(shape.size());
    for (size_t k = shape.size(); k-- > 0;) {
        idx[k] = static_cast<int64_t>(flat) % shape[k];
        flat /= static_cast<size_t>(shape[k]);
    }
    return shape_string(idx);
}

void check_same_trace(const Trace& cpu, const Trace& gpu, const std::string& label, Rule rule) {
    REQUIRE(gpu.size() == cpu.size());
    std::printf("%s: per-stage max |GPU − CPU|, and the share of the tolerance used: strict %g + %g·|cpu|, "
                "scaled %g·max(1, max|cpu|) + %g·|cpu|%s\n",
                label.c_str(), kAbs, kRel, kAbs, kRel, rule == Rule::Strict ? " (checked: strict)" : " (checked: scaled)");
    double worst_strict = 0, worst_scaled = 0;
    std::string worst_stage;
    for (size_t s = 0; s < cpu.size(); ++s) {
        const Stage& c = cpu.stages()[s];
        const Stage& g = gpu.stages()[s];
        INFO(label << ", stage " << s << ": " << c.id);
        REQUIRE(g.id == c.id);
        REQUIRE(g.block == c.block);
        REQUIRE(shape_string(g.tensor.shape) == shape_string(c.tensor.shape));
        const double scale = std::max(1.0, double(c.tensor.mat().cwiseAbs().maxCoeff()));
        const StageDiff strict = compare(c.tensor, g.tensor);
        const StageDiff scaled = compare(c.tensor, g.tensor, kAbs * scale, kRel);
        std::printf("  %-18s %-16s max diff %9.3g  max|cpu| %8.3g  strict %5.2f  scaled %5.2f\n", c.id.c_str(),
                    shape_string(c.tensor.shape).c_str(), strict.max_abs, scale, strict.worst_ratio,
                    scaled.worst_ratio);
        if (strict.worst_ratio > worst_strict) worst_strict = strict.worst_ratio, worst_stage = c.id;
        worst_scaled = std::max(worst_scaled, scaled.worst_ratio);
        const StageDiff& d = rule == Rule::Strict ? strict : scaled;
        INFO("largest difference " << d.max_abs << "; worst element " << index_string(c.tensor.shape, d.worst_index)
                                   << ": cpu " << d.cpu_value << ", gpu " << d.gpu_value);
        CHECK(d.worst_ratio <= 1.0);
    }
    std::printf("  worst: strict %.2f of tolerance (%s), scaled %.2f\n", worst_strict, worst_stage.c_str(),
                worst_scaled);
    std::fflush(stdout);
}

ModelConfig small_config(int channels, int patch, int pos_grid, int dim, int heads, int depth, int mlp, int classes) {
    ModelConfig c;
    c.name = "random test ViT";
    c.channels = channels;
    c.patch_size = patch;
    c.pos_grid = pos_grid;
    c.embed_dim = dim;
    c.num_heads = heads;
    c.depth = depth;
    c.mlp_dim = mlp;
    c.num_classes = classes;
    c.ln_eps = 1e-6f;
    return c;
}

}  // namespace vit::gpu_test
