// The loaders open checkpoints laid out exactly like the real ViTs of the
// README (timm vit_tiny/vit_base/DeiT-S/DINO ViT-S hub files and Hugging
// Face google/vit-base-patch16-224: real key names, config files as
// published, random weights), and the forward pass matches PyTorch on them.
// make_real_layouts.py writes them into VITVIZ_REAL_LAYOUTS first (ctest fixture).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "formats/checkpoint.h"
#include "explain/compare.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "formats/npy.h"

namespace {

namespace fs = std::filesystem;

const fs::path kDir = VITVIZ_REAL_LAYOUTS;

// Loads `name`, runs it on chelsea.png and compares every stage PyTorch saved.
vit::Model check_against_pytorch(const std::string& name) {
    const vit::Model model = vit::load_checkpoint((kDir / name).string());
    const vit::Image image = vit::load_image((kDir / "chelsea.png").string());
    const vit::Trace trace = vit::forward(model, vit::preprocess(image, model.config.preprocess));
    size_t compared = 0;
    double worst = 0;
    for (const auto& entry : fs::directory_iterator(kDir / name / "expected")) {
        const std::string id = entry.path().stem().string();
        const vit::Tensor want = vit::read_npy(entry.path().string());
        const vit::Tensor& got = trace.at(id);
        INFO(name << " stage " << id);
        REQUIRE(got.shape == want.shape);
        const vit::Difference d = vit::compare(got, want);
        INFO("largest difference " << d.max_abs << " relative " << d.relative() << " at "
                                   << vit::index_string(d.where));
        CHECK(d.relative() <= 1e-4);
        worst = std::max(worst, d.relative());
        ++compared;
    }
    CHECK(compared >= 5);
    std::cout << name << ": " << compared << " stages match PyTorch, largest relative difference " << worst << "\n";
    return model;
}

}  // namespace

TEST_CASE("a timm vit_tiny_patch16_224 hub checkpoint loads and runs like PyTorch", "[real]") {
    const vit::Model m = check_against_pytorch("vit_tiny_patch16_224");
    CHECK(m.config.embed_dim == 192);
    CHECK(m.config.num_heads == 3);
    CHECK(m.config.labels.at(0) == "tench");
    CHECK(m.config.preprocess.crop_pct == Approx(0.9f));
}

TEST_CASE("a timm vit_base_patch16_224 hub checkpoint loads and runs like PyTorch", "[real]") {
    const vit::Model m = check_against_pytorch("vit_base_patch16_224");
    CHECK(m.config.num_heads == 12);
    CHECK(m.config.mlp_dim == 3072);
}

TEST_CASE("a timm DeiT-S checkpoint loads and runs like PyTorch", "[real]") {
    const vit::Model m = check_against_pytorch("deit_small_patch16_224");
    CHECK(m.config.num_heads == 6);
    CHECK(m.config.preprocess.mean.at(0) == Approx(0.485f));
}

TEST_CASE("a DINO ViT-S/16 checkpoint without a head shows attention and no prediction", "[real]") {
    const vit::Model m = check_against_pytorch("vit_small_patch16_224.dino");
    CHECK(m.config.num_classes == 0);
    const vit::Trace trace = vit::forward(m, vit::Tensor({3, 224, 224}));
    CHECK(trace.find("probs") == nullptr);
    CHECK(trace.find("block11.attn") != nullptr);
}

TEST_CASE("a Hugging Face google/vit-base-patch16-224 checkpoint loads and runs like PyTorch", "[real]") {
    const vit::Model m = check_against_pytorch("google--vit-base-patch16-224");
    CHECK(m.config.ln_eps == Approx(1e-12f));
    CHECK(m.config.labels.at(1) == "goldfish");
    CHECK_FALSE(m.config.preprocess.keep_aspect);
}
