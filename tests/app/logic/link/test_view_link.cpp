// The view's link (logic/link/view_link.h): read from a page's address, written
// back as the view changes, checked against the built-in models, images and
// lessons, one message per mistake.
#include <catch2/catch.hpp>

#include "base/assets.h"
#include "base/error.h"
#include "logic/link/view_link.h"

using namespace vit::gui;
using Catch::Matchers::Contains;

TEST_CASE("a link names the model, stage, token, layer, head and the Ask panel's question") {
    const ViewLink link = parse_view_link(
        "?model=digits&stage=block0.attn&screen=attention&token=5&layer=3&head=2"
        "&mask_patches=3,5&temperature=0.5&no_pos=true");
    CHECK(link.model == "digits");
    REQUIRE(link.has_view);
    CHECK(link.view.stage == "block0.attn");
    CHECK(link.view.screen == Screen::Attention);
    CHECK(link.view.token == 5);
    CHECK(link.view.layer == 3);
    CHECK(link.view.head == 2);
    CHECK(link.view.interventions.mask == "3,5");
    CHECK(link.view.interventions.temperature == "0.5");
    CHECK(link.view.interventions.no_pos);
}

TEST_CASE("a link names a Hub model, and the Hub endpoint is the page script's, not the app's") {
    const ViewLink link = parse_view_link("?model=hf-hub%3Atimm%2Fvit_tiny_patch16_224&hub=http%3A%2F%2F127.0.0.1%3A9");
    CHECK(link.model == "hf-hub:timm/vit_tiny_patch16_224");
    CHECK_FALSE(link.has_view);
    CHECK(view_link_query(link) == "?model=hf-hub:timm/vit_tiny_patch16_224");  // ":" and "/" may stand in a query
}

TEST_CASE("a written link reads back as the same view, percent-encoded where it must be") {
    ViewLink link;
    link.model = "digits";
    link.image = "photos/coffee.jpg";
    link.has_view = true;
    link.view.stage = "block2.fc1";
    link.view.token = 7;
    link.view.interventions.ablate = "0:1 3:2";
    const std::string query = view_link_query(link);
    CHECK_THAT(query, Contains("model=digits") && Contains("image=photos/coffee.jpg") && Contains("token=7") &&
                          Contains("ablate_heads=0:1%203:2"));
    const ViewLink back = parse_view_link(query);
    CHECK(back.model == link.model);
    CHECK(back.image == link.image);
    CHECK(back.view == link.view);
    CHECK(view_link_query(ViewLink{}) == "");
}

TEST_CASE("a lesson's link is its name and step") {
    ViewLink link;
    link.lesson = "what-attention-looks-at";
    link.step = 3;
    CHECK(view_link_query(link) == "?lesson=what-attention-looks-at&step=3");
    const Options o = options_from_link(parse_view_link("?lesson=what-attention-looks-at&step=3"), vit::asset_dir());
    CHECK_THAT(o.lesson, Contains("lessons/what-attention-looks-at.json"));
    CHECK(o.lesson_step == 3);
    CHECK_FALSE(o.start_view);
}

TEST_CASE("what a link gets wrong is one message naming the key") {
    auto message = [](const std::string& query) {
        try {
            options_from_link(parse_view_link(query), vit::asset_dir());
        } catch (const vit::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message("?token=banana"), Contains("link: 'token'"));
    CHECK_THAT(message("?stage=block99.nothing"), Contains("'stage'"));
    CHECK_THAT(message("?colour=red"), Contains("unknown key 'colour'"));
    CHECK_THAT(message("?token=1&token=2"), Contains("'token': given twice"));
    CHECK_THAT(message("?step=0&lesson=pixels-to-tokens"), Contains("link: 'step'"));
    CHECK_THAT(message("?model=/etc/passwd"), Contains("link: 'model': '/etc/passwd' is not a built-in model"));
    CHECK_THAT(message("?image=../../etc/passwd"), Contains("link: 'image'"));
    CHECK_THAT(message("?image=/etc/passwd"), Contains("link: 'image'"));
    CHECK_THAT(message("?lesson=../lessons/pixels-to-tokens"), Contains("link: 'lesson'"));
    CHECK_THAT(message("?stage=%zz"), Contains("'%' not followed by two hex digits"));
    CHECK_THAT(message("?" + std::string(9000, 'a')), Contains("longer than"));
    CHECK(message("?model=digits&image=photos/coffee.jpg&stage=block0.attn") == "no error");
}

TEST_CASE("the page's title names the stage, the model and a lesson's step") {
    CHECK(view_title("block0.attn", "digits", 0, 0) == "block0.attn · digits · ViT Visualizer");
    CHECK(view_title("block0.attn", "digits", 2, 11) == "block0.attn · digits · ViT Visualizer · step 2/11");
}
