// Claims about the app's UI state, driven without a window: stepping through
// stages and blocks, token/head/layer selection, the colormap of each stage, and
// the screen table's names.
#include <catch2/catch.hpp>

#include "logic/state/app_state.h"
#include "pass/trace.h"

using namespace vit::gui;

static Pipeline toy_pipeline() { return make_pipeline(vit::stage_list(1, true), 5, 2); }
static Pipeline vit_pipeline() { return make_pipeline(vit::stage_list(12, true), 197, 12); }

TEST_CASE("the pipeline groups stages into embedding, one group per block, and head") {
    Pipeline p = vit_pipeline();
    REQUIRE(p.depth == 12);
    REQUIRE(p.group[p.index_of("input")] == 0);
    REQUIRE(p.group[p.index_of("tokens")] == 0);
    REQUIRE(p.group[p.index_of("block0.ln1")] == 1);
    REQUIRE(p.group[p.index_of("block11.out")] == 12);
    REQUIRE(p.group[p.index_of("norm")] == 13);
    REQUIRE(p.group[p.index_of("rollout")] == 13);
    REQUIRE(p.index_of(vit::StageRef{vit::StageKind::Attn, 3}) == p.index_of("block3.attn"));
    REQUIRE(group_name(p, 0) == "Embedding");
    REQUIRE(group_name(p, 4) == "Block 3");
    REQUIRE(group_name(p, 13) == "Head");
}

TEST_CASE("Right and Left step one stage and stop at both ends") {
    Pipeline p = toy_pipeline();
    AppState s;
    prev_stage(s, p);
    REQUIRE(s.stage == 0);
    next_stage(s, p);
    REQUIRE(p.ids[s.stage] == "patches");
    go_to_stage(s, p, p.size() - 1);
    REQUIRE(p.ids[s.stage] == "rollout");
    next_stage(s, p);
    REQUIRE(p.ids[s.stage] == "rollout");
    go_to_stage(s, p, 1000);
    REQUIRE(s.stage == p.size() - 1);
    go_to_stage(s, p, -5);
    REQUIRE(s.stage == 0);
}

TEST_CASE("PageDown jumps to the next block's first stage, PageUp to the start of this or the previous block") {
    Pipeline p = vit_pipeline();
    AppState s;
    go_to_stage(s, p, p.index_of("patch_embed"));
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "block0.ln1");
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "block1.ln1");
    go_to_stage(s, p, p.index_of("block1.attn"));
    prev_block(s, p);
    REQUIRE(p.ids[s.stage] == "block1.ln1");
    prev_block(s, p);
    REQUIRE(p.ids[s.stage] == "block0.ln1");
    prev_block(s, p);
    REQUIRE(p.ids[s.stage] == "input");
    prev_block(s, p);
    REQUIRE(p.ids[s.stage] == "input");
    go_to_stage(s, p, p.index_of("block11.gelu"));
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "norm");
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "rollout");
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "rollout");
}

TEST_CASE("stepping into a block makes it the attention screen's layer") {
    Pipeline p = vit_pipeline();
    AppState s;
    go_to_stage(s, p, p.index_of("block7.q"));
    REQUIRE(s.layer == 7);
    go_to_stage(s, p, p.index_of("norm"));
    REQUIRE(s.layer == 7);
}

TEST_CASE("token selection stays within the T tokens, patches map to token 1 + p") {
    Pipeline p = toy_pipeline();  // T = 5
    AppState s;
    select_token(s, p, 3);
    REQUIRE(s.token == 3);
    select_token(s, p, 99);
    REQUIRE(s.token == 4);
    select_token(s, p, -2);
    REQUIRE(s.token == 0);
    select_patch(s, p, 0);
    REQUIRE(s.token == 1);
    select_patch(s, p, 3);
    REQUIRE(s.token == 4);
}

TEST_CASE("head and layer selection are clamped, -1 means all heads") {
    Pipeline p = vit_pipeline();
    AppState s;
    select_head(s, p, 5);
    REQUIRE(s.head == 5);
    select_head(s, p, 40);
    REQUIRE(s.head == 11);
    select_head(s, p, -7);
    REQUIRE(s.head == -1);
    select_layer(s, p, 20);
    REQUIRE(s.layer == 11);
    select_layer(s, p, -1);
    REQUIRE(s.layer == 0);
}

TEST_CASE("the CLS-only (DINO) view is one toggle: CLS, last layer, attention screen, picking a patch leaves it") {
    Pipeline p = vit_pipeline();
    AppState s;
    select_patch(s, p, 40);
    toggle_cls_attention(s, p);
    REQUIRE(s.cls_only);
    REQUIRE(attention_token(s) == 0);
    REQUIRE(s.layer == 11);
    REQUIRE(s.screen == Screen::Attention);
    REQUIRE(s.token == 41);  // the selection is kept for later
    toggle_cls_attention(s, p);
    REQUIRE(attention_token(s) == 41);
    toggle_cls_attention(s, p);
    select_patch(s, p, 2);
    REQUIRE_FALSE(s.cls_only);
    REQUIRE(attention_token(s) == 3);
}

TEST_CASE("a new, smaller model clamps the stage, token, head and layer") {
    AppState s;
    Pipeline big = vit_pipeline();
    go_to_stage(s, big, big.index_of("block11.attn"));
    select_token(s, big, 150);
    select_head(s, big, 9);
    Pipeline toy = toy_pipeline();
    clamp_state(s, toy);
    REQUIRE(s.stage == toy.size() - 1);
    REQUIRE(s.token == 4);
    REQUIRE(s.head == 1);
    REQUIRE(s.layer == 0);
}

TEST_CASE("signed stages get the diverging colormap, attention and probabilities the sequential one") {
    auto kind = [](const char* id) { return vit::parse_stage_id(id)->kind; };
    for (const char* id :
         {"input", "patches", "patch_embed", "cls", "tokens", "block0.ln1", "block0.q", "block3.scores",
          "block0.context", "block0.res1", "block0.fc1", "block0.gelu", "norm", "logits"})
        REQUIRE(colormap_for(kind(id), ColormapMode::Auto) == Colormap::Diverging);
    for (const char* id : {"block0.attn", "block11.attn", "probs", "rollout"})
        REQUIRE(colormap_for(kind(id), ColormapMode::Auto) == Colormap::Sequential);
    REQUIRE(colormap_for(kind("block0.attn"), ColormapMode::Diverging) == Colormap::Diverging);
    REQUIRE(colormap_for(kind("block0.q"), ColormapMode::Sequential) == Colormap::Sequential);
}

TEST_CASE("a headless model (DINO) has no logits or probs and the head group still works") {
    Pipeline p = make_pipeline(vit::stage_list(2, false), 17, 3);
    REQUIRE(p.index_of("logits") == -1);
    AppState s;
    go_to_stage(s, p, p.index_of("block1.out"));
    next_block(s, p);
    REQUIRE(p.ids[s.stage] == "norm");
}

TEST_CASE("every screen's name reads back as that screen, and the table lists each screen once") {
    const std::vector<ScreenInfo>& table = screen_table();
    REQUIRE(table.size() == 9);
    for (size_t i = 0; i < table.size(); ++i) {
        INFO(table[i].name);
        CHECK(static_cast<size_t>(table[i].value) == i);  // in the enum's order
        Screen read = Screen::Stage;
        REQUIRE(parse_screen(screen_name(table[i].value), read));
        CHECK(read == table[i].value);
        CHECK(std::string(screen_title(table[i].value)) == table[i].title);
    }
    CHECK(std::string(screen_name(Screen::Why)) == "why");
    CHECK(screen_names() ==
          "stage, attention, why, model-view, overview, attention-distance, patch-pca, token-norms or cls-masks");
    Screen untouched = Screen::Why;
    CHECK_FALSE(parse_screen("models", untouched));
    CHECK(untouched == Screen::Why);
}

TEST_CASE("each screen's row gives the keys that show it and what a model must have for it") {
    const char* labels[] = {"", "A", "W", "L", "V", "F", "F F", "F F F", "F ×4"};
    for (const ScreenInfo& screen : screen_table()) {
        INFO(screen.name);
        CHECK(screen_key_label(screen.value) == labels[static_cast<size_t>(screen.value)]);
    }
    CHECK(screens_on_key(Key::A) == std::vector<Screen>{Screen::Attention});
    CHECK(screens_on_key(Key::G).empty());
    const ModelParts all{true, true, true}, dino{true, false, true}, no_cls{true, true, false}, blockless{};
    for (const ScreenInfo& screen : screen_table()) CHECK(screen_lacks(screen.value, all).empty());
    CHECK(screen_lacks(Screen::Why, dino) == "needs a class head, and the model has none");
    CHECK(screen_lacks(Screen::ClsMasks, no_cls) == "needs a CLS token, and the model has none");
    CHECK(screen_lacks(Screen::TokenNorms, no_cls).empty());
    CHECK(screen_lacks(Screen::ModelView, blockless) == "needs attention, and the model has no blocks");
    CHECK(screen_lacks(Screen::Overview, blockless).empty());
    CHECK(make_pipeline(vit::stage_list(1, false), 5, 2).parts().head == false);
    CHECK(make_pipeline(vit::stage_list(1, true), 5, 2).parts().blocks);
}

TEST_CASE("a patch is selected after the model's prefix tokens, and a model without a class token has no CLS view") {
    TokenLayout reg4;
    reg4.prefix = {"CLS", "REG0", "REG1", "REG2", "REG3"};
    const Pipeline p = make_pipeline(vit::stage_list(2, false), 5 + 16, 3, reg4);
    REQUIRE(p.patches() == 16);
    AppState s;
    select_patch(s, p, 3);
    REQUIRE(s.token == 5 + 3);
    toggle_cls_attention(s, p);
    REQUIRE(s.cls_only);
    REQUIRE(attention_token(s) == 0);

    TokenLayout none;
    none.prefix.clear();
    const Pipeline gap = make_pipeline(vit::stage_list(2, true), 16, 3, none);
    AppState g;
    select_patch(g, gap, 3);
    REQUIRE(g.token == 3);
    toggle_cls_attention(g, gap);  // no CLS token: nothing to show, the selected patch stays
    REQUIRE_FALSE(g.cls_only);
    REQUIRE(attention_token(g) == 3);
    g.cls_only = true;  // e.g. a bookmark from another model
    clamp_state(g, gap);
    REQUIRE_FALSE(g.cls_only);
}
