// Claims about the Ask panel without a window: its state becomes
// the core's Interventions, vitviz takes the same intervention flags as
// vitviz-cli with the same messages, the loader's pass under interventions is
// the core's forward pass, and a bookmark keeps the question.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "logic/ask/ask_compare.h"
#include "logic/ask/pass_banner.h"
#include "logic/state/bookmarks.h"
#include "base/error.h"
#include "pass/forward.h"
#include "loading/builtin.h"
#include "loading/load_model.h"
#include "formats/image.h"
#include "logic/jobs/loader.h"
#include "logic/state/options.h"
#include "logic/describe/token_order.h"
#include "model/random_model.h"

using namespace vit::gui;

static AskState fitted(int patches = 16, int depth = 4, int heads = 4) {
    AskState a;
    fit_ask(a, patches, depth, heads);
    return a;
}

TEST_CASE("an Ask panel with nothing painted or toggled asks nothing") { REQUIRE(to_interventions(fitted()).empty()); }

TEST_CASE("painted patches become masked patches, or dropped tokens once the toggle is on") {
    AskState a = fitted();
    paint_patch(a, 5, true);
    paint_patch(a, 2, true);
    paint_patch(a, 99, true);  // outside the image: ignored
    vit::Interventions iv = to_interventions(a);
    REQUIRE(iv.mask_patches == std::vector<int>{2, 5});
    REQUIRE(iv.drop_tokens.empty());
    set_paint_drops(a, true);
    iv = to_interventions(a);
    REQUIRE(iv.mask_patches.empty());
    REQUIRE(iv.drop_tokens == std::vector<int>{2, 5});
    paint_patch(a, 2, false);  // right-drag clears
    REQUIRE(to_interventions(a).drop_tokens == std::vector<int>{5});
    // Shuffled, the painted patch's token is dropped wherever the shuffle put it (token n + 1 holds
    // patch permutation[n]), and a question read back paints the same patch.
    a.permutation = {1, 0, 2, 3, 4, 6, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    iv = to_interventions(a);
    REQUIRE(iv.drop_tokens == std::vector<int>{6});
    REQUIRE(vit::kept_patches(iv, 16).size() == 15);
    for (int p : vit::kept_patches(iv, 16)) REQUIRE(p != 5);
    AskState back = fitted();
    set_interventions(back, iv);
    REQUIRE(back.marks[5] == PatchMark::Dropped);
    REQUIRE(back.marks[6] == PatchMark::None);
}

TEST_CASE("silenced heads, no positions, the shuffle and the temperature reach the interventions, Reset clears them") {
    AskState a = fitted();
    set_head_silenced(a, 3, 1, true);
    set_head_silenced(a, 0, 2, true);
    a.no_positions = true;
    set_shuffle(a, true);
    a.temperature = 2.5f;
    vit::Interventions iv = to_interventions(a);
    REQUIRE(iv.ablate_heads == std::vector<vit::HeadRef>{{0, 2}, {3, 1}});
    REQUIRE(iv.no_positions);
    std::vector<int> sorted = iv.permute_patches;
    REQUIRE(sorted.size() == 16);
    std::sort(sorted.begin(), sorted.end());
    REQUIRE(sorted != iv.permute_patches);                 // shuffled, not in order…
    for (int i = 0; i < 16; ++i) REQUIRE(sorted[i] == i);  // …but a permutation of 0..15
    REQUIRE(iv.temperature == 2.5f);
    vit::validate_interventions(iv, vit::load_model("digits").config, 4);  // a question the core accepts
    reset_ask(a);
    REQUIRE(to_interventions(a).empty());
}

TEST_CASE("the shuffle is the same permutation for the same seed and another for another seed") {
    REQUIRE(seeded_permutation(49, 7) == seeded_permutation(49, 7));
    REQUIRE(seeded_permutation(49, 7) != seeded_permutation(49, 8));
}

TEST_CASE("a question set from interventions reads back as the same interventions") {
    vit::Interventions iv;
    iv.mask_patches = {1, 3};
    iv.drop_tokens = {7};
    iv.ablate_heads = {{1, 0}};
    iv.temperature = 0.5f;
    AskState a = fitted();
    set_interventions(a, iv);
    REQUIRE(to_interventions(a) == iv);
}

TEST_CASE("a model of other sizes starts the Ask panel with no question") {
    AskState a = fitted();
    paint_patch(a, 1, true);
    fit_ask(a, 16, 4, 4);
    REQUIRE_FALSE(to_interventions(a).empty());
    fit_ask(a, 196, 12, 12);
    REQUIRE(to_interventions(a).empty());
}

TEST_CASE("vitviz takes vitviz-cli's intervention flags and resolves them for the model") {
    Options o = parse_options({"--tour", "out", "--mask-patches", "3,5,10-12", "--drop-tokens", "0", "--ablate-heads",
                               "0:1,3:2", "--no-pos", "--permute-patches", "3,2,1,0,4-15", "--temperature", "2"});
    REQUIRE(o.tour_dir == "out");
    REQUIRE(o.interventions.any());
    const vit::Interventions iv = o.interventions.resolve(vit::load_model("digits").config, 4);
    REQUIRE(iv.mask_patches == std::vector<int>{3, 5, 10, 11, 12});
    REQUIRE(iv.drop_tokens == std::vector<int>{0});
    REQUIRE(iv.ablate_heads == std::vector<vit::HeadRef>{{0, 1}, {3, 2}});
    REQUIRE(iv.no_positions);
    REQUIRE(iv.permute_patches[0] == 3);
    REQUIRE(iv.temperature == 2.0f);
    REQUIRE_FALSE(parse_options({"--tour", "out"}).interventions.any());
}

TEST_CASE("a bad intervention flag is one error naming the flag and its value") {
    const vit::ModelConfig config = vit::load_model("digits").config;
    auto message = [&](std::vector<std::string> args) {
        try {
            parse_options(args).interventions.resolve(config, 4);
        } catch (const vit::Error& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(message({"--mask-patches", "16"}),
               Catch::StartsWith("--mask-patches '16': ") && Catch::Contains("out of range"));
    CHECK_THAT(message({"--mask-patches", "0-15"}), Catch::StartsWith("--mask-patches '0-15': "));
    CHECK_THAT(message({"--drop-tokens", "x"}),
               Catch::StartsWith("--drop-tokens 'x': ") && Catch::Contains("expected a whole number"));
    CHECK_THAT(message({"--ablate-heads", "1"}),
               Catch::StartsWith("--ablate-heads '1': ") && Catch::Contains("BLOCK:HEAD"));
    CHECK_THAT(message({"--ablate-heads", "0:4"}), Catch::StartsWith("--ablate-heads '0:4': "));
    CHECK_THAT(message({"--permute-patches", "0,0,1"}), Catch::StartsWith("--permute-patches '0,0,1': "));
    CHECK_THAT(message({"--temperature", "0"}), Catch::StartsWith("--temperature '0': "));
    CHECK_THAT(message({"--temperature", "warm"}), Catch::StartsWith("--temperature 'warm': "));
    CHECK_THAT(message({"--drop-tokens"}), Catch::Equals("--drop-tokens needs a value"));
}

// Every stage alike to rounding (the BLAS's sums need not be bit-identical from one call to the next).
static void require_same_trace(const vit::Trace& a, const vit::Trace& b) {
    REQUIRE(a.size() == b.size());
    for (size_t i = 0; i < a.size(); ++i) {
        const vit::Tensor &x = a.stages()[i].tensor, &y = b.stages()[i].tensor;
        INFO(a.stages()[i].id);
        REQUIRE(a.stages()[i].id == b.stages()[i].id);
        REQUIRE(x.shape == y.shape);
        float worst = 0.f;  // |x − y| in units of the tolerance 1e-5 + 1e-4·|y|
        for (size_t j = 0; j < x.data.size(); ++j)
            worst = std::max(worst, std::abs(x.data[j] - y.data[j]) / (1e-5f + 1e-4f * std::abs(y.data[j])));
        INFO("largest difference in tolerances " << worst);
        REQUIRE(worst <= 1.f);
    }
}

TEST_CASE("the loader's pass under interventions is the core's forward pass with them, beside the unmodified one") {
    LoadRequest req{"digits", "", 0};
    req.interventions.mask_patches = {5, 6};
    req.interventions.drop_tokens = {9};
    req.interventions.ablate_heads = {{0, 1}};
    req.interventions.temperature = 1.5f;
    const Loaded got = load_and_run(req, nullptr, "");
    const vit::Model& model = *got.model;
    const vit::Tensor input =
        vit::preprocess(vit::model_image("digits", "", model.config.channels), model.config.preprocess);
    require_same_trace(*got.trace, vit::forward(model, input, req.interventions));
    require_same_trace(*got.original, vit::forward(model, input));
    REQUIRE(got.trace->at("tokens").shape[0] == 16);  // 1 + 16 − 1 dropped
    REQUIRE(got.lens.rows() == model.config.depth);

    SECTION("when only the question changes the model and the unmodified pass are reused") {
        LoadRequest next = req;
        next.interventions.temperature = 3.f;
        next.original = got.original;
        const Loaded again = load_and_run(next, got.model, "digits");
        REQUIRE(again.model == got.model);
        REQUIRE(again.original == got.original);
        require_same_trace(*again.trace, vit::forward(model, input, next.interventions));
    }
}

TEST_CASE("with no interventions the unmodified pass is the pass itself") {
    const Loaded got = load_and_run({"toy-4x4", "", 0}, nullptr, "");
    REQUIRE(got.original == got.trace);
}

TEST_CASE("a bookmark keeps the Ask panel's question and restores it") {
    Pipeline p;
    p.ids = {"input", "tokens"};
    p.stages = {{vit::StageKind::Input}, {vit::StageKind::Tokens}};
    p.group = {0, 0};
    p.tokens = 17, p.depth = 4, p.heads = 4;
    AppState s;
    fit_ask(s.ask, 16, 4, 4);
    paint_patch(s.ask, 3, true);
    set_head_silenced(s.ask, 2, 1, true);
    s.ask.no_positions = true;
    const vit::Interventions asked = to_interventions(s.ask);
    Bookmarks b;
    save_bookmark(b, 4, s, p);
    reset_ask(s.ask);
    REQUIRE(to_interventions(s.ask).empty());
    REQUIRE(restore_bookmark(b, 4, s, p));
    REQUIRE(to_interventions(s.ask) == asked);
}

TEST_CASE(
    "a bookmark is the whole saved view: gradients and the pass shown too, and a question that does not fit is left "
    "out") {
    const Pipeline digits = make_pipeline(vit::stage_list(4, true), 17, 4);
    AppState s;
    go_to_stage(s, digits, digits.index_of("block3.attn"));
    s.gradients = true;
    fit_ask(s.ask, 16, 4, 4);
    paint_patch(s.ask, 12, true);
    set_head_silenced(s.ask, 3, 3, true);
    s.ask.show = AskShow::Difference;
    Bookmarks b;
    save_bookmark(b, 2, s, digits);
    REQUIRE(b.slots[1] == capture_view(s, digits));

    AppState back;
    REQUIRE(restore_bookmark(b, 2, back, digits));
    CHECK(back.gradients);
    CHECK(back.ask.show == AskShow::Difference);
    CHECK(to_interventions(back.ask) == to_interventions(s.ask));

    const Pipeline toy = make_pipeline(vit::stage_list(1, true), 5, 2);  // 4 patches, 1 block of 2 heads
    AppState small;
    REQUIRE(restore_bookmark(b, 2, small, toy));
    CHECK(to_interventions(small.ask).empty());  // patch 12 and head 3:3 are not there
    CHECK(toy.ids[small.stage] == "input");      // no block3.attn: the first stage
    CHECK(small.layer == 0);
}

TEST_CASE("the difference of two passes is left out where dropping tokens changed the shape") {
    LoadRequest req{"digits", "", 0};
    req.interventions.drop_tokens = {0};
    const Loaded got = load_and_run(req, nullptr, "");
    const vit::Trace diff = difference_trace(*got.trace, *got.original);
    REQUIRE(diff.find("input"));
    REQUIRE_FALSE(diff.find("tokens"));
    REQUIRE(stages_without_difference(*got.trace, diff) > 0);
    const vit::Tensor& pe = diff.at("patch_embed");
    REQUIRE(*std::max_element(pe.data.begin(), pe.data.end()) == 0.f);  // dropping happens after patch_embed
}

TEST_CASE("the predictions are compared on the classes either pass ranks highest") {
    vit::Tensor before({4}), after({4});
    before.data = {0.7f, 0.2f, 0.05f, 0.05f};
    after.data = {0.1f, 0.1f, 0.75f, 0.05f};
    const std::vector<PredictionChange> rows = compare_predictions(before, after, 2);
    REQUIRE(rows.size() == 2);
    REQUIRE(rows[0].cls == 2);
    REQUIRE(rows[1].cls == 0);
    REQUIRE(rows[1].delta() == Approx(-0.6f));
}

TEST_CASE("a comparison with NaN probabilities is a message naming the pass, not bars") {
    vit::Tensor fine({2}), nan_probs({2});
    fine.data = {0.25f, 0.75f};
    nan_probs.data = {std::nanf(""), 0.5f};
    CHECK(nonfinite_predictions(fine, fine).empty());
    CHECK(nonfinite_predictions(fine, nan_probs) ==
          "the pass produced NaN: 1 of the 2 asked pass's probabilities are NaN or infinite");
    CHECK(nonfinite_predictions(nan_probs, fine) ==
          "the pass produced NaN: 1 of the 2 unmodified pass's probabilities are NaN or infinite");
}

TEST_CASE("attention over kept tokens goes back to image order with zeros for the dropped tokens") {
    vit::Tensor t({1, 3, 3});  // CLS and the tokens of patches 2 and 0 (patch 1 dropped)
    for (int i = 0; i < 9; ++i) t.data[i] = static_cast<float>(i + 1);
    const std::vector<int> kept = {2, 0};
    REQUIRE(tokens_reordered(kept, 3));
    REQUIRE_FALSE(tokens_reordered({0, 1, 2}, 3));
    const std::vector<float> full = square_in_image_order(t, kept, 3);  // 4×4
    REQUIRE(full[0 * 4 + 3] == 2.f);                                    // CLS → patch 2 (row 0, kept column 1)
    REQUIRE(full[3 * 4 + 1] == 6.f);                                    // patch 2 → patch 0 (kept row 1, column 2)
    REQUIRE(full[2 * 4 + 0] == 0.f);                                    // patch 1 was dropped
}

TEST_CASE("views find, name and select each token by the patch its row holds when tokens are shuffled and dropped") {
    const Loaded digits = load_and_run({"digits", "", 0}, nullptr, "");
    const vit::Model& model = *digits.model;
    const vit::Tensor input = vit::preprocess(vit::model_image("digits", "", 1), model.config.preprocess);
    vit::Interventions iv;
    iv.no_positions = true;  // then a patch's token is its embedding wherever it sits
    iv.permute_patches = {3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14};
    iv.drop_tokens = {5};  // token row 6, which holds patch 4 after the shuffle
    const vit::Trace asked = vit::forward(model, input, iv);
    vit::Interventions plain_iv;
    plain_iv.no_positions = true;
    const vit::Trace plain = vit::forward(model, input, plain_iv);

    const TokenRowMap patches = token_row_map(asked, vit::StageKind::Patches, 16);
    REQUIRE_FALSE(patches.reordered());  // the image is cut before the shuffle
    REQUIRE(patches.token_of_row(4) == 5);
    const TokenRowMap embedded = token_row_map(asked, vit::StageKind::PatchEmbed, 16);
    REQUIRE(embedded.token_of_row(0) == 1 + 3);
    REQUIRE(embedded.row_of_token(1 + 4) == 5);
    REQUIRE(embedded.row_of_token(0) == -1);  // no CLS row
    const TokenRowMap tokens = token_row_map(asked, vit::StageKind::Ln1, 16);
    REQUIRE(tokens.row_of_token(0) == 0);
    REQUIRE(tokens.row_of_token(1 + 4) == -1);  // dropped
    const vit::Tensor& got = asked.at("tokens");
    const vit::Tensor& want = plain.at("tokens");
    const int64_t D = got.cols();
    for (int p = 0; p < 16; ++p) {
        const int row = tokens.row_of_token(1 + p);
        if (p == 4) continue;
        INFO("patch " << p << " in row " << row);
        REQUIRE(row > 0);
        REQUIRE(tokens.token_of_row(row) == 1 + p);
        for (int64_t d = 0; d < D; ++d) REQUIRE(got.data[row * D + d] == want.data[(1 + p) * D + d]);
    }
    // A plain pass keeps image order and its names.
    REQUIRE_FALSE(token_row_map(plain, vit::StageKind::Ln1, 16).reordered());
    REQUIRE(token_label(3, false) == "3");
    REQUIRE(token_label(3, true) == "p2");
    REQUIRE(token_name(3, false) == "patch 2 (token 3)");
    REQUIRE(token_name(3, true) == "patch 2");
    REQUIRE(token_name(0, true) == "CLS");
}

TEST_CASE("a model's prefix tokens (CLS, DIST, registers) come before the patches in names, rows and image order") {
    vit::ModelConfig reg4 = vit::vit_small_reg4_config();
    const TokenLayout layout = token_layout(reg4);
    REQUIRE(layout.prefix == std::vector<std::string>{"CLS", "REG0", "REG1", "REG2", "REG3"});
    REQUIRE(token_layout(vit::deit_small_distilled_config()).prefix == std::vector<std::string>{"CLS", "DIST"});
    const TokenLayout none = token_layout(vit::vit_medium_gap_config());
    REQUIRE(none.count() == 0);
    REQUIRE_FALSE(none.has_cls());
    REQUIRE(token_label(0, false, none) == "0");  // without a class token, token 0 is patch 0
    REQUIRE(token_name(0, false, none) == "patch 0 (token 0)");
    REQUIRE(token_label(3, false, layout) == "REG2");
    REQUIRE(token_label(5, false, layout) == "5");
    REQUIRE(token_label(5, true, layout) == "p0");
    REQUIRE(token_name(4, true, layout) == "REG3");
    REQUIRE(token_name(7, false, layout) == "patch 2 (token 7)");

    TokenRowMap shuffled;  // 3 patches after 5 prefix rows: rows 5, 6 hold patches 2 and 0 (patch 1 dropped)
    shuffled.layout = layout;
    shuffled.patches = {2, 0};
    REQUIRE(shuffled.token_of_row(2) == 2);  // REG1 stays where it is
    REQUIRE(shuffled.token_of_row(5) == 5 + 2);
    REQUIRE(shuffled.row_of_token(5 + 0) == 6);
    REQUIRE(shuffled.row_of_token(5 + 1) == -1);
    REQUIRE(shuffled.label(6) == "p0");
    TokenRowMap patch_matrix;  // patch_embed: row r is patch r, no prefix row
    patch_matrix.layout = layout;
    patch_matrix.patch_rows = true;
    patch_matrix.offset = layout.count();
    REQUIRE(patch_matrix.row_of_token(0) == -1);
    REQUIRE(patch_matrix.row_of_token(4) == -1);
    REQUIRE(patch_matrix.token_of_row(0) == 5);
    REQUIRE(patch_matrix.label(3) == "3");

    vit::Tensor t({1, 4, 4});  // CLS, DIST, then the tokens of patches 1 and 0 of 3 (patch 2 dropped)
    for (int i = 0; i < 16; ++i) t.data[i] = static_cast<float>(i + 1);
    const std::vector<float> full = square_in_image_order(t, {1, 0}, 3, 2);  // 5×5
    REQUIRE(full[1 * 5 + 0] == 5.f);                                         // DIST → CLS stays
    REQUIRE(full[0 * 5 + 3] == 3.f);                                         // CLS → patch 1 (kept column 2)
    REQUIRE(full[2 * 5 + 3] == 15.f);  // patch 0 (kept row 3) → patch 1 (kept column 2)
    REQUIRE(full[4 * 5 + 4] == 0.f);   // patch 2 was dropped
}

TEST_CASE("the kinds of prefix token name the registers once") {
    REQUIRE(prefix_kinds(token_layout(vit::vit_small_reg4_config())) == "CLS, REG");
    REQUIRE(prefix_kinds(token_layout(vit::deit_small_distilled_config())) == "CLS, DIST");
    REQUIRE(prefix_kinds(token_layout(vit::vit_medium_gap_config())).empty());
}

TEST_CASE("an occlusion map fits only a pass with its number of patches and its class") {
    const vit::Model toy = vit::load_model("toy-4x4");  // 4 patches of 2 × 2 on a 4 × 4 input
    const vit::Tensor input({1, 4, 4});
    vit::OcclusionMap map;
    map.probabilities.assign(4, 0.5f);
    map.top_class = 0;
    CHECK(occlusion_fits(map, toy, input));
    CHECK_FALSE(occlusion_fits(map, toy, vit::Tensor({1, 8, 8})));  // another image size: 16 patches
    map.top_class = static_cast<int>(toy.config.labels.size());
    CHECK_FALSE(occlusion_fits(map, toy, input));  // another model's class
}

TEST_CASE("the banner over every screen names what was asked, and nothing for the plain pass") {
    vit::Interventions iv;
    REQUIRE(modified_pass_text(iv, AskShow::Modified).empty());
    iv.temperature = 0.3f;
    REQUIRE(modified_pass_text(iv, AskShow::Modified) == "MODIFIED PASS: attention temperature 0.3");
    iv.mask_patches = {1, 2, 3};
    iv.drop_tokens = {5};
    iv.ablate_heads = {{1, 2}};
    iv.no_positions = true;
    iv.permute_patches = {1, 0};
    CHECK(modified_pass_text(iv, AskShow::Original) ==
          "MODIFIED PASS: attention temperature 0.3 · 3 patches masked · 1 token dropped · head 1.2 silenced "
          "(block.head) · no positional embedding · patches permuted · showing the unmodified pass");
}

TEST_CASE("the status bar names the answer from the first screen, and says loading before a model is there") {
    vit::Trace trace;
    vit::Tensor& probs = trace.add({vit::StageKind::Probs}, {3});
    probs.data = {0.1f, 0.85f, 0.05f};
    vit::ModelConfig config;
    config.num_classes = 3;
    config.labels = {"zero", "one", "two"};
    CHECK(prediction_text(trace, config) == "prediction: one (85%)");
    config.num_classes = 0;
    CHECK(prediction_text(trace, config) == "prediction: n/a (no classifier)");
    CHECK(status_model_text("digits", false, 0, 0, 0) == "loading model digits …");
    CHECK(status_model_text("digits", true, 64, 4, 4) == "model digits  (D=64, 4 heads, 4 blocks)");
}

TEST_CASE("a model with random weights says so over every screen, a trained one does not") {
    for (const char* name :
         {vit::kRandomVitB, vit::kRandomReg4, vit::kRandomDistilled, vit::kRandomGap, vit::kRandomClip})
        CHECK_THAT(random_weights_text(vit::load_model(name).config), Catch::Matchers::StartsWith("RANDOM WEIGHTS: "));
    CHECK(random_weights_text(vit::load_model(vit::kDigitsModel).config).empty());
    CHECK(random_weights_text(vit::load_model("toy-4x4").config).empty());
}
