// Claims about the stage side panel's text (app/gui/logic/describe/stage_info.h): every stage
// of the catalogue (docs/DESIGN.md#stage-catalogue) is described, with the model's real sizes, in
// characters Dear ImGui's default font can draw.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "model/random_model.h"
#include "logic/describe/stage_info.h"
#include "logic/describe/stage_kinds.h"
#include "loading/toy_model.h"
#include "pass/trace.h"

using vit::ModelConfig;
using vit::gui::StageInfo;

namespace {

StageInfo describe_stage(const std::string& id, const ModelConfig& config, int tokens) {
    const auto stage = vit::parse_stage_id(id);
    REQUIRE(stage);
    return vit::gui::describe_stage(*stage, config, tokens);
}

ModelConfig vit_b() { return vit::vit_base_config(); }

ModelConfig vit_tiny() { return vit::vit_tiny_config(); }

// The built-in toy-4x4 (the toy notebook the project started from): 4x4 one-channel
// image, 2x2 patches, embed 8, 2 heads of 4, MLP 16, 3 classes.
ModelConfig toy() { return vit::make_toy_model().config; }

std::vector<std::string> fields(const StageInfo& i) {
    return {i.title, i.formula, i.shapes, i.pytorch, i.explanation, i.notebook_note};
}

// Printable ASCII, plus '\n' between lines: ImGui's default font has every glyph.
bool drawable(const std::string& s) {
    for (unsigned char ch : s)
        if (ch != '\n' && (ch < 0x20 || ch > 0x7e)) return false;
    return true;
}

bool has(const std::string& haystack, const std::string& needle) { return haystack.find(needle) != std::string::npos; }

}  // namespace

TEST_CASE("the app's table has one row per kind of stage, in the catalogue's order") {
    const std::vector<vit::gui::StageKindRow>& table = vit::gui::stage_kind_table();
    REQUIRE(table.size() == static_cast<size_t>(vit::StageKind::Rollout) + 1);
    for (size_t i = 0; i < table.size(); ++i) {
        INFO(vit::stage_def(table[i].kind).name);
        CHECK(static_cast<size_t>(table[i].kind) == i);
        CHECK(table[i].describe != nullptr);
    }
    using vit::gui::CellTrace;
    using vit::gui::StageLook;
    CHECK(vit::gui::stage_kind_row(vit::StageKind::Scores).look == StageLook::AttentionMatrix);
    CHECK(vit::gui::stage_kind_row(vit::StageKind::Ls2).look == StageLook::Mlp);
    CHECK(vit::gui::stage_kind_row(vit::StageKind::Ln2).trace == CellTrace::LayerNorm);
    CHECK(vit::gui::stage_kind_row(vit::StageKind::Gelu).trace == CellTrace::None);
}

TEST_CASE("every stage of a 12-block ViT-B has a title, formula, shapes, PyTorch line and explanation") {
    const auto ids = vit::stage_ids(12, true);
    REQUIRE(ids.size() == 5 + 12 * 14 + 4);
    for (const std::string& id : ids) {
        INFO("stage " << id);
        const StageInfo info = describe_stage(id, vit_b(), 197);
        CHECK_FALSE(info.title.empty());
        CHECK_FALSE(info.formula.empty());
        CHECK_FALSE(info.shapes.empty());
        CHECK_FALSE(info.pytorch.empty());
        CHECK_FALSE(info.explanation.empty());
        CHECK(info.title != id);  // a real description, not the unknown-id fallback
    }
}

TEST_CASE("ViT-B shapes are written with ViT-B's real sizes") {
    const ModelConfig c = vit_b();
    auto shapes = [&](const std::string& id) { return describe_stage(id, c, 197).shapes; };
    CHECK(has(shapes("input"), "(3, 224, 224)"));
    CHECK(has(shapes("patches"), "(N, C*P*P) = (196, 768)"));
    CHECK(has(shapes("patch_embed"), "(196, 768) = (196, 768) @ (768, 768) + (768)"));
    CHECK(has(shapes("cls"), "(197, 768)"));
    CHECK(has(shapes("tokens"), "(197, 768) = (197, 768) + (197, 768)"));
    CHECK(has(shapes("block0.ln1"), "(197, 768)"));
    for (const char* qkv : {"block4.q", "block4.k", "block4.v"}) {
        INFO(qkv);
        CHECK(has(shapes(qkv), "(H, T, Dh) = (12, 197, 64)"));
        CHECK(has(shapes(qkv), "(197, 2304) = (197, 768) @ (768, 2304) + (2304)"));
    }
    CHECK(has(shapes("block7.scores"), "(12, 197, 197) = (12, 197, 64) @ (12, 64, 197) / sqrt(64)"));
    CHECK(has(shapes("block7.attn"), "(12, 197, 197)"));
    CHECK(has(shapes("block7.context"), "(12, 197, 64) = (12, 197, 197) @ (12, 197, 64)"));
    CHECK(has(shapes("block7.context"), "(197, 768)"));
    CHECK(has(shapes("block7.attn_out"), "(197, 768) = (197, 768) @ (768, 768) + (768)"));
    CHECK(has(shapes("block7.fc1"), "(197, 3072) = (197, 768) @ (768, 3072) + (3072)"));
    CHECK(has(shapes("block7.gelu"), "(197, 3072)"));
    CHECK(has(shapes("block7.mlp_out"), "(197, 768) = (197, 3072) @ (3072, 768) + (768)"));
    CHECK(has(shapes("logits"), "(1000) = (768) @ (768, 1000) + (1000)"));
    CHECK(has(shapes("probs"), "(1000)"));
    CHECK(has(shapes("rollout"), "(197, 197) = product of 12 matrices (197, 197)"));
}

TEST_CASE("ViT-Tiny shapes match the ones the notebooks print") {
    const ModelConfig c = vit_tiny();
    CHECK(has(describe_stage("patch_embed", c, 197).shapes, "(196, 192) = (196, 768) @ (768, 192) + (192)"));
    CHECK(has(describe_stage("block0.q", c, 197).shapes, "(H, T, Dh) = (3, 197, 64)"));
    CHECK(has(describe_stage("block0.q", c, 197).shapes, "(197, 576)"));
    CHECK(
        has(describe_stage("block0.scores", c, 197).shapes, "(3, 197, 197) = (3, 197, 64) @ (3, 64, 197) / sqrt(64)"));
}

TEST_CASE("the toy model's shapes use its own sizes: embed 8, patch 2, 4 patches, T = 5") {
    const ModelConfig c = toy();
    for (const std::string& id : vit::stage_ids(1, true)) {
        INFO("stage " << id);
        const StageInfo info = describe_stage(id, c, 5);
        CHECK_FALSE(info.shapes.empty());
        CHECK_FALSE(has(info.shapes, "197"));
        CHECK_FALSE(has(info.shapes, "768"));
    }
    auto shapes = [&](const std::string& id) { return describe_stage(id, c, 5).shapes; };
    CHECK(has(shapes("input"), "(1, 4, 4)"));
    CHECK(has(shapes("patches"), "(N, C*P*P) = (4, 4)"));
    CHECK(has(shapes("patch_embed"), "(4, 8) = (4, 4) @ (4, 8) + (8)"));
    CHECK(has(shapes("cls"), "(5, 8)"));
    CHECK(has(shapes("block0.q"), "(H, T, Dh) = (2, 5, 4)"));
    CHECK(has(shapes("block0.scores"), "(2, 5, 5) = (2, 5, 4) @ (2, 4, 5) / sqrt(4)"));
    CHECK(has(shapes("block0.fc1"), "(5, 16) = (5, 8) @ (8, 16) + (16)"));
    CHECK(has(shapes("logits"), "(3) = (8) @ (8, 3) + (3)"));
    CHECK(has(shapes("rollout"), "(5, 5)"));
}

TEST_CASE("every string is printable ASCII so ImGui's default font draws it") {
    struct Case {
        ModelConfig config;
        int tokens;
    };
    const std::vector<Case> cases = {{vit_b(), 197}, {vit_tiny(), 197}, {toy(), 5}};
    for (const Case& k : cases) {
        std::vector<std::string> ids = vit::stage_ids(k.config.depth, k.config.num_classes > 0);
        for (const std::string& id : ids) {
            const StageInfo info = describe_stage(id, k.config, k.tokens);
            for (const std::string& f : fields(info)) {
                INFO(k.config.name << " stage " << id << ": " << f);
                CHECK(drawable(f));
            }
            INFO(k.config.name << " stage " << id);
            CHECK(info.title.find('\n') == std::string::npos);
        }
    }
}

TEST_CASE("sizes that make no sense do not throw") {
    CHECK_NOTHROW(describe_stage("block0.q", vit_b(), 0));
    ModelConfig broken = vit_b();
    broken.num_heads = 0;
    broken.preprocess.mean.clear();
    CHECK_NOTHROW(describe_stage("block0.scores", broken, 197));
    CHECK_NOTHROW(describe_stage("input", broken, 197));
}

TEST_CASE("a block stage names its block for any block index") {
    CHECK(has(describe_stage("block0.ln1", vit_b(), 197).title, "Block 0"));
    CHECK(has(describe_stage("block11.res1", vit_b(), 197).title, "Block 11"));
    CHECK(has(describe_stage("block40.gelu", vit_b(), 197).title, "Block 40"));
    CHECK(has(describe_stage("block3.out", vit_b(), 197).explanation, "block 4"));
    CHECK(has(describe_stage("block11.out", vit_b(), 197).explanation, "final LayerNorm"));
}

TEST_CASE("the PyTorch lines follow timm and the notebooks") {
    const ModelConfig c = vit_tiny();
    auto py = [&](const std::string& id) { return describe_stage(id, c, 197).pytorch; };
    CHECK(has(py("patch_embed"),
              "self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)"));
    CHECK(has(py("cls"), "x = torch.cat((cls_token.expand(B, -1, -1), x), dim=1)"));
    CHECK(has(py("tokens"), "x = x + self.pos_embed"));
    CHECK(has(py("block0.q"),
              "qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)"));
    CHECK(has(py("block0.scores"), "attn = (q @ k.transpose(-2, -1)) * self.scale"));
    CHECK(has(py("block0.attn"), "attn = attn.softmax(dim=-1)"));
    CHECK(has(py("block0.res1"), "x = x + self.attn(self.norm1(x))"));
    CHECK(has(py("block0.gelu"), "nn.GELU()"));
    CHECK(has(py("block0.out"), "x = x + self.mlp(self.norm2(x))"));
}

TEST_CASE("the seed notebooks' mistakes are pointed out where they happen") {
    const ModelConfig c = vit_tiny();
    const std::string scores = describe_stage("block0.scores", c, 197).notebook_note;
    CHECK(has(scores, "001"));
    CHECK(has(scores, "head_size ** -0.5"));
    CHECK(has(describe_stage("block0.res1", c, 197).notebook_note, "004"));
    CHECK(has(describe_stage("block0.context", c, 197).notebook_note, "002"));
    for (const std::string id :
         {"input", "patches", "patch_embed", "block0.q", "block0.attn", "block0.fc1", "norm", "rollout"})
        CHECK(describe_stage(id, c, 197).notebook_note.empty());
}

TEST_CASE("the input stage explains normalisation with the model's mean and std") {
    const std::string e = describe_stage("input", vit_b(), 197).explanation;
    for (const char* v : {"0.485", "0.456", "0.406", "0.229", "0.224", "0.225", "224"}) {
        INFO(v);
        CHECK(has(e, v));
    }
    CHECK(has(describe_stage("input", toy(), 5).explanation, "unchanged"));
}

TEST_CASE("the rollout explanation names heads, identity, renormalising and multiplying through the blocks") {
    const std::string e = describe_stage("rollout", vit_b(), 197).explanation;
    CHECK(has(e, "averages the 12 heads"));
    CHECK(has(e, "identity"));
    CHECK(has(e, "sum to 1"));
    CHECK(has(e, "multiplies"));
    CHECK(has(e, "12 blocks"));
}

TEST_CASE("a headless model (DINO) still gets a description of logits and the final norm") {
    ModelConfig c = vit_b();
    c.num_classes = 0;
    CHECK(has(describe_stage("norm", c, 197).explanation, "no classifier head"));
    CHECK(has(describe_stage("logits", c, 197).explanation, "no classifier head"));
}

TEST_CASE("the variants' stages (norm_pre, LayerScale, QuickGELU) are described with the model's sizes") {
    ModelConfig c = toy();
    c.layer_scale = c.norm_pre = true;
    c.activation = vit::Activation::QuickGelu;
    for (const vit::StageRef& stage : vit::stage_list(c)) {
        const StageInfo info = vit::gui::describe_stage(stage, c, 5);
        INFO("stage " << vit::stage_id(stage));
        CHECK_FALSE(info.shapes.empty());
        CHECK_FALSE(info.explanation.empty());
        for (const std::string& f : fields(info)) CHECK(drawable(f));
    }
    CHECK(has(describe_stage("block0.ls1", c, 5).shapes, "(5, 8) = (5, 8) * (8), per feature"));
    CHECK(has(describe_stage("block0.ls2", c, 5).explanation, "MLP branch"));
    CHECK(has(describe_stage("block0.quick_gelu", c, 5).shapes, "(5, 16) -> (5, 16)"));
    CHECK(has(describe_stage("norm_pre", c, 5).explanation, "pre_norm"));
}

TEST_CASE("the token layouts of timm's other ViTs: every stage explained in ASCII, prefix tokens and pooling named") {
    const std::vector<ModelConfig> configs = {vit::vit_small_reg4_config(), vit::deit_small_distilled_config(),
                                              vit::vit_medium_gap_config()};
    for (const ModelConfig& c : configs) {
        const int tokens = c.prefix_tokens() + 16 * 16;
        for (const vit::StageRef& stage : vit::stage_list(c)) {
            const StageInfo info = vit::gui::describe_stage(stage, c, tokens);
            INFO(c.name << " stage " << vit::stage_id(stage));
            CHECK_FALSE(info.explanation.empty());
            CHECK_FALSE(info.shapes.empty());
            for (const std::string& f : fields(info)) CHECK(drawable(f));
        }
    }
    const ModelConfig reg4 = vit::vit_small_reg4_config();
    CHECK(describe_stage("cls", reg4, 5 + 256).explanation.find("4 registers (REG0 to REG3)") != std::string::npos);
    CHECK(describe_stage("cls", reg4, 5 + 256).shapes == "(261, 384) = (5, 384) on top of (256, 384)");
    CHECK(describe_stage("tokens", reg4, 5 + 256).explanation.find("the prefix tokens get none") != std::string::npos);
    const ModelConfig gap = vit::vit_medium_gap_config();
    CHECK(describe_stage("cls", gap, 256).explanation.find("no class token") != std::string::npos);
    CHECK(describe_stage("pool", gap, 256).shapes == "(512) = mean over 256 rows of (256, 512)");
    CHECK(describe_stage("logits", gap, 256).explanation.find("the mean of the patch tokens") != std::string::npos);
    const ModelConfig deit = vit::deit_small_distilled_config();
    CHECK(describe_stage("logits_dist", deit, 2 + 196).explanation.find("row 1, the DIST token") != std::string::npos);
    CHECK(describe_stage("logits", deit, 2 + 196).shapes == "(1000) = (logits_cls (1000) + logits_dist (1000)) / 2");
}

TEST_CASE("a masked input is not captioned as only resized, and removed positions are the question's doing") {
    CHECK(vit::gui::input_picture_caption(224, 0) == "2. resized and centre-cropped to 224 x 224");
    CHECK(vit::gui::input_picture_caption(28, 3) ==
          "2. resized and centre-cropped to 28 x 28, then 3 patches masked (Ask the model)");
    const std::string removed = vit::gui::zero_positions_note(true);
    CHECK(removed.find("never trained") == std::string::npos);
    CHECK(removed.find("the question removed it") != std::string::npos);
    CHECK(vit::gui::zero_positions_note(false).find("never trained") != std::string::npos);
}
