// The key layouts: every key of a transformers checkpoint renamed to timm's name and
// back to the file's, and the layout found from the keys and then from config.json.
#include <catch2/catch.hpp>

#include <string>

#include "base/error.h"
#include "formats/key_layouts.h"
#include "formats/safetensors.h"

using Catch::Matchers::Contains;

namespace {
std::string fixture(const std::string& name) { return std::string(VITVIZ_FIXTURES) + "/" + name; }
}  // namespace

TEST_CASE("a transformers ViT's keys read under timm's names, and timm's names spell back as the file's") {
    const vit::SafetensorsFile file(fixture("hf_bf16/model.safetensors"));
    const vit::TimmKeys keys = vit::detect_key_layout(file);
    CHECK(std::string(keys.layout().library) == "Hugging Face");
    CHECK(keys.prefix() == "vit.");
    CHECK(keys.head_prefix().empty());
    const std::pair<const char*, const char*> pairs[] = {
        {"cls_token", "vit.embeddings.cls_token"},
        {"pos_embed", "vit.embeddings.position_embeddings"},
        {"patch_embed.proj.weight", "vit.embeddings.patch_embeddings.projection.weight"},
        {"blocks.1.norm1.bias", "vit.encoder.layer.1.layernorm_before.bias"},
        {"blocks.0.attn.q.weight", "vit.encoder.layer.0.attention.attention.query.weight"},
        {"blocks.0.attn.proj.weight", "vit.encoder.layer.0.attention.output.dense.weight"},
        {"blocks.1.mlp.fc1.weight", "vit.encoder.layer.1.intermediate.dense.weight"},
        {"blocks.1.mlp.fc2.bias", "vit.encoder.layer.1.output.dense.bias"},
        {"norm.weight", "vit.layernorm.weight"},
        {"head.bias", "classifier.bias"},
    };
    for (const auto& [timm, theirs] : pairs) {
        INFO(timm);
        REQUIRE(keys.find(timm));
        CHECK(keys.find(timm)->name == theirs);
        CHECK(keys.theirs(timm) == theirs);
    }
    CHECK_FALSE(keys.find("blocks.0.attn.qkv.weight"));  // kept apart, as the layout says
    CHECK(keys.layout().split_qkv);
    CHECK(keys.theirs("dist_token") == "vit.dist_token");  // no name in this layout: timm's, under the prefix
    CHECK(keys.renamed().size() == file.entries().size());
}

TEST_CASE("config.json's model_type picks transformers' DINOv2 with registers, whose names differ from ViT's") {
    const vit::SafetensorsFile file(fixture("hf_dinov2_reg/model.safetensors"));
    const vit::TimmKeys found = vit::detect_key_layout(file);
    CHECK(found.prefix() == "dinov2_with_registers.");
    vit::ConfigSpec spec;
    spec.hf_model = vit::HfModel::Dinov2WithRegisters;
    const vit::TimmKeys keys = vit::key_layout_for_config(found, spec);
    CHECK(keys.find("reg_token")->name == "dinov2_with_registers.embeddings.register_tokens");
    CHECK(keys.find("blocks.0.ls1.gamma")->name == "dinov2_with_registers.encoder.layer.0.layer_scale1.lambda1");
    CHECK(keys.find("blocks.0.norm1.weight")->name == "dinov2_with_registers.encoder.layer.0.norm1.weight");
    CHECK(keys.layout().cls_mean_head);
    CHECK_FALSE(keys.layout().pos_on_registers);
    // Read as ViT's layout, the block names are DINOv2's: refused, naming the key and the model_type.
    spec.hf_model = vit::HfModel::Vit;
    spec.path = "config.json";
    CHECK_THROWS_WITH(vit::key_layout_for_config(found, spec),
                      Contains("'dinov2_with_registers.encoder.layer.0.norm1.weight' is in transformers' DINOv2 "
                               "layout, but config.json says model_type 'vit'"));
}

TEST_CASE("timm's own layout keeps every name, under a wrapper's prefix too") {
    const vit::SafetensorsFile file(fixture("timm_f32/model.safetensors"));
    const vit::TimmKeys keys = vit::detect_key_layout(file);
    CHECK(std::string(keys.layout().library) == "timm");
    for (const vit::SafetensorsEntry& e : file.entries()) CHECK(keys.find(e.name) == &e);
    CHECK(keys.theirs("blocks.0.attn.qkv.weight") == "blocks.0.attn.qkv.weight");
    CHECK(vit::timm_block_key(11, "mlp.fc1.weight") == "blocks.11.mlp.fc1.weight");
}
