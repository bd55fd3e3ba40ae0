// GPU test helpers: the shared context and the stage comparison.
#include "gpu_test_util.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>

#include "base/error.h"
#include "gl_context.h"

namespace vit::gpu_test {

Tensor random_input(int channels, int size, uint32_t seed) {
    Tensor t({channels, size, size});
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    for (float& x : t.data) x = dist(rng);
    return t;
}

void require_gl() {
    static std::unique_ptr<ComputeGlContext> context;
    static std::string failure;
    if (!context && failure.empty()) {
        try {
            context = std::make_unique<ComputeGlContext>();
            std::printf("GPU tests on: %s\n", gpu::gl_description().c_str());
        } catch (const Error& e) {
            failure = e.what();
        }
    }
    if (!context) FAIL(failure + " (run the GPU tests under xvfb-run with Mesa's llvmpipe)");
}

void check_same_trace(const Trace& cpu, const Trace& gpu, const std::string& label, float temperature) {
    REQUIRE(gpu.size() == cpu.size());
    std::printf(
        "%s: per-stage max |GPU − CPU|, and the share used of the tolerance %s (checked) and of the "
        "strict %g + %g·|cpu|\n",
        label.c_str(), gpu_tolerance_rule().c_str(), kGpuShaderTolerance.abs, kGpuShaderTolerance.rel);
    double worst_strict = 0, worst_used = 0;
    std::string worst_stage;
    for (size_t s = 0; s < cpu.size(); ++s) {
        const Stage& c = cpu.stages()[s];
        const Stage& g = gpu.stages()[s];
        INFO(label << ", stage " << s << ": " << c.id);
        REQUIRE(g.id == c.id);
        REQUIRE(g.block == c.block);
        REQUIRE(shape_string(g.tensor.shape) == shape_string(c.tensor.shape));
        const Difference strict = compare(g.tensor, c.tensor, kGpuShaderTolerance);
        const Difference d = compare(g.tensor, c.tensor, gpu_tolerance(c.kind, c.tensor, temperature));
        std::printf("  %-18s %-16s max diff %9.3g  max|cpu| %8.3g  strict %5.2f  used %5.2f\n", c.id.c_str(),
                    shape_string(c.tensor.shape).c_str(), d.max_abs, d.max_want, strict.tolerance_used,
                    d.tolerance_used);
        if (strict.tolerance_used > worst_strict) worst_strict = strict.tolerance_used, worst_stage = c.id;
        worst_used = std::max(worst_used, d.tolerance_used);
        const int64_t w = d.worst_flat;
        INFO("largest difference " << d.max_abs << "; worst element " << index_string(unravel(w, c.tensor.shape))
                                   << ": cpu " << c.tensor.data[size_t(w)] << ", gpu " << g.tensor.data[size_t(w)]);
        CHECK(d.within());
    }
    std::printf("  worst: strict %.2f of tolerance (%s), checked %.2f\n", worst_strict, worst_stage.c_str(),
                worst_used);
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
