// Claims: the GPU backend applies every intervention (core/pass/interventions.h) as
// the CPU core does — each alone and all together, every stage within the
// per-stage tolerance (core/explain/compare.h gpu_tolerance, 1/τ wider at a sharpening
// temperature τ < 1), kept tokens named alike —
// and refuses a bad one with the core's message.
#include <catch2/catch.hpp>

#include "base/error.h"
#include "pass/forward.h"
#include "gpu_backend.h"
#include "gpu_test_util.h"
#include "model/random_model.h"

using namespace vit;
using vit::gpu_test::check_same_trace;
using vit::gpu_test::random_input;
using vit::gpu_test::require_gl;
using vit::gpu_test::small_config;

namespace {

std::vector<std::pair<std::string, Interventions>> cases(int patches) {
    std::vector<std::pair<std::string, Interventions>> all(7);
    all[0].first = "mask";
    all[0].second.mask_patches = {0, 3, 7, patches - 1};
    all[1].first = "drop";
    all[1].second.drop_tokens = {1, 2, 5, patches - 2};
    all[2].first = "ablate";
    all[2].second.ablate_heads = {{0, 1}, {1, 0}, {1, 2}};
    all[3].first = "no positions";
    all[3].second.no_positions = true;
    all[4].first = "permute";
    for (int n = 0; n < patches; ++n) all[4].second.permute_patches.push_back((n * 7 + 3) % patches);
    all[5].first = "temperature";
    all[5].second.temperature = 0.4f;
    all[6].first = "all together";
    all[6].second = all[4].second;
    all[6].second.mask_patches = {2, 4};
    all[6].second.drop_tokens = {0, 6, 9};
    all[6].second.ablate_heads = {{1, 1}};
    all[6].second.no_positions = true;
    all[6].second.temperature = 3.0f;
    return all;
}

}  // namespace

TEST_CASE("GPU interventions equal the CPU core's, each alone and all together", "[gpu][interventions]") {
    require_gl();
    // 48×48 input, 4×4 patches: 144 patches (T = 145, beyond one 64-wide tile); 3 heads, 2 blocks.
    const Model model = make_random_model(small_config(3, 4, 12, 48, 3, 2, 96, 7), 21);
    const Tensor input = random_input(3, 48, 22);
    GpuBackend gpu;
    gpu.set_model(model);
    for (const auto& [name, iv] : cases(144)) {
        SECTION(name) {
            const Trace cpu = forward(model, input, iv);
            const Trace got = gpu.forward(input, GpuBackend::Readback::All, iv);
            check_same_trace(cpu, got, "intervention: " + name, iv.temperature);
            CHECK(got.token_patches() == cpu.token_patches());
        }
    }
    // Back to the plain pass on the same buffers.
    check_same_trace(forward(model, input), gpu.forward(input), "plain after interventions");
}

TEST_CASE("GPU backend refuses a bad intervention with the core's message", "[gpu][interventions]") {
    require_gl();
    const Model model = make_random_model(small_config(3, 8, 4, 32, 2, 1, 64, 6), 23);
    const Tensor input = random_input(3, 32, 24);
    GpuBackend gpu;
    gpu.set_model(model);
    Interventions bad;
    bad.ablate_heads = {{0, 2}};
    CHECK_THROWS_WITH(gpu.forward(input, GpuBackend::Readback::All, bad),
                      Catch::Contains("ablate heads: head 0:2 does not exist"));
    bad = {};
    bad.drop_tokens = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    CHECK_THROWS_WITH(gpu.forward(input, GpuBackend::Readback::All, bad),
                      Catch::Contains("drop tokens: dropping all 16"));
}
