// What a lesson step's text says. The answer line (app/gui/logic/lesson/step_answer.h):
// the digits model's answer on its 9, and under a question the unmodified answer beside
// it, matching what the CLI prints for the same flags. Live values
// (app/gui/logic/lesson/narration.h): each placeholder reads the pass it names, a
// mistake is one message naming the file, the step and the key, a question's answer
// waits for the next press, and every built-in lesson's quoted values resolve on its
// steps' passes (each step run as the app runs it: its model, image and
// interventions, the unmodified pass and the occlusion map beside it), each highlight
// inside the tensor that draws it.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>

#include "base/assets.h"
#include "base/error.h"
#include "explain/occlusion.h"
#include "loading/load_model.h"
#include "formats/image.h"
#include "logic/lesson/lesson.h"
#include "logic/lesson/lesson_player.h"
#include "logic/lesson/step_answer.h"
#include "hub/hub_name.h"
#include "loading/builtin.h"
#include "model/random_model.h"
#include "loading/toy_model.h"
#include "pass/forward.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

TEST_CASE("a step's answer line names the top class and, under interventions, the unmodified one") {
    const vit::Model model = vit::load_model("digits");
    const std::string nine = vit::asset_path("digits/samples/977-9.png");
    const vit::Tensor input = vit::preprocess(vit::model_image("digits", nine, 1), model.config.preprocess);
    const vit::Trace plain = vit::forward(model, input);
    CHECK_THAT(answer_line(plain, nullptr, model.config.labels), Equals("The model's answer: 9 (92.9%)"));
    vit::Interventions no_positions;
    no_positions.no_positions = true;  // vitviz-cli --no-pos says 1 at 63.3%
    CHECK_THAT(answer_line(vit::forward(model, input, no_positions), &plain, model.config.labels),
               Equals("The model's answer: 1 (63.3%) \xC2\xB7 without the interventions: 9 (92.9%)"));
    vit::Model headless = vit::make_toy_model();  // the toy without its classifier head
    headless.config.num_classes = 0;
    const vit::Tensor toy = vit::preprocess(vit::toy_image(), headless.config.preprocess);
    CHECK(answer_line(vit::forward(headless, toy), nullptr, {}).empty());
}

TEST_CASE("a step's answer line names a pass that produced NaN instead of printing it as a class") {
    vit::Trace nan_pass, plain;
    nan_pass.add(vit::StageRef{vit::StageKind::Probs}, {2}).data = {std::nanf(""), std::nanf("")};
    plain.add(vit::StageRef{vit::StageKind::Probs}, {2}).data = {0.25f, 0.75f};
    const std::vector<std::string> labels = {"0", "1"};
    CHECK_THAT(answer_line(nan_pass, &plain, labels),
               Equals("The model's answer: the pass produced NaN: 2 of the 2 class probabilities are NaN or infinite"
                      " \xC2\xB7 without the interventions: 1 (75.0%)"));
    CHECK_THAT(answer_line(plain, &nan_pass, labels), Contains("without the interventions: the pass produced NaN: "));
}

namespace fs = std::filesystem;

namespace {

struct DigitsPasses {
    vit::Model model = vit::load_model("digits");
    vit::Tensor input = vit::preprocess(vit::model_image("digits", vit::asset_path("digits/samples/977-9.png"), 1),
                                        model.config.preprocess);
    vit::Trace plain = vit::forward(model, input);
};

const DigitsPasses& digits() {
    static const DigitsPasses d;
    return d;
}

std::string read(const std::string& text, const vit::Trace& shown, const vit::Trace* plain = nullptr,
                 const vit::OcclusionMap* occlusion = nullptr) {
    return narrate(text, NarrationPasses{&shown, plain, occlusion, digits().model.config.labels});
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("a placeholder reads the answer, a class's probability and an attention share of the pass") {
    const vit::Trace& nine = digits().plain;
    CHECK_THAT(read("It answers {answer} with {p}; 7 gets {p:7}.", nine),
               Equals("It answers 9 with 92.9%; 7 gets 0.9%."));
    const vit::Tensor& attn = nine.at(vit::StageRef{vit::StageKind::Attn, 0});
    const float share = attn.data[(0 * 17 + 6) * 17 + 2];  // head 0, token 6 (patch 5) to token 2 (patch 1)
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.1f%%", 100.0 * share);
    CHECK(read("{attn:0,0,6,1}", nine) == expected);
    CHECK(read("{patch:attn,0,0,6}", nine) == "1");  // the brightest patch of the row (CLS left out)
    CHECK(read("{attn:0,0,6,top}", nine) == expected);
    CHECK(read("{rollout:cls}", nine).back() == '%');
    CHECK_THAT(read("{p:9} before, {plain.p:9} unmodified", nine), Equals("92.9% before, 92.9% unmodified"));
    CHECK(read("no placeholder at all", nine) == "no placeholder at all");
    CHECK(narrate("{answer} at {p}", NarrationPasses{}) == "\xE2\x80\xA6 at \xE2\x80\xA6");  // the pass on its way
}

TEST_CASE("a placeholder reads the pass under the step's interventions, and `plain.` the unmodified one") {
    vit::Interventions no_pos;
    no_pos.no_positions = true;
    const vit::Trace asked = vit::forward(digits().model, digits().input, no_pos);
    CHECK_THAT(read("{answer} at {p}, was {plain.answer} at {plain.p}", asked, &digits().plain),
               Equals("1 at 63.3%, was 9 at 92.9%"));
    vit::Interventions dropped;
    dropped.drop_tokens = {0, 3};
    const vit::Trace fewer = vit::forward(digits().model, digits().input, dropped);
    CHECK_THAT(error_of([&] { read("{attn:3,0,0,3}", fewer); }),
               Contains("'{attn:3,0,0,3}': patch 3 is not in the pass"));
    CHECK(read("{attn:3,0,0,4}", fewer).back() == '%');  // patch 4 is token 3 now, still named patch 4
}

TEST_CASE("the occlusion map's values read \"…\" until it is complete") {
    const vit::OcclusionMap map = vit::occlusion_map(digits().model, digits().input);
    const std::string costliest = read("{patch:occ}", digits().plain, nullptr, &map);
    CHECK(costliest == "9");  // the bottom of the loop
    char expected[32];
    std::snprintf(expected, sizeof expected, "%.1f%%", 100.0 * (map.top_probability - map.probabilities[9]));
    CHECK(read("{occ:9}", digits().plain, nullptr, &map) == expected);
    CHECK(read("{occ:top}", digits().plain, nullptr, &map) == expected);
    vit::OcclusionMap partial = map;
    partial.computed = 3;
    CHECK(read("{occ:9} on {patch:occ}", digits().plain, nullptr, &partial) == "\xE2\x80\xA6 on \xE2\x80\xA6");
}

TEST_CASE("an occlusion value is read over the patches the pass holds, and only where the model has a head") {
    vit::Interventions dropped;
    dropped.drop_tokens = {9};  // patch 9, the costliest patch of the plain pass
    const vit::Trace fewer = vit::forward(digits().model, digits().input, dropped);
    const vit::OcclusionMap map = vit::occlusion_map(digits().model, digits().input, dropped);
    CHECK_THAT(error_of([&] { read("{occ:9}", fewer, nullptr, &map); }),
               Equals("'{occ:9}': patch 9 is not in the pass (dropped, or beyond its patches)"));
    CHECK(read("{patch:occ}", fewer, nullptr, &map) != "9");
    vit::Model headless = vit::make_toy_model();
    headless.config.num_classes = 0;
    const vit::Trace toy = vit::forward(headless, vit::preprocess(vit::toy_image(), headless.config.preprocess));
    CHECK_THAT(error_of([&] { read("{occ:1}", toy); }), Equals("'{occ:1}': the pass has no stage probs"));
}

TEST_CASE("a model without a CLS token has no CLS row or column to quote") {
    NarrationPasses passes{&digits().plain, nullptr, nullptr, digits().model.config.labels};
    passes.class_token = false;  // as a model whose head averages its patch tokens
    CHECK_THAT(error_of([&] { narrate("{rollout:3}", passes); }),
               Equals("'{rollout:3}': the model has no CLS token, so its rollout has no CLS row"));
    CHECK_THAT(error_of([&] { narrate("{attn:0,0,6,cls}", passes); }),
               Equals("'{attn:0,0,6,cls}': the model has no CLS token"));
    CHECK(narrate("{attn:0,0,6,1}", passes).back() == '%');
}

TEST_CASE("a step that quotes the occlusion map is known before it plays") {
    const Lesson lesson = parse_lesson(R"({"steps": [{"title": "a", "narration": "{p}"},
                                                     {"title": "b", "answer": "{plain.occ:top}", "question": "?"},
                                                     {"title": "c {patch:occ}"}]})",
                                       "lesson.json");
    CHECK_FALSE(step_quotes_occlusion(lesson, 0));
    CHECK(step_quotes_occlusion(lesson, 1));
    CHECK(step_quotes_occlusion(lesson, 2));
}

TEST_CASE("a placeholder the file gets wrong is one message naming the file, the step and the key") {
    auto parse_error = [](const std::string& narration) {
        return error_of([&] {
            parse_lesson(R"({"steps": [{"title": "ok"}, {"title": "t", "narration": ")" + narration + "\"}]}",
                         "lesson.json");
        });
    };
    CHECK_THAT(parse_error("{answr}"),
               Contains("lesson.json: step 2: 'narration' '{answr}': unknown placeholder (known: answer, p"));
    CHECK_THAT(parse_error("{attn:0,0,6}"), Contains("'{attn:0,0,6}': write it as {attn:BLOCK,HEAD,TOKEN,PATCH}"));
    CHECK_THAT(parse_error("{attn:0,x,6,1}"), Contains("'x' is not a whole number"));
    CHECK_THAT(parse_error("{occ:cls}"), Contains("'cls' is not a patch: give a patch number, top, least"));
    CHECK_THAT(parse_error("It says {answer"), Contains("'{answer': a '{' without its '}'"));
    CHECK_THAT(error_of([] { parse_lesson(R"({"steps": [{"title": "t", "answer": "four"}]})", "lesson.json"); }),
               Contains("step 1: 'answer' answers the step's 'question': give one"));
    // What the pass does not hold: found when the step plays.
    const Lesson lesson =
        parse_lesson(R"({"steps": [{"title": "deep", "narration": "{attn:7,0,0,1}"}]})", "lesson.json");
    const NarrationPasses passes{&digits().plain, nullptr, nullptr, digits().model.config.labels};
    CHECK_THAT(error_of([&] { step_text(lesson, 0, passes, "lesson.json"); }),
               Equals("lesson.json: step 1 (deep): 'narration' '{attn:7,0,0,1}': the pass has no stage block7.attn"));
}

TEST_CASE("a step with a question shows it first, the next press its answer, then the next step") {
    LessonPlayer player;
    player.lesson = parse_lesson(R"({"steps": [{"title": "a", "question": "How many?", "answer": "Four."},
                                               {"title": "b"}, {"title": "c", "question": "Why?"}]})",
                                 "lesson.json");
    player.go(0);
    CHECK_FALSE(player.revealed);
    player.next();
    CHECK(player.index == 0);
    CHECK(player.revealed);
    player.next();
    CHECK(player.index == 1);
    CHECK(player.revealed);  // no question: whole at once
    player.next();
    CHECK(player.index == 2);
    CHECK_FALSE(player.revealed);
    player.back();
    player.back();
    CHECK(player.index == 0);
    CHECK(player.revealed);  // going back shows a step whole
    const std::vector<TourShot> plan = lesson_tour_plan(3, false, question_steps(player.lesson));
    std::vector<std::string> files;
    for (const TourShot& s : plan) files.push_back(s.file);
    CHECK(files ==
          std::vector<std::string>{"00-step.png", "00-answer.png", "01-step.png", "02-step.png", "02-answer.png"});
}

// A built-in lesson's Hub model, stood in for by its layout with random weights (no test reaches a Hub):
// the steps' blocks, heads, tokens and quoted values are checked on the real shapes.
static vit::Model stand_in_for_hub_model(const std::string& name) {
    REQUIRE(name == "hf-hub:timm/vit_small_patch16_224.dino");  // the one built-in lesson on a Hub model
    vit::ModelConfig c = vit::deit_small_distilled_config();    // ViT-S/16 at 224: D 384, 6 heads, depth 12
    c.dist_token = false;
    c.num_classes = 0;  // DINO is self-supervised: no classifier
    c.labels.clear();
    return vit::make_random_model(c, 1);
}

// One built-in lesson's step as the app plays it: its texts read on its passes, its highlight inside what draws it.
static void check_builtin_step(const Lesson& lesson, const std::string& path, int i) {
    const LessonStep& step = lesson.steps[static_cast<size_t>(i)];
    INFO(path << ": step " << i + 1 << " (" << step.title << ")");
    const std::string model_name = step_model(lesson, path, i);
    const vit::Model model =
        vit::is_hub_name(model_name) ? stand_in_for_hub_model(model_name) : vit::load_model(model_name);
    const vit::Tensor input = vit::preprocess(
        vit::model_image(model_name, step_image(lesson, path, i), model.config.channels), model.config.preprocess);
    const vit::Trace plain = vit::forward(model, input);
    const Pipeline p = trace_pipeline(plain, model.config);
    REQUIRE_NOTHROW(check_step(lesson, i, p, path));
    const vit::Interventions asked = resolve_interventions(step.view.interventions, p);
    const vit::Trace shown = vit::forward(model, input, asked);
    std::optional<vit::OcclusionMap> map;
    if (model.config.num_classes > 0) map = vit::occlusion_map(model, input, asked);
    const NarrationPasses passes{&shown, asked.empty() ? nullptr : &plain, map ? &*map : nullptr, model.config.labels};
    LessonText text;
    REQUIRE_NOTHROW(text = step_text(lesson, i, passes, path));
    for (const std::string& t : {text.title, text.narration, text.question, text.answer})
        CHECK(t.find('{') == std::string::npos);
    const AppState s = step_view(step, p, AppState{});
    if (step.highlight.kind == HighlightKind::Cell) {  // outlined in the matrix on screen
        REQUIRE(s.cell);
        CHECK(s.cell->stage == p.stages[static_cast<size_t>(s.stage)]);
        const vit::Tensor& m = shown.at(s.cell->stage);
        CHECK(s.cell->slice < m.shape[0]);
        CHECK(s.cell->row < m.shape[1]);
        CHECK(s.cell->col < m.shape[2]);
    }
    if (step.highlight.kind == HighlightKind::Patch) CHECK(s.token == p.layout.count() + step.highlight.patch);
}

TEST_CASE("every built-in lesson's quoted values resolve on its steps' passes, each highlight inside its picture") {
    for (const auto& entry : fs::directory_iterator(vit::asset_path("lessons"))) {
        const std::string path = entry.path().string();
        const Lesson lesson = load_lesson(path);
        for (int i = 0; i < static_cast<int>(lesson.steps.size()); ++i) {
            if (lesson.steps[static_cast<size_t>(i)].train.on) {
                // A training run's weights: checked when the lesson tour plays it (tests/app/tests.cmake).
                CHECK_NOTHROW(step_text(lesson, i, NarrationPasses{}, path));
                continue;
            }
            check_builtin_step(lesson, path, i);
        }
    }
}
