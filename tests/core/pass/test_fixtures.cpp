// Every stage of the CPU forward pass equals PyTorch's, on the committed
// fixtures of tests/make_fixtures.py, loaded through the real loaders
// (safetensors F32/F16/BF16, timm and Hugging Face naming, both config forms,
// image decoding and preprocessing). Prints the largest difference per fixture.
// Hugging Face DINOv2's settings the loader refuses are checked on copies of its
// fixtures; Dinov2WithRegistersModel (no classifier, no key prefix) on a renamed copy.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "loading/load_model.h"
#include "explain/compare.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "formats/npy.h"
#include "formats/safetensors.h"
#include "helpers_loaders.h"
#include "tensor/threads.h"

namespace {

namespace fs = std::filesystem;

// `model` is the checkpoint to load: the fixture's own folder when empty.
void check_fixture(const std::string& name, const std::string& model_path = "") {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / name;
    std::ifstream meta_file(dir / "expected" / "meta.json");
    REQUIRE(meta_file);
    const nlohmann::json meta = nlohmann::json::parse(meta_file);

    const vit::Model model = vit::load_model(model_path.empty() ? dir.string() : model_path);
    const vit::Image image = vit::load_image((dir / "image.png").string(), model.config.channels);
    const vit::Tensor input = vit::preprocess(image, model.config.preprocess, meta.at("image_size").get<int>());
    const vit::Trace trace = vit::forward(model, input);

    std::vector<std::string> ids;  // the forward stages (the folder also holds gradients: test_backward.cpp)
    for (const vit::Stage& stage : trace.stages()) ids.push_back(stage.id);
    CHECK(ids == meta.at("stages").get<std::vector<std::string>>());

    std::string worst_id;
    vit::Difference worst;
    for (const vit::Stage& stage : trace.stages()) {
        const vit::Tensor want = vit::read_npy((dir / "expected" / (stage.id + ".npy")).string());
        INFO(name << " stage " << stage.id);
        REQUIRE(stage.tensor.shape == want.shape);
        const vit::Difference e = vit::compare(stage.tensor, want);
        INFO("largest difference " << e.max_abs << " (relative " << e.relative() << ") at "
                                   << vit::index_string(e.where) << ": got " << e.got << ", PyTorch " << e.want);
        CHECK(e.relative() <= 1e-4);
        if (e.relative() >= worst.relative()) worst = e, worst_id = stage.id;
    }
    std::cout << "fixture " << name << ": " << trace.size() << " stages match PyTorch; largest relative difference "
              << worst.relative() << " (absolute " << worst.max_abs << ") in " << worst_id << "\n";
}

// The fixture's model and its input as meta.json sizes it.
std::pair<vit::Model, vit::Tensor> fixture_input(const std::string& name) {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / name;
    std::ifstream meta_file(dir / "expected" / "meta.json");
    const nlohmann::json meta = nlohmann::json::parse(meta_file);
    vit::Model model = vit::load_model(dir.string());
    const vit::Image image = vit::load_image((dir / "image.png").string(), model.config.channels);
    vit::Tensor input = vit::preprocess(image, model.config.preprocess, meta.at("image_size").get<int>());
    return {std::move(model), std::move(input)};
}

// The app's way through a Stream trace: a pass walked over packed weights, then each block
// seen through with_block, where every stage is found as in the full trace, bit for bit,
// and the other blocks' inner stages are not found at all.
void check_blocks_seen(const vit::Model& model, const vit::Tensor& input, const vit::Interventions& iv,
                       const vit::Trace& full) {
    const vit::PackedWeights packed(model);
    const auto stream = std::make_shared<const vit::Trace>(
        vit::ForwardWalk(model, input, iv, &packed, {}, vit::TraceKeep::Stream).take());
    CHECK(stream->interventions() == iv);
    std::vector<vit::StageRef> refs;
    for (const vit::Stage& s : full.stages()) refs.push_back(s.ref());
    CHECK(vit::pass_stages(model.config, *stream) == refs);
    CHECK(vit::with_block(model, stream, -1) == stream);
    for (int b = 0; b < model.config.depth; ++b) {
        const std::shared_ptr<const vit::Trace> seen = vit::with_block(model, stream, b, &packed);
        CHECK(seen->base() == stream);
        for (const vit::Stage& want : full.stages()) {
            INFO(model.config.name << " block " << b << " seen, stage " << want.id);
            const vit::Tensor* got = seen->tensor(want.ref());
            if (want.block >= 0 && want.block != b && !vit::keeps(vit::TraceKeep::Stream, want.kind)) {
                CHECK(got == nullptr);
                continue;
            }
            REQUIRE(got);
            CHECK(got->data == want.tensor.data);
        }
    }
}

// A Stream pass holds only what it keeps, and every stage of the full trace, in order,
// comes out of it (held, or its block recomputed) bit for bit.
void check_stream_trace(const vit::Model& model, const vit::Tensor& input, const vit::Interventions& iv = {}) {
    const vit::Trace full = vit::forward(model, input, iv);
    const vit::Trace stream = vit::forward(model, input, iv, vit::TraceKeep::Stream);
    CHECK(stream.keep() == vit::TraceKeep::Stream);
    for (const vit::Stage& s : stream.stages()) CHECK(vit::keeps(vit::TraceKeep::Stream, s.kind));
    CHECK(stream.size() < full.size());
    CHECK(stream.token_patches() == full.token_patches());
    CHECK(stream.embedded_patches() == full.embedded_patches());
    size_t i = 0;
    vit::for_each_stage(model, stream, iv, [&](const vit::Stage& s) {
        REQUIRE(i < full.size());
        const vit::Stage& want = full.stages()[i++];
        INFO(model.config.name << " stage " << want.id);
        REQUIRE(s.ref() == want.ref());
        CHECK(s.id == want.id);
        REQUIRE(s.tensor.shape == want.tensor.shape);
        CHECK(std::memcmp(s.tensor.data.data(), want.tensor.data.data(), s.tensor.data.size() * sizeof(float)) == 0);
    });
    CHECK(i == full.size());
    check_blocks_seen(model, input, iv, full);
}

}  // namespace

TEST_CASE("every stage equals PyTorch: timm naming, F32, bicubic resize and crop", "[fixtures]") {
    check_fixture("timm_f32");
}

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

TEST_CASE("every stage equals PyTorch: the built-in digits model on a held-out 7", "[fixtures]") {
    check_fixture("digits_sample", "digits");
}

TEST_CASE("every stage equals PyTorch: timm DINOv2 with LayerScale, patch 14, positions resampled to 4x4",
          "[fixtures]") {
    check_fixture("timm_dinov2");
}

TEST_CASE("every stage equals PyTorch: timm CLIP tower, norm_pre, no patch bias, eps 1e-5, exact GELU", "[fixtures]") {
    check_fixture("timm_clip");
}

TEST_CASE("every stage equals PyTorch: timm CLIP tower with QuickGELU", "[fixtures]") {
    check_fixture("timm_clip_quickgelu");
}

TEST_CASE("every stage equals PyTorch: timm DINOv2 ViT-g's SwiGLU MLP, told by the name", "[fixtures]") {
    check_fixture("timm_dinov2_swiglu");
    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "timm_dinov2_swiglu").string());
    CHECK(model.config.activation == vit::Activation::SwiGlu);  // vit_giant_patch14_dinov2: SwiGLUPacked
    CHECK(model.config.mlp_dim == 85);                          // read off mlp.fc2.weight (32, 85)
    CHECK(model.blocks[0].fc1_w.rows() == 170);                 // gates and values
    CHECK(model.config.layer_scale);
}

TEST_CASE("every stage equals PyTorch: Hugging Face DINOv2 with use_swiglu_ffn (weights_in, weights_out)",
          "[fixtures][hf_dinov2]") {
    check_fixture("hf_dinov2_swiglu");
    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "hf_dinov2_swiglu").string());
    CHECK(model.config.activation == vit::Activation::SwiGlu);
    CHECK(model.config.mlp_dim == 64);  // Dinov2SwiGLUFFN: (int(24 * 4 * 2 / 3) + 7) // 8 * 8
    CHECK(model.config.fc1_dim() == 128);
}

TEST_CASE("the built-in digits model classifies every shipped sample digit correctly", "[fixtures]") {
    const vit::Model model = vit::load_model("digits");
    size_t samples = 0;
    for (const auto& entry :
         fs::directory_iterator(fs::path(VITVIZ_FIXTURES) / ".." / ".." / "assets" / "digits" / "samples")) {
        const std::string stem = entry.path().stem().string();  // <index>-<label>
        const std::string label = stem.substr(stem.find('-') + 1);
        const vit::Trace trace =
            vit::forward(model, vit::preprocess(vit::load_image(entry.path().string(), 1), model.config.preprocess));
        const vit::FloatStorage& p = trace.at("probs").data;
        const size_t best = std::max_element(p.begin(), p.end()) - p.begin();
        INFO(entry.path().filename().string() << " predicted " << model.config.labels[best]);
        CHECK(model.config.labels[best] == label);
        ++samples;
    }
    CHECK(samples >= 30);
}

TEST_CASE("every stage equals PyTorch: four register tokens, positions on the patch grid only", "[fixtures][tokens]") {
    check_fixture("timm_reg4");
}

TEST_CASE("every stage equals PyTorch: no class token, the mean of the patch tokens, fc_norm", "[fixtures][tokens]") {
    check_fixture("timm_gap_fcnorm");
}

TEST_CASE("every stage equals PyTorch: a CLS token left out of the average, fc_norm", "[fixtures][tokens]") {
    check_fixture("timm_avg_cls");
}

TEST_CASE("every stage equals PyTorch: DeiT distilled, the mean of the two heads", "[fixtures][tokens]") {
    check_fixture("timm_deit_distilled");
}

TEST_CASE("an average-pooled checkpoint with fc_norm gives timm's top class", "[fixtures][tokens]") {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / "timm_avg_cls";
    const nlohmann::json meta = nlohmann::json::parse(std::ifstream(dir / "expected" / "meta.json"));
    const vit::Model model = vit::load_model(dir.string());
    CHECK(model.config.global_pool == vit::GlobalPool::Avg);
    CHECK(model.config.fc_norm);
    CHECK(model.norm_w.size() == 0);  // timm's final norm is an identity under fc_norm
    const vit::Trace trace =
        vit::forward(model, vit::preprocess(vit::load_image((dir / "image.png").string(), 3), model.config.preprocess,
                                            meta.at("image_size").get<int>()));
    const vit::FloatStorage& logits = trace.at("logits").data;
    CHECK(std::max_element(logits.begin(), logits.end()) - logits.begin() == meta.at("top1").get<long>());
}

TEST_CASE("every stage equals PyTorch: Hugging Face Dinov2ForImageClassification, positions interpolated 6x6 to 4x4",
          "[fixtures][hf_dinov2]") {
    check_fixture("hf_dinov2");
    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "hf_dinov2").string());
    const vit::ModelConfig& c = model.config;
    CHECK(c.layer_scale);                             // layer_scale1/2.lambda1
    CHECK(c.global_pool == vit::GlobalPool::ClsAvg);  // classifier on [CLS, patch mean]
    CHECK(model.head_w.cols() == 2 * c.embed_dim);
    CHECK(c.pos_resample == vit::PosResample::Bicubic);  // transformers' interpolate_pos_encoding
    CHECK(c.ln_eps == Approx(1e-6f));
    CHECK(c.preprocess.image_size == 56);                   // BitImageProcessor's crop_size
    CHECK(c.preprocess.crop_pct == Approx(56.0f / 64.0f));  // of size.shortest_edge 64
    CHECK(c.preprocess.interpolation == "bicubic");         // resample 3
    CHECK(c.labels.at(2) == "astronaut");
}

namespace {

// The fixture `name` (hf_dinov2 or hf_dinov2_reg) copied into `dir` with
// config.json's `key` set to `value` (JSON text); the loader's message.
std::string hf_dinov2_with(const vit_test::TempDir& dir, const std::string& key, const std::string& value,
                           const std::string& name = "hf_dinov2") {
    const fs::path source = fs::path(VITVIZ_FIXTURES) / name;
    for (const char* file : {"model.safetensors", "preprocessor_config.json"})
        fs::copy_file(source / file, fs::path(dir.path()) / file);
    nlohmann::json config = nlohmann::json::parse(std::ifstream(source / "config.json"));
    config[key] = nlohmann::json::parse(value);
    vit_test::write_file(dir.path("config.json"), config.dump());
    return vit_test::checkpoint_error(dir.path());
}

}  // namespace

TEST_CASE("Hugging Face DINOv2 settings this app does not run are refused by name", "[fixtures][hf_dinov2]") {
    using Catch::Matchers::Contains;
    {
        vit_test::TempDir dir;
        // SwiGLU's names under a config that says it, on GELU weights: the tensor is named
        CHECK_THAT(hf_dinov2_with(dir, "use_swiglu_ffn", "true"),
                   Contains("missing tensor 'dinov2.encoder.layer.0.mlp.weights_in.weight'"));
    }
    {
        vit_test::TempDir dir;  // DINOv2 weights under a registers config: no register_tokens to read
        CHECK_THAT(hf_dinov2_with(dir, "model_type", "\"dinov2_with_registers\""),
                   Contains("says num_register_tokens 4 but the weights hold 0") &&
                       Contains("dinov2.embeddings.register_tokens"));
    }
    {
        vit_test::TempDir dir;
        CHECK_THAT(hf_dinov2_with(dir, "model_type", "\"beit\""), Contains("'model_type' must be"));
    }
    {
        vit_test::TempDir dir;
        CHECK_THAT(hf_dinov2_with(dir, "hidden_act", "\"relu\""), Contains("'hidden_act' must be"));
    }
    {
        vit_test::TempDir dir;  // DINOv2 weights under a ViT config: the block names say which
        CHECK_THAT(hf_dinov2_with(dir, "model_type", "\"vit\""),
                   Contains("'dinov2.encoder.layer.0.norm1.weight' is in transformers' DINOv2 layout") &&
                       Contains("says model_type 'vit'"));
    }
}

TEST_CASE(
    "every stage equals PyTorch: Hugging Face Dinov2WithRegistersForImageClassification, registers without "
    "positions, antialiased 6x6 to 4x4",
    "[fixtures][hf_dinov2]") {
    check_fixture("hf_dinov2_reg");
    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "hf_dinov2_reg").string());
    const vit::ModelConfig& c = model.config;
    CHECK(c.reg_tokens == 4);       // embeddings.register_tokens (1, 4, D)
    CHECK(c.prefix_tokens() == 5);  // CLS, REG0..REG3, then the patches
    CHECK(c.pos_prefix() == 1);     // position_embeddings: the CLS row and the 6x6 grid
    CHECK(model.pos_embed.rows() == 1 + 36);
    CHECK(c.pos_row(0) == 0);
    CHECK(c.pos_row(1) == -1);                               // registers: inserted after the positions
    CHECK(c.pos_row(5) == 1);                                // patch 0
    CHECK(c.pos_resample == vit::PosResample::Antialiased);  // interpolate_pos_encoding's antialias=True
    CHECK(c.global_pool == vit::GlobalPool::ClsAvg);         // [CLS, mean of the patches, registers left out]
    CHECK(model.head_w.cols() == 2 * c.embed_dim);
    CHECK(c.layer_scale);
    CHECK(c.labels.at(2) == "astronaut");
}

TEST_CASE("Hugging Face Dinov2WithRegistersModel: the bare model's keys, no classifier, the same final norm",
          "[fixtures][hf_dinov2]") {
    const fs::path source = fs::path(VITVIZ_FIXTURES) / "hf_dinov2_reg";
    vit_test::TempDir dir;
    const std::string prefix = "dinov2_with_registers.";
    const vit::SafetensorsFile file((source / "model.safetensors").string());
    std::vector<vit::NamedTensor> bare;  // Dinov2WithRegistersModel's state_dict: no prefix, no classifier
    for (const vit::SafetensorsEntry& e : file.entries()) {
        if (e.name.rfind(prefix, 0) != 0) continue;
        vit::Tensor t(e.shape);
        file.read_floats(e, t.data.data());
        bare.push_back({e.name.substr(prefix.size()), std::move(t)});
    }
    vit::write_safetensors(dir.path("model.safetensors"), bare);
    nlohmann::json config = nlohmann::json::parse(std::ifstream(source / "config.json"));
    config["architectures"] = {"Dinov2WithRegistersModel"};
    config.erase("id2label");
    config.erase("label2id");
    vit_test::write_file(dir.path("config.json"), config.dump());
    fs::copy_file(source / "preprocessor_config.json", fs::path(dir.path()) / "preprocessor_config.json");

    const vit::Model model = vit::load_model(dir.path());
    CHECK(model.config.num_classes == 0);
    CHECK(model.config.reg_tokens == 4);
    const vit::Image image = vit::load_image((source / "image.png").string(), 3);
    const vit::Trace trace = vit::forward(model, vit::preprocess(image, model.config.preprocess, 56));
    const vit::Tensor want = vit::read_npy((source / "expected" / "norm.npy").string());
    const vit::Difference e = vit::compare(trace.at("norm"), want);
    INFO("final norm: largest difference " << e.max_abs);
    CHECK(e.relative() <= 1e-4);
}

TEST_CASE("Hugging Face DINOv2 with registers: settings that disagree with the weights are refused by name",
          "[fixtures][hf_dinov2]") {
    using Catch::Matchers::Contains;
    {
        vit_test::TempDir dir;
        CHECK_THAT(hf_dinov2_with(dir, "num_register_tokens", "2", "hf_dinov2_reg"),
                   Contains("says num_register_tokens 2 but the weights hold 4"));
    }
    {
        vit_test::TempDir dir;
        CHECK_THAT(hf_dinov2_with(dir, "num_register_tokens", "0", "hf_dinov2_reg"),
                   Contains("'num_register_tokens' must be an integer in [1, 64]"));
    }
    {
        vit_test::TempDir dir;  // registers under a plain DINOv2 config: a tensor with no place
        CHECK_THAT(hf_dinov2_with(dir, "model_type", "\"dinov2\"", "hf_dinov2_reg"),
                   Contains("'dinov2_with_registers.embeddings.register_tokens' is not used by this model"));
    }
    {
        vit_test::TempDir dir;
        CHECK_THAT(hf_dinov2_with(dir, "use_swiglu_ffn", "true", "hf_dinov2_reg"), Contains("mlp.weights_in.weight"));
    }
    {
        vit_test::TempDir dir;  // SwiGLU weights under a config that does not say it
        CHECK_THAT(hf_dinov2_with(dir, "use_swiglu_ffn", "false", "hf_dinov2_swiglu"),
                   Contains("missing tensor 'dinov2.encoder.layer.0.mlp.fc1.weight'"));
    }
}

TEST_CASE("a pass keeping the residual stream gives every stage of every fixture bit for bit, blocks recomputed",
          "[fixtures][stream]") {
    for (const char* name :
         {"headless", "hf_bf16", "hf_dinov2", "hf_dinov2_reg", "hf_dinov2_swiglu", "timm_avg_cls", "timm_clip",
          "timm_clip_quickgelu", "timm_deit_distilled", "timm_dinov2", "timm_dinov2_swiglu", "timm_f16_noqkvbias",
          "timm_f32", "timm_gap_fcnorm", "timm_posinterp", "timm_reg4"}) {
        const auto [model, input] = fixture_input(name);
        check_stream_trace(model, input);
    }
    const auto [model, input] = fixture_input("timm_f32");  // every intervention at once
    vit::Interventions iv;
    iv.mask_patches = {4, 9};
    iv.drop_tokens = {0, 10, 11};
    iv.ablate_heads = {{1, 1}};
    iv.no_positions = true;
    iv.temperature = 0.7f;
    iv.permute_patches = {15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0};
    check_stream_trace(model, input, iv);
    // A block recomputed on one thread equals the pass's on two (whatever the team's size), with the core's
    // own kernels; a BLAS cuts its products by the team, so there a block keeps the pass's team (threads.h).
    if (!vit::own_gemm_kernel()) return;
    vit::set_threads(2);
    const vit::Trace stream = vit::forward(model, input, iv, vit::TraceKeep::Stream);
    const vit::Trace full = vit::forward(model, input, iv);
    vit::set_threads(1);
    const vit::Trace block = vit::recompute_block(model, stream, 1, iv);
    vit::set_threads(0);
    for (const vit::Stage& s : block.stages()) {
        INFO(s.id);
        CHECK(s.tensor.data == full.at(s.ref()).data);
    }
    CHECK_THROWS_WITH(vit::recompute_block(model, stream, 2, iv), Catch::Contains("has no block 2"));
}
