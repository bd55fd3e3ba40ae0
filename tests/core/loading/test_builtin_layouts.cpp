// Claims about the built-in random siblings of vit-b-random with timm's other
// token layouts: they load by name, hold timm's shapes, and run with their
// prefix tokens before the patches and their own heads (registers, DeiT's two
// heads, average pooling without a class token, CLIP's norm_pre).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>

#include "loading/load_model.h"
#include "loading/builtin.h"
#include "pass/forward.h"
#include "helpers_loaders.h"

namespace {

vit::Tensor grey_input(int size) {
    vit::Tensor t({3, size, size});
    for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = std::sin(0.01f * static_cast<float>(i));
    return t;
}

vit::Trace run(const vit::Model& m) { return vit::forward(m, grey_input(m.config.preprocess.image_size)); }

}  // namespace

TEST_CASE("the layout siblings of vit-b-random are built-in models with timm's sizes") {
    for (const char* name : {vit::kRandomReg4, vit::kRandomDistilled, vit::kRandomGap, vit::kRandomClip}) {
        INFO(name);
        REQUIRE(vit::is_builtin_model(name));
        REQUIRE_FALSE(vit::brings_own_image(name));
        REQUIRE(vit::builtin_model_names("|").find(name) != std::string::npos);
    }
    const vit::Model reg4 = vit::load_model(vit::kRandomReg4);
    CHECK(reg4.config.patch_size == 14);
    CHECK(reg4.config.embed_dim == 384);
    CHECK(reg4.config.num_heads == 6);
    CHECK(reg4.config.prefix_tokens() == 5);
    CHECK(reg4.pos_embed.rows() == 16 * 16);  // no_embed_class: positions for the patches only
    CHECK(reg4.config.num_classes == 0);
    CHECK(reg4.config.layer_scale);  // DINOv2's LayerScale: ls1/ls2 on every block
    CHECK(reg4.blocks[11].ls2.size() == 384);
    const vit::Model clip = vit::load_model(vit::kRandomClip);
    CHECK(clip.config.norm_pre);
    CHECK(clip.patch_b.size() == 0);  // pre_norm: no patch-embedding bias
    CHECK(clip.config.ln_eps == 1e-5f);
    const vit::Model gap = vit::load_model(vit::kRandomGap);
    CHECK(gap.config.embed_dim == 512);
    CHECK(gap.config.num_heads == 8);
    CHECK(gap.config.prefix_tokens() == 0);
    CHECK(gap.blocks[0].qkv_b.size() == 0);  // timm qkv_bias=False
    CHECK_FALSE(gap.config.fc_norm);         // timm fc_norm=False: the final norm, then the mean
}

TEST_CASE("vit-s-reg4-random runs CLS and four registers before its 256 patches") {
    const vit::Model m = vit::load_model(vit::kRandomReg4);
    const vit::Trace trace = run(m);
    CHECK(trace.at("cls").rows() == 5 + 256);
    CHECK(trace.at("block11.attn").shape == std::vector<int64_t>{6, 261, 261});
    CHECK(trace.tensor({vit::StageKind::Logits}) == nullptr);  // DINOv2: features, no head
    const vit::Tensor& out = trace.at("block0.attn_out");
    const vit::Tensor& scaled = trace.at("block0.ls1");  // the branch as it joins the stream
    for (int64_t i = 0; i < out.numel(); i += 101)
        CHECK(scaled.data[i] == Approx(out.data[i] * m.blocks[0].ls1[i % 384]).margin(1e-5));
}

TEST_CASE("vit-b-clip-random normalises its tokens before the blocks") {
    const vit::Model m = vit::load_model(vit::kRandomClip);
    const vit::Trace trace = run(m);
    const vit::Tensor& normed = trace.at("norm_pre");
    REQUIRE(normed.rows() == 197);
    double mean = 0;
    for (int64_t d = 0; d < 768; ++d) mean += (normed.data[d] - m.norm_pre_b[d]) / m.norm_pre_w[d] / 768.0;
    CHECK(mean == Approx(0).margin(1e-3));  // row 0 before its affine: zero mean
}

TEST_CASE("deit-s-distilled-random's logits are the mean of its class and distillation heads") {
    const vit::Model m = vit::load_model(vit::kRandomDistilled);
    const vit::Trace trace = run(m);
    CHECK(trace.at("cls").rows() == 2 + 196);
    const vit::Tensor& cls = trace.at("logits_cls");
    const vit::Tensor& dist = trace.at("logits_dist");
    const vit::Tensor& logits = trace.at("logits");
    for (int k = 0; k < 1000; k += 97) CHECK(logits.data[k] == Approx((cls.data[k] + dist.data[k]) / 2).margin(1e-5));
}

TEST_CASE("vit-m-gap-random has no class token and pools the mean of its patch rows") {
    const vit::Model m = vit::load_model(vit::kRandomGap);
    const vit::Trace trace = run(m);
    const vit::Tensor& norm = trace.at("norm");
    REQUIRE(norm.rows() == 256);
    const vit::Tensor& pool = trace.at("pool");
    const int64_t D = norm.cols();
    for (int64_t d = 0; d < D; d += 37) {
        double mean = 0;
        for (int64_t r = 0; r < 256; ++r) mean += norm.data[r * D + d] / 256.0;
        CHECK(pool.data[d] == Approx(mean).margin(1e-4));
    }
}

TEST_CASE("vitviz-cli opens each layout sibling by name") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    vit_test::TempDir dir;
    const std::string image = std::string(VITVIZ_FIXTURES) + "/timm_deit_distilled/image.png";
    // Drawing 22M to 39M random weights takes up to ~40 s in a sanitizer build on a busy machine: a
    // 120 s hang guard. vit-b-clip-random's 86M take longer still: the in-process test above runs it
    for (const char* name : {vit::kRandomReg4, vit::kRandomDistilled, vit::kRandomGap}) {
        // 112 pixels: 8×8 patches of 14, 7×7 of 16 (positions interpolated), quick under the sanitizers too
        const vit_test::CliResult r =
            vit_test::run_cli(dir, std::string("--model ") + name + " --image " + image + " --image-size 112", "", 120);
        INFO(name << ": " << r.err);
        CHECK(r.status == 0);
    }
}
