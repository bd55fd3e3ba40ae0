// Every stage of the CPU forward pass equals PyTorch's, on the committed
// fixtures of tests/make_fixtures.py, loaded through the real loaders
// (safetensors F32/F16/BF16, timm and Hugging Face naming, both config forms,
// image decoding and preprocessing). Prints the largest difference per fixture.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "checkpoint.h"
#include "forward.h"
#include "image.h"
#include "npy.h"

namespace {

namespace fs = std::filesystem;

struct StageError {
    double relative = 0;  // max|cpu − torch| / max|torch|
    double absolute = 0;
    size_t where = 0;
};

StageError compare(const vit::Tensor& got, const vit::Tensor& want) {
    StageError e;
    double scale = 0;
    for (size_t i = 0; i < want.data.size(); ++i) {
        scale = std::max(scale, double(std::abs(want.data[i])));
        const double diff = std::abs(double(got.data[i]) - want.data[i]);
        if (diff > e.absolute) e = {0, diff, i};
    }
    e.relative = scale > 0 ? e.absolute / scale : e.absolute;
    return e;
}

void check_fixture(const std::string& name) {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / name;
    std::ifstream meta_file(dir / "expected" / "meta.json");
    REQUIRE(meta_file);
    const nlohmann::json meta = nlohmann::json::parse(meta_file);

    const vit::Model model = vit::load_checkpoint(dir.string());
    const vit::Image image = vit::load_image((dir / "image.png").string(), model.config.channels);
    const vit::Tensor input = vit::preprocess(image, model.config.preprocess, meta.at("image_size").get<int>());
    const vit::Trace trace = vit::forward(model, input);

    size_t expected_files = 0;
    for (const auto& entry : fs::directory_iterator(dir / "expected"))
        expected_files += entry.path().extension() == ".npy";
    CHECK(trace.size() == expected_files);

    std::string worst_id;
    StageError worst;
    for (const vit::Stage& stage : trace.stages()) {
        const vit::Tensor want = vit::read_npy((dir / "expected" / (stage.id + ".npy")).string());
        INFO(name << " stage " << stage.id);
        REQUIRE(stage.tensor.shape == want.shape);
        const StageError e = compare(stage.tensor, want);
        INFO("largest difference " << e.absolute << " (relative " << e.relative << ") at flat index " << e.where
                                   << ": got " << stage.tensor.data[e.where] << ", PyTorch " << want.data[e.where]);
        CHECK(e.relative <= 1e-4);
        if (e.relative >= worst.relative) worst = e, worst_id = stage.id;
    }
    std::cout << "fixture " << name << ": " << trace.size() << " stages match PyTorch; largest relative difference "
              << worst.relative << " (absolute " << worst.absolute << ") in " << worst_id << "\n";
}

}  // namespace

TEST_CASE("every stage equals PyTorch: timm naming, F32, bicubic resize and crop", "[fixtures]") { check_fixture("timm_f32"); }

TEST_CASE("every stage equals PyTorch: Hugging Face naming, BF16, straight bilinear resize", "[fixtures]") {
    check_fixture("hf_bf16");
}

TEST_CASE("every stage equals PyTorch: F16 weights without a qkv bias, 65 tokens", "[fixtures]") {
    check_fixture("timm_f16_noqkvbias");
}

TEST_CASE("every stage equals PyTorch: positional embedding interpolated to a larger grid", "[fixtures]") {
    check_fixture("timm_posinterp");
}

TEST_CASE("every stage equals PyTorch: a headless model has no logits or probs", "[fixtures]") {
    check_fixture("headless");
}
