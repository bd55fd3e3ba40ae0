// Checkpoint loading: the fixtures' configs come out as PyTorch built them,
// timm and Hugging Face naming give the same weights, sizes missing from the
// config come from the weights, and labels come from the config or ImageNet.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "loading/load_model.h"
#include "model/config.h"
#include "base/error.h"
#include "base/file_io.h"
#include "helpers_loaders.h"
#include "model/labels.h"

using namespace vit_test;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

namespace {

std::string fixture(const std::string& name) { return std::string(VITVIZ_FIXTURES) + "/" + name; }
bool have_fixtures() { return std::filesystem::exists(fixture("timm_f32/model.safetensors")); }

void check_same_weights(const vit::Model& a, const vit::Model& b) {
    CHECK(a.patch_w == b.patch_w);
    CHECK(a.patch_b == b.patch_b);
    CHECK(a.cls_token == b.cls_token);
    CHECK(a.pos_embed == b.pos_embed);
    REQUIRE(a.blocks.size() == b.blocks.size());
    for (size_t i = 0; i < a.blocks.size(); ++i) {
        const vit::BlockWeights &x = a.blocks[i], &y = b.blocks[i];
        CHECK(x.ln1_w == y.ln1_w);
        CHECK(x.ln1_b == y.ln1_b);
        CHECK(x.qkv_w == y.qkv_w);
        CHECK(x.qkv_b == y.qkv_b);
        CHECK(x.proj_w == y.proj_w);
        CHECK(x.proj_b == y.proj_b);
        CHECK(x.ln2_w == y.ln2_w);
        CHECK(x.ln2_b == y.ln2_b);
        CHECK(x.fc1_w == y.fc1_w);
        CHECK(x.fc1_b == y.fc1_b);
        CHECK(x.fc2_w == y.fc2_w);
        CHECK(x.fc2_b == y.fc2_b);
    }
    CHECK(a.norm_w == b.norm_w);
    CHECK(a.norm_b == b.norm_b);
    CHECK(a.head_w == b.head_w);
    CHECK(a.head_b == b.head_b);
}

}  // namespace

TEST_CASE("each fixture's config loads as PyTorch built the model") {
    if (!have_fixtures()) return;
    for (const char* name : {"timm_f32", "hf_bf16", "timm_f16_noqkvbias", "timm_posinterp", "headless"}) {
        INFO("fixture " << name);
        const auto meta = nlohmann::json::parse(read_file_text(fixture(name) + "/expected/meta.json"));
        const vit::Model m = vit::load_checkpoint(fixture(name));
        const vit::ModelConfig& c = m.config;
        const auto& tokens = meta["shapes"]["tokens"];
        const auto& q = meta["shapes"]["block0.q"];
        CHECK(c.channels == meta["channels"].get<int>());
        CHECK(c.embed_dim == tokens[1].get<int>());
        CHECK(c.num_heads == q[0].get<int>());
        CHECK(c.mlp_dim == meta["shapes"]["block0.fc1"][1].get<int>());
        CHECK(c.ln_eps == Approx(meta["ln_eps"].get<double>()).epsilon(1e-6));
        CHECK(c.pos_grid * c.patch_size == meta["model_img_size"].get<int>());
        CHECK(c.preprocess.image_size == meta["model_img_size"].get<int>());
        CHECK(c.preprocess.interpolation == meta["interpolation"].get<std::string>());
        CHECK(c.num_classes == (meta["shapes"].contains("logits") ? meta["shapes"]["logits"][0].get<int>() : 0));
        CHECK(static_cast<int>(c.labels.size()) == c.num_classes);
        CHECK(m.blocks.size() == static_cast<size_t>(c.depth));
        CHECK(m.pos_embed.rows() == 1 + c.pos_grid * c.pos_grid);
        CHECK(m.head_w.rows() == c.num_classes);
    }
}

TEST_CASE("the fixtures' labels and preprocessing come from their configs") {
    if (!have_fixtures()) return;
    const vit::ModelConfig timm = vit::load_checkpoint(fixture("timm_f32")).config;
    CHECK(timm.name == "vit_test_patch8_32");
    CHECK(timm.labels.front() == "label 0");
    CHECK(timm.preprocess.crop_pct == 0.875f);
    CHECK(timm.preprocess.keep_aspect);
    const vit::ModelConfig hf = vit::load_checkpoint(fixture("hf_bf16")).config;
    CHECK(hf.labels == std::vector<std::string>{"tabby cat", "coffee mug", "astronaut", "rocket", "moon"});
    CHECK(hf.preprocess.crop_pct == 1.0f);
    CHECK_FALSE(hf.preprocess.keep_aspect);
    CHECK(hf.preprocess.mean == std::vector<float>{0.5f, 0.5f, 0.5f});
    CHECK(vit::load_checkpoint(fixture("timm_posinterp")).config.labels.back() == "class 3");
}

TEST_CASE("a checkpoint without qkv bias gets zeros") {
    if (!have_fixtures()) return;
    const vit::Model m = vit::load_checkpoint(fixture("timm_f16_noqkvbias"));
    CHECK(m.blocks[0].qkv_b.size() == 3 * m.config.embed_dim);
    CHECK(m.blocks[0].qkv_b.isZero(0));
}

TEST_CASE("the .safetensors file itself loads like its folder") {
    if (!have_fixtures()) return;
    check_same_weights(vit::load_checkpoint(fixture("hf_bf16/model.safetensors")),
                       vit::load_checkpoint(fixture("hf_bf16")));
}

TEST_CASE("Hugging Face names give the same weights as timm's, query/key/value stacked into qkv") {
    TempDir dir;
    write_checkpoint(dir.path("timm"), tiny_timm_tensors());
    write_checkpoint(dir.path("hf"), tiny_hf_tensors());
    write_checkpoint(dir.path("vitmodel"), tiny_hf_tensors({}, ""));
    const vit::Model timm = vit::load_checkpoint(dir.path("timm"));
    check_same_weights(timm, vit::load_checkpoint(dir.path("hf")));
    check_same_weights(timm, vit::load_checkpoint(dir.path("vitmodel")));
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    CHECK(timm.blocks[1].qkv_w(8, 0) == tensor_named(tensors, "blocks.1.attn.qkv.weight").values[8 * 8]);
}

TEST_CASE("keys wrapped in a 'module.' prefix load like plain ones") {
    TempDir dir;
    std::vector<FakeTensor> wrapped = tiny_timm_tensors();
    for (FakeTensor& t : wrapped) t.name = "module." + t.name;
    write_checkpoint(dir.path("plain"), tiny_timm_tensors());
    write_checkpoint(dir.path("wrapped"), wrapped);
    check_same_weights(vit::load_checkpoint(dir.path("plain")), vit::load_checkpoint(dir.path("wrapped")));
}

TEST_CASE("BF16 weights load to the same floats as F32 when the values are exact in BF16") {
    TempDir dir;
    std::filesystem::create_directories(dir.path("bf16"));
    write_file(dir.path("bf16/model.safetensors"), safetensors_bytes(tiny_timm_tensors(), "BF16"));
    write_checkpoint(dir.path("f32"), tiny_timm_tensors());
    check_same_weights(vit::load_checkpoint(dir.path("f32")), vit::load_checkpoint(dir.path("bf16")));
}

TEST_CASE("with no config.json every size comes from the weights and heads default to D/64") {
    TempDir dir;
    write_checkpoint(dir.path("small"), tiny_timm_tensors());
    const vit::ModelConfig c = vit::load_checkpoint(dir.path("small")).config;
    CHECK(c.name == "small");
    CHECK(c.channels == 3);
    CHECK(c.patch_size == 2);
    CHECK(c.embed_dim == 8);
    CHECK(c.depth == 2);
    CHECK(c.num_heads == 1);  // 8 / 64 rounds to 0: at least one head
    CHECK(c.mlp_dim == 16);
    CHECK(c.num_classes == 3);
    CHECK(c.pos_grid == 2);
    CHECK(c.ln_eps == 1e-6f);
    CHECK(c.preprocess.image_size == 4);
    CHECK(c.labels == std::vector<std::string>{"class 0", "class 1", "class 2"});

    TinyVit wide;
    wide.D = 128, wide.mlp = 256, wide.depth = 1, wide.classes = 0;
    write_checkpoint(dir.path("wide"), tiny_hf_tensors(wide));
    const vit::ModelConfig h = vit::load_checkpoint(dir.path("wide/model.safetensors")).config;
    CHECK(h.num_heads == 2);
    CHECK(h.num_classes == 0);
    CHECK(h.ln_eps == 1e-12f);  // Hugging Face naming: HF's default
    CHECK(h.preprocess.interpolation == "bilinear");
}

TEST_CASE("a timm name without model_args gives the patch size, image size and the variant's heads") {
    TempDir dir;
    TinyVit v;
    v.D = 12, v.mlp = 24;
    write_checkpoint(dir.path(), tiny_timm_tensors(v),
                     R"({"architecture": "vit_small_patch2_4.augreg", "num_classes": 3})");
    const vit::ModelConfig c = vit::load_checkpoint(dir.path()).config;
    CHECK(c.name == "vit_small_patch2_4.augreg");
    CHECK(c.num_heads == 6);
    CHECK(c.preprocess.image_size == 4);
}

TEST_CASE("timm names of DINOv2 and CLIP towers give their block and stem variants, model_args over them") {
    const auto config_of = [](const std::string& json_text) {
        return vit::parse_config(reinterpret_cast<const uint8_t*>(json_text.data()), json_text.size(), "config.json");
    };
    const vit::ConfigSpec dinov2 = config_of(R"({"architecture": "vit_small_patch14_dinov2.lvd142m"})");
    CHECK(dinov2.layer_scale);
    CHECK_FALSE(dinov2.norm_pre);
    CHECK(dinov2.ln_eps == 1e-6f);
    const vit::ConfigSpec clip = config_of(R"({"architecture": "vit_base_patch16_clip_224.openai"})");
    CHECK(clip.norm_pre);
    CHECK_FALSE(clip.layer_scale);
    CHECK(clip.ln_eps == 1e-5f);
    CHECK(clip.activation == vit::Activation::Gelu);
    const vit::ConfigSpec quick = config_of(R"({"architecture": "vit_base_patch16_clip_quickgelu_224.openai"})");
    CHECK(quick.activation == vit::Activation::QuickGelu);
    CHECK_FALSE(config_of(R"({"architecture": "vit_base_patch16_224"})").layer_scale);
    const vit::ConfigSpec args = config_of(
        R"({"architecture": "my_vit",
             "model_args": {"init_values": 1e-5, "pre_norm": true, "act_layer": "quick_gelu"}})");
    CHECK(args.layer_scale);
    CHECK(args.norm_pre);
    CHECK(args.activation == vit::Activation::QuickGelu);
    // null is "not said": the name's LayerScale stays; 0 turns it off, as in timm
    CHECK(
        config_of(R"({"architecture": "vit_small_patch14_dinov2", "model_args": {"init_values": null}})").layer_scale);
    CHECK_FALSE(
        config_of(R"({"architecture": "vit_small_patch14_dinov2", "model_args": {"init_values": 0}})").layer_scale);
    // DINOv2 ViT-g: timm's SwiGLUPacked from the name, or from model_args
    CHECK(config_of(R"({"architecture": "vit_giant_patch14_reg4_dinov2.lvd142m"})").activation ==
          vit::Activation::SwiGlu);
    CHECK(config_of(R"({"architecture": "vit_giant_patch14_clip_224.laion2b"})").activation == vit::Activation::Gelu);
    CHECK(config_of(R"({"architecture": "x", "model_args": {"mlp_layer": "SwiGLUPacked", "act_layer": "silu"}})")
              .activation == vit::Activation::SwiGlu);
    CHECK_THROWS_WITH(
        config_of(R"({"architecture": "x", "model_args": {"mlp_layer": "SwiGLUPacked", "act_layer": "gelu"}})"),
        Contains("'act_layer' must be \"silu\" (mlp_layer is SwiGLUPacked), got \"gelu\""));
    CHECK_THROWS_WITH(config_of(R"({"architecture": "x", "model_args": {"mlp_layer": "GluMlp"}})"),
                      Contains("'mlp_layer' must be \"Mlp\" or \"SwiGLUPacked\""));
    CHECK_THROWS_WITH(config_of(R"({"architecture": "x", "model_args": {"act_layer": "swish"}})"),
                      Contains("config.json: 'act_layer' must be \"gelu\" or \"quick_gelu\", got \"swish\""));
}

TEST_CASE("LayerScale is read off the weights, norm_pre weights without the config's variant are refused by name") {
    if (!have_fixtures()) return;
    TempDir dinov2;  // the weights alone: ls1/ls2.gamma say LayerScale, as timm builds them only with init_values
    std::filesystem::copy_file(fixture("timm_dinov2") + "/model.safetensors", dinov2.path("model.safetensors"));
    const vit::Model m = vit::load_checkpoint(dinov2.path());
    CHECK(m.config.layer_scale);
    CHECK(m.blocks[1].ls2.size() == m.config.embed_dim);
    TempDir clip;
    std::filesystem::copy_file(fixture("timm_clip") + "/model.safetensors", clip.path("model.safetensors"));
    CHECK_THROWS_WITH(vit::load_checkpoint(clip.path()),
                      Contains(clip.path("model.safetensors") +
                               ": tensor 'norm_pre.weight' is not used by this model: "
                               "it has no place in a model without timm's norm_pre (pre_norm, as in CLIP), which needs "
                               "a config.json") &&
                          Contains("model_args."));
    // The CLIP config saying pre_norm false over weights that hold norm_pre: the setting and the tensor named.
    nlohmann::json stated = nlohmann::json::parse(vit::read_file(fixture("timm_clip") + "/config.json", 1 << 20));
    stated["model_args"]["pre_norm"] = false;
    vit::write_whole_file(clip.path("config.json"), stated.dump());
    CHECK_THROWS_WITH(
        vit::load_checkpoint(clip.path()),
        Equals(clip.path("config.json") + ": model_args.pre_norm is false, but " + clip.path("model.safetensors") +
               " holds 'norm_pre.weight' (timm and transformers would build another model from these files)"));
}

TEST_CASE("timm model names give patch size, image size and heads of the standard variants") {
    const vit::TimmName base = vit::parse_timm_name("vit_base_patch16_224.augreg2_in21k_ft_in1k");
    CHECK(base.patch_size == 16);
    CHECK(base.img_size == 224);
    CHECK(base.num_heads == 12);
    const vit::TimmName large = vit::parse_timm_name("vit_large_patch14_clip_336.openai");
    CHECK(large.patch_size == 14);
    CHECK(large.img_size == 336);
    CHECK(large.num_heads == 16);
    CHECK(vit::parse_timm_name("deit_tiny_patch16_224").num_heads == 3);
    CHECK(vit::parse_timm_name("vit_small_patch16_224.dino").num_heads == 6);
    const vit::TimmName custom = vit::parse_timm_name("vit_test_patch8_32.dino");
    CHECK(custom.patch_size == 8);
    CHECK(custom.img_size == 32);
    CHECK_FALSE(custom.num_heads);
    const vit::TimmName other = vit::parse_timm_name("resnet50");
    CHECK_FALSE(other.patch_size);
    CHECK_FALSE(other.img_size);
}

TEST_CASE("Hugging Face image processors become resize and crop settings") {
    TempDir dir;
    const std::string config = R"({"model_type": "vit", "hidden_size": 8, "image_size": 4})";
    write_file(dir.path("config.json"), config);
    auto spec_with = [&](const std::string& preprocessor) {
        write_file(dir.path("preprocessor_config.json"), preprocessor);
        return vit::read_config(dir.path("config.json"), dir.path("preprocessor_config.json"));
    };
    const vit::ConfigSpec vit_style = spec_with(R"({"size": 8, "resample": 2, "image_mean": [0.1, 0.2, 0.3],
                                                    "image_std": [0.4, 0.5, 0.6]})");
    CHECK(vit_style.input_size->value == 8);
    CHECK_FALSE(vit_style.preprocess.keep_aspect);
    CHECK(vit_style.preprocess.crop_pct == 1.0f);
    CHECK(vit_style.preprocess.std == std::vector<float>{0.4f, 0.5f, 0.6f});
    CHECK(vit_style.ln_eps == 1e-12f);
    const vit::ConfigSpec deit = spec_with(R"({"size": {"height": 10, "width": 10}, "do_center_crop": true,
                                               "crop_size": {"height": 8, "width": 8}, "resample": 3})");
    CHECK(deit.input_size->value == 8);
    CHECK(deit.input_size->why == "preprocessor_config.json says crop_size 8");
    CHECK(deit.preprocess.crop_pct == 0.8f);
    CHECK_FALSE(deit.preprocess.keep_aspect);
    CHECK(deit.preprocess.interpolation == "bicubic");
    const vit::ConfigSpec convnext = spec_with(R"({"size": {"shortest_edge": 8}, "crop_pct": 0.875})");
    CHECK(convnext.input_size->value == 8);
    CHECK(convnext.preprocess.keep_aspect);
    CHECK(convnext.preprocess.crop_pct == 0.875f);
    const vit::ConfigSpec plain = spec_with(R"({"do_normalize": false})");
    CHECK(plain.preprocess.mean == std::vector<float>{0, 0, 0});
    CHECK(plain.preprocess.std == std::vector<float>{1, 1, 1});
    CHECK_THROWS_WITH(spec_with(R"({"resample": 1})"),
                      Contains("preprocessor_config.json: 'resample' must be 2 (bilinear) or 3 (bicubic), got 1"));
}

TEST_CASE("timm's 'squash' crop mode resizes both sides") {
    TempDir dir;
    write_file(dir.path("config.json"), R"({"architecture": "x", "pretrained_cfg": {"crop_mode": "squash"}})");
    CHECK_FALSE(vit::read_config(dir.path("config.json"), "").preprocess.keep_aspect);
    write_file(dir.path("config.json"), R"({"architecture": "x", "pretrained_cfg": {"crop_mode": "border"}})");
    CHECK_THROWS_WITH(vit::read_config(dir.path("config.json"), ""), Contains("'crop_mode' must be"));
}

TEST_CASE("labels come from the config where it names a class, else ImageNet for 1000 classes, else 'class N'") {
    CHECK(vit::class_labels(3, {{1, "cat"}}) == std::vector<std::string>{"class 0", "cat", "class 2"});
    const std::vector<std::string> thousand = vit::class_labels(1000, {});
    REQUIRE(thousand.size() == 1000);
    if (vit::imagenet_labels().empty()) {
        CHECK(thousand[999] == "class 999");
    } else {
        CHECK(thousand == vit::imagenet_labels());
        CHECK_THAT(thousand[0], Contains("tench"));
    }
    CHECK(vit::class_labels(1000, {{0, "zero"}})[0] == "zero");
}

TEST_CASE("a 1-channel checkpoint with no mean/std stated takes one channel of the defaults") {
    TempDir dir;
    TinyVit grey;
    grey.channels = 1;
    write_checkpoint(dir.path(), tiny_timm_tensors(grey));
    const vit::Preprocess pre = vit::load_checkpoint(dir.path()).config.preprocess;
    CHECK(pre.mean.size() == 1);
    CHECK(pre.std.size() == 1);
}

TEST_CASE("loading reports progress from 0 to 1, never going back") {
    TempDir dir;
    write_checkpoint(dir.path(), tiny_timm_tensors(), tiny_timm_config());
    std::vector<float> seen;
    vit::load_checkpoint(dir.path(), [&](float f) { seen.push_back(f); });
    REQUIRE(seen.size() >= 2);
    CHECK(seen.front() == 0.0f);
    CHECK(seen.back() == 1.0f);
    CHECK(std::is_sorted(seen.begin(), seen.end()));
}

TEST_CASE("the built-in models load by name") {
    const vit::Model toy = vit::load_model("toy-4x4");
    CHECK(toy.config.channels == 1);
    CHECK(toy.config.patch_size == 2);
    CHECK(toy.config.embed_dim == 8);
    const std::string digits = std::string(VITVIZ_FIXTURES) + "/../../assets/digits";
    if (std::filesystem::exists(digits + "/model.safetensors")) CHECK(vit::load_model("digits").config.channels == 1);
}
