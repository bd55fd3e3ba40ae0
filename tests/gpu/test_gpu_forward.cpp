// Claims: the GPU backend's forward pass gives every stage of the CPU core's —
// same ids, blocks, shapes, order, values within 1e-5 + 1e-4·|cpu| — on shapes
// that are not multiples of the shaders' workgroup tiles (64×64 outputs, 256
// threads), on the built-in toy model and on the PyTorch fixtures; a model
// with a stage the shaders lack is refused by name, before any GL call.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "formats/checkpoint.h"
#include "base/error.h"
#include "pass/forward.h"
#include "gpu_backend.h"
#include "gpu_model.h"
#include "gpu_test_util.h"
#include "formats/npy.h"
#include "model/random_model.h"
#include "loading/toy_model.h"

using namespace vit;
using vit::gpu_test::check_same_trace;
using vit::gpu_test::random_input;
using vit::gpu_test::require_gl;
using vit::gpu_test::small_config;

namespace {

void check_model_on(const Model& model, const Tensor& input, const std::string& label) {
    require_gl();
    GpuBackend gpu;
    gpu.set_model(model);
    const Trace cpu = forward(model, input);
    const Trace got = gpu.forward(input);
    check_same_trace(cpu, got, label);
    CHECK(gpu.last_gpu_ms() >= 0.0);  // llvmpipe's timer can miss compute work entirely
}

}  // namespace

TEST_CASE("the GPU backend refuses a model with a stage it does not compute, naming the stage", "[gpu]") {
    using Catch::Matchers::Contains;
    ModelConfig plain;
    plain.name = "vit_test";
    CHECK_NOTHROW(gpu::require_gpu_stages(plain));
    ModelConfig dinov2 = plain, clip = plain, quick = plain;
    dinov2.layer_scale = true;
    clip.norm_pre = true;
    quick.activation = Activation::QuickGelu;
    CHECK_THROWS_WITH(gpu::require_gpu_stages(dinov2), Contains("vit_test has the stage 'ls1'") && Contains("CPU"));
    CHECK_THROWS_WITH(gpu::require_gpu_stages(clip), Contains("the stage 'norm_pre'"));
    CHECK_THROWS_WITH(gpu::require_gpu_stages(quick), Contains("the stage 'quick_gelu'"));
}

TEST_CASE("GPU forward equals the CPU core: 65 tokens, 4 heads of 16, 3 blocks", "[gpu]") {
    // 64×64 input, 8×8 patches: T = 65; D 64, M 200 (not a multiple of 64), 10 classes.
    const Model model = make_random_model(small_config(3, 8, 8, 64, 4, 3, 200, 10), 1);
    check_model_on(model, random_input(3, 64, 2), "65 tokens, Dh 16");
}

TEST_CASE("GPU forward equals the CPU core: 197 tokens, 2 heads of 64, 2 blocks", "[gpu]") {
    // 56×56 input, 4×4 patches: T = 197 as ViT-B/16 at 224; D 128, M 320, 37 classes.
    const Model model = make_random_model(small_config(3, 4, 14, 128, 2, 2, 320, 37), 3);
    check_model_on(model, random_input(3, 56, 4), "197 tokens, Dh 64");
}

TEST_CASE("GPU forward equals the CPU core: 12 heads of 64 (ViT-B attention width), 197 tokens", "[gpu]") {
    const Model model = make_random_model(small_config(3, 16, 14, 768, 12, 1, 300, 5), 5);
    check_model_on(model, random_input(3, 224, 6), "197 tokens, 12 heads of 64");
}

TEST_CASE("GPU forward equals the CPU core with interpolated positions, one channel, no head", "[gpu]") {
    // Trained on a 5×5 grid, run on 7×7 (T = 50): the core's bicubic resampling is
    // uploaded. One channel, 6×6 patches (patch dim 36), 3 heads of 16, headless.
    const Model model = make_random_model(small_config(1, 6, 5, 48, 3, 2, 96, 0), 7);
    check_model_on(model, random_input(1, 42, 8), "interpolated pos, headless");
}

TEST_CASE("GPU forward equals the CPU core on the built-in toy-4x4 model", "[gpu]") {
    const Model model = make_toy_model();
    const Image img = toy_image();
    Tensor input({img.channels, img.height, img.width});
    input.data.assign(img.data.begin(), img.data.end());
    check_model_on(model, input, "toy-4x4");
}

TEST_CASE("GPU forward equals the CPU core on every PyTorch fixture", "[gpu][fixtures]") {
    // tools/gpu-check.sh runs this binary away from the tree it was built in: it says where the fixtures are.
    const char* moved = std::getenv("VITVIZ_FIXTURES");
    const std::filesystem::path root = moved ? moved : VITVIZ_FIXTURES;
    const char* names[] = {"timm_f32", "hf_bf16", "timm_f16_noqkvbias", "timm_posinterp", "headless"};
    for (const char* name : names) {
        const std::filesystem::path dir = root / name;
        INFO("fixture " << dir.string());
        REQUIRE(std::filesystem::exists(dir / "expected" / "input.npy"));
        SECTION(name) {
            const Model model = load_checkpoint(dir.string());
            const Tensor input = read_npy((dir / "expected" / "input.npy").string());
            check_model_on(model, input, std::string("fixture ") + name);
        }
    }
}

TEST_CASE("GPU read-back: predictions only, chosen stages, and any stage later", "[gpu]") {
    require_gl();
    const Model model = make_random_model(small_config(3, 8, 4, 32, 2, 2, 64, 6), 9);
    const Tensor input = random_input(3, 32, 10);
    const Trace cpu = forward(model, input);
    GpuBackend gpu;
    gpu.set_model(model);

    const Trace few = gpu.forward(input, GpuBackend::Readback::Predictions);
    using K = StageKind;
    const std::vector<StageRef> want = {{K::Attn, 0}, {K::Attn, 1}, {K::Logits}, {K::Probs}, {K::Rollout}};
    REQUIRE(GpuBackend::prediction_stages(2, true) == want);
    REQUIRE(few.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        CHECK(few.stages()[i].id == stage_id(want[i]));
        CHECK(compare(few.stages()[i].tensor, cpu.at(want[i]), kGpuShaderTolerance).within());
    }
    // Stages not read back are still on the GPU until the next pass.
    const Tensor k = gpu.read_stage({K::K, 1});
    CHECK(compare(k, cpu.at("block1.k"), kGpuShaderTolerance).within());

    // Catalogue order whatever the order asked for.
    const Trace two = gpu.forward(input, std::vector<StageRef>{{K::Probs}, {K::Q, 0}});
    REQUIRE(two.size() == 2);
    CHECK(two.stages()[0].id == "block0.q");
    CHECK(two.stages()[1].id == "probs");
    CHECK_THROWS_WITH(gpu.forward(input, std::vector<StageRef>{{K::Q, 9}}), Catch::Contains("no stage 'block9.q'"));
    CHECK_THROWS_WITH(gpu.read_stage({K::Ls1, 0}), Catch::Contains("no stage 'block0.ls1'"));
}

TEST_CASE("GPU buffers are reused across passes and follow a change of input size", "[gpu]") {
    require_gl();
    const Model model = make_random_model(small_config(3, 8, 4, 32, 2, 2, 64, 6), 11);
    GpuBackend gpu;
    gpu.set_model(model);
    for (int size : {32, 32, 48, 32}) {  // same size twice, then a new grid (interpolated), then back
        const Tensor input = random_input(3, size, static_cast<uint32_t>(size) + 1);
        check_same_trace(forward(model, input), gpu.forward(input), "input " + std::to_string(size));
    }
    // A new model replaces the old one.
    const Model other = make_random_model(small_config(3, 8, 4, 48, 3, 1, 96, 0), 12);
    gpu.set_model(other);
    const Tensor input = random_input(3, 32, 13);
    check_same_trace(forward(other, input), gpu.forward(input), "second model");
}

TEST_CASE("GPU backend refuses what the CPU core refuses, with the same message", "[gpu]") {
    require_gl();
    const Model model = make_random_model(small_config(3, 8, 4, 32, 2, 1, 64, 6), 14);
    GpuBackend gpu;
    CHECK_THROWS_WITH(gpu.forward(random_input(3, 32, 1)), Catch::Contains("no model"));
    gpu.set_model(model);
    for (const Tensor& bad : {random_input(1, 32, 1), random_input(3, 30, 1)}) {
        std::string cpu_message;
        try {
            forward(model, bad);
        } catch (const Error& e) {
            cpu_message = e.what();
        }
        REQUIRE(!cpu_message.empty());
        CHECK_THROWS_WITH(gpu.forward(bad), cpu_message);
    }
    CHECK_THROWS_WITH(gpu.read_stage({StageKind::Probs}), Catch::Contains("no forward pass"));

    Model broken = model;
    broken.blocks[0].fc1_w = Mat::Zero(10, 32);
    CHECK_THROWS_WITH(gpu.set_model(broken), Catch::Contains("blocks.0.fc1_w") && Catch::Contains("(64, 32)"));
}

TEST_CASE("the GPU pass produces every stage of the catalogue, with the table's shape, for several depths and heads") {
    require_gl();
    struct Case {
        int depth, classes;
    };
    for (const Case k : {Case{1, 5}, Case{3, 5}, Case{2, 0}, Case{4, 0}}) {
        const Model model = make_random_model(small_config(3, 4, 3, 16, 2, k.depth, 32, k.classes), 7);
        const Tensor input = random_input(3, 12, 3);
        GpuBackend gpu;
        gpu.set_model(model);
        const Trace got = gpu.forward(input);
        const std::vector<StageRef> stages = stage_list(k.depth, k.classes > 0);
        const ModelSizes sizes = model_sizes(model.config, 3);
        INFO(k.depth << " blocks, " << k.classes << " classes");
        REQUIRE(got.size() == stages.size());
        for (size_t i = 0; i < stages.size(); ++i) {
            INFO("stage " << stage_id(stages[i]));
            CHECK(got.stages()[i].ref() == stages[i]);
            CHECK(got.stages()[i].id == stage_id(stages[i]));
            CHECK(got.stages()[i].tensor.shape == stage_shape(stages[i].kind, sizes));
        }
    }
}
