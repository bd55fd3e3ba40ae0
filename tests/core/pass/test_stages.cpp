// Claims about the stage catalogue (core/pass/stages.h): the table is complete and
// consistent, and every stage it lists for a model is produced by the CPU pass
// with the table's shape and named the same way by the PyTorch reference
// (tools/vitref: run live for several configs, and through the committed
// fixtures' expected/meta.json).
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "loading/load_model.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "pass/stages.h"

namespace fs = std::filesystem;
using vit::StageKind;
using vit::StageRef;

TEST_CASE("the catalogue has one row per stage kind, in kind order, each with its names and text") {
    const auto& table = vit::stage_table();
    REQUIRE(table.size() == static_cast<size_t>(StageKind::Rollout) + 1);
    for (size_t i = 0; i < table.size(); ++i) {
        const vit::StageDef& def = table[i];
        INFO(def.name);
        CHECK(static_cast<size_t>(def.kind) == i);
        CHECK(std::string(def.short_name).size() > 2);
        CHECK(std::string(def.title).size() > 2);
        CHECK(std::string(def.formula).size() > 2);
        CHECK(std::string(def.pytorch).size() > 2);
        CHECK(std::string(def.backward).size() > 10);  // the backward walk's line
        CHECK_FALSE(def.shape.empty());
    }
}

TEST_CASE("stage ids and catalogue rows convert both ways, and other ids name no stage") {
    for (const StageRef& s : vit::stage_list(12, true)) {
        const std::string id = vit::stage_id(s);
        INFO(id);
        REQUIRE(vit::parse_stage_id(id) == s);
    }
    CHECK(vit::stage_id(StageKind::AttnOut, 10) == "block10.attn_out");
    for (const char* id : {"", "banana", "block", "block.attn", "block3.", "block3.banana", "blockx.q",
                           "block99999999999999.attn", "block-1.q", "Block0.q", "block0.norm", "attn"})
        CHECK_FALSE(vit::parse_stage_id(id));
}

TEST_CASE("LayerNorms and residuals read the stage the pre-norm block says they do") {
    auto input = [](const char* id, int depth) {
        return vit::stage_id(*vit::stage_input(*vit::parse_stage_id(id), depth));
    };
    CHECK(input("block0.ln1", 12) == "tokens");
    CHECK(input("block3.ln1", 12) == "block2.out");
    CHECK(input("block3.res1", 12) == "block2.out");
    CHECK(input("block3.ln2", 12) == "block3.res1");
    CHECK(input("block3.out", 12) == "block3.res1");
    CHECK(input("block3.gelu", 12) == "block3.fc1");
    CHECK(input("norm", 12) == "block11.out");
    CHECK(input("norm", 0) == "tokens");
    vit::ModelConfig clip;
    clip.activation = vit::Activation::QuickGelu;
    clip.norm_pre = true;
    CHECK(vit::stage_id(*vit::stage_input({StageKind::MlpOut, 1}, clip)) == "block1.quick_gelu");
    CHECK(vit::stage_id(*vit::stage_input({StageKind::Ln1, 0}, clip)) == "norm_pre");
    vit::ModelConfig giant;
    giant.activation = vit::Activation::SwiGlu;
    CHECK(vit::stage_id(*vit::stage_input({StageKind::MlpOut, 2}, giant)) == "block2.swiglu");
    CHECK_FALSE(vit::stage_input({StageKind::Input}, 12));
    CHECK_FALSE(vit::stage_input({StageKind::Rollout}, 12));
}

// Every fixture with its own checkpoint: 1 or 2 blocks, with and without a head.
TEST_CASE("every stage of the catalogue is produced by the CPU pass with its shape and named by PyTorch") {
    for (const char* name : {"headless", "hf_bf16", "timm_f16_noqkvbias", "timm_f32", "timm_posinterp", "timm_dinov2",
                             "timm_clip", "timm_clip_quickgelu", "timm_dinov2_swiglu"}) {
        const fs::path dir = fs::path(VITVIZ_FIXTURES) / name;
        std::ifstream meta_file(dir / "expected" / "meta.json");
        REQUIRE(meta_file);
        const nlohmann::json meta = nlohmann::json::parse(meta_file);
        const vit::Model model = vit::load_model(dir.string());
        const vit::ModelConfig& c = model.config;
        const int size = meta.at("image_size").get<int>();
        const vit::Tensor input =
            vit::preprocess(vit::load_image((dir / "image.png").string(), c.channels), c.preprocess, size);
        const vit::Trace trace = vit::forward(model, input);
        const vit::ModelSizes sizes = vit::model_sizes(c, size / c.patch_size);

        const std::vector<StageRef> stages = vit::stage_list(c);
        const auto pytorch = meta.at("stages").get<std::vector<std::string>>();
        INFO("fixture " << name << ": " << c.depth << " blocks, " << c.num_classes << " classes");
        REQUIRE(stages.size() == pytorch.size());
        REQUIRE(trace.size() == stages.size());
        for (size_t i = 0; i < stages.size(); ++i) {
            const std::string id = vit::stage_id(stages[i]);
            INFO("stage " << i << " " << id);
            CHECK(pytorch[i] == id);
            const vit::Stage& produced = trace.stages()[i];
            CHECK(produced.ref() == stages[i]);
            CHECK(produced.id == id);
            const std::vector<int64_t> shape = vit::stage_shape(stages[i].kind, sizes);
            CHECK(produced.tensor.shape == shape);
            CHECK(meta.at("shapes").at(id).get<std::vector<int64_t>>() == shape);
        }
    }
}

// "id d0 d1 ..." per stage, as tests/vitref_stages.py prints PyTorch's stages.
static std::vector<std::string> pytorch_stage_lines(const vit::ModelConfig& c, int image, int mlp_ratio) {
    std::ostringstream cmd;
    cmd << "/usr/bin/python3 " << VITVIZ_VITREF_STAGES << " " << image << " " << c.patch_size << " " << c.channels
        << " " << c.embed_dim << " " << c.depth << " " << c.num_heads << " " << mlp_ratio << " " << c.num_classes << " "
        << c.layer_scale << " " << c.norm_pre << " " << vit::stage_def(vit::activation_stage(c.activation)).name;
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.str().c_str(), "r"), pclose);
    REQUIRE(pipe);
    std::vector<std::string> lines;
    char buf[256];
    while (std::fgets(buf, sizeof buf, pipe.get())) lines.emplace_back(buf, std::strcspn(buf, "\n"));
    return lines;
}

TEST_CASE("the PyTorch reference names every stage of the catalogue, in order, with the table's shape", "[process]") {
    struct Case {
        int depth, classes;
        bool layer_scale = false, norm_pre = false;
        vit::Activation activation = vit::Activation::Gelu;
    };
    for (const Case k :
         {Case{1, 5}, Case{2, 0}, Case{3, 7}, Case{2, 3, true}, Case{1, 0, true, true},
          Case{2, 4, false, true, vit::Activation::QuickGelu}, Case{2, 4, true, false, vit::Activation::SwiGlu}}) {
        vit::ModelConfig c;
        c.channels = 3;
        c.patch_size = 4;
        c.embed_dim = 16;
        c.depth = k.depth;
        c.num_heads = 2;
        c.activation = k.activation;
        c.mlp_dim = 4 * c.embed_dim / (k.activation == vit::Activation::SwiGlu ? 2 : 1);  // fc1: 4D wide
        c.num_classes = k.classes;
        c.layer_scale = k.layer_scale;
        c.norm_pre = k.norm_pre;
        const std::vector<std::string> pytorch = pytorch_stage_lines(c, 12, 4);
        const std::vector<StageRef> stages = vit::stage_list(c);
        INFO(k.depth << " blocks, " << k.classes << " classes, LayerScale " << k.layer_scale << ", norm_pre "
                     << k.norm_pre << ", activation " << vit::stage_def(vit::activation_stage(k.activation)).name);
        REQUIRE(pytorch.size() == stages.size());
        for (size_t i = 0; i < stages.size(); ++i) {
            std::string line = vit::stage_id(stages[i]);
            for (int64_t d : vit::stage_shape(stages[i].kind, vit::model_sizes(c, 3))) line += " " + std::to_string(d);
            CHECK(pytorch[i] == line);
        }
    }
}
