// Lesson files (app/gui/logic/lesson/lesson.h): a hand-written lesson round-trips
// through save and load unchanged, every mistake in a file is one message
// naming the file, the step and the key, steps are checked against the model
// they run on, and a step's view (and its highlight) is what a recording saves;
// hostile files (text too long to draw, 300,000 keys, symbolic link loops) are
// one short message each; a caption's text wraps between words only, so a number
// keeps its decimal point and digits on one line (measured here in characters).
#include <catch2/catch.hpp>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/assets.h"
#include "base/error.h"
#include "logic/describe/drawn_text.h"
#include "logic/lesson/lesson.h"
#include "loading/builtin.h"
#include "pass/stages.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;
namespace fs = std::filesystem;

namespace {

const char* kHandWritten = R"({
  "title": "What attention looks at",
  "model": "digits",
  "steps": [
    {"title": "The digit", "stage": "input", "narration": "A handwritten 7, 28 by 28 pixels."},
    {"title": "Scores", "stage": "block1.scores", "token": 5, "head": 2, "colours": "diverging", "numbers": false,
     "question": "Which patches does patch 4 score highest?", "highlight": {"cell": [2, 5, 9]}},
    {"title": "Where CLS looks", "screen": "attention", "layer": 3, "cls_only": true},
    {"title": "Why a 7?", "screen": "why", "model": "toy-4x4", "highlight": {"patch": 2}},
    {"title": "Gradients", "stage": "block0.attn", "gradients": true, "highlight": {"row": 0}},
    {"title": "Hide the loop", "stage": "probs", "views_show": "difference",
     "interventions": {"mask_patches": "5,6", "drop_tokens": "0-3", "ablate_heads": "0:1,3:2", "no_pos": true,
                       "permute_patches": "15,1-14,0", "temperature": 0.5}},
    {"title": "One patch hidden", "interventions": {"mask_patches": 9}},
    {"title": "Half an epoch", "screen": "model-view", "train": {"epochs": 2, "until_step": 250,
                                                                  "seed": 3, "window": true}},
    {"title": "All of it", "screen": "overview", "train": {}}
  ]
})";

// A pipeline of the digits model's shape: 4 blocks, 4 heads, 17 tokens.
Pipeline digits_pipeline() { return make_pipeline(vit::stage_list(4, true), 17, 4); }

std::string error_of(const std::string& text, const std::string& path = "lesson.json") {
    try {
        parse_lesson(text, path);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

// A message short enough to read: one line, not an echo of a huge value.
bool is_short_line(const std::string& message) {
    return message.size() < 400 && message.find('\n') == std::string::npos;
}

std::string check_error(const Lesson& lesson, int step, const Pipeline& p) {
    try {
        check_step(lesson, step, p, "lesson.json");
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("a hand-written lesson round-trips through save and load unchanged") {
    const Lesson lesson = parse_lesson(kHandWritten, "lesson.json");
    REQUIRE(lesson.steps.size() == 9);
    CHECK(lesson.steps[7].train == LessonTrain{true, 2, 250, 3, true});
    CHECK(lesson.steps[7].view.screen == Screen::ModelView);
    CHECK(lesson.steps[8].train == LessonTrain{true, 1, -1, 0, false});  // a run of one epoch to its end
    CHECK(lesson.steps[8].view.screen == Screen::Overview);
    CHECK(lesson.steps[5].view.interventions.mask == "5,6");
    CHECK(lesson.steps[5].view.interventions.ablate == "0:1,3:2");
    CHECK(lesson.steps[5].view.interventions.temperature == "0.5");
    CHECK(lesson.steps[5].view.interventions.no_pos);
    CHECK(lesson.steps[5].view.views_show == AskShow::Difference);
    CHECK(lesson.steps[6].view.interventions.mask == "9");  // a number stands for its text
    CHECK(lesson.steps[1].highlight.kind == HighlightKind::Cell);
    CHECK(lesson.steps[1].view.colours == ColormapMode::Diverging);
    CHECK_FALSE(lesson.steps[1].view.numbers);
    CHECK(lesson.steps[2].view.screen == Screen::Attention);
    CHECK(step_model(lesson, "lesson.json", 3) == "toy-4x4");
    CHECK(step_model(lesson, "lesson.json", 0) == "digits");

    const fs::path file = fs::temp_directory_path() / "vitviz-test-lesson.json";
    save_lesson(lesson, file.string());
    const Lesson again = load_lesson(file.string());
    CHECK(again == lesson);
    CHECK(lesson_json(again) == lesson_json(lesson));
    CHECK_THAT(lesson_json(lesson), Contains("\"temperature\": 0.5") && Contains("\"mask_patches\": 9") &&
                                        Contains("\"ablate_heads\": \"0:1,3:2\""));
    fs::remove(file);
}

TEST_CASE("every mistake in a lesson file is one message naming the file, the step and the key") {
    CHECK_THAT(error_of("{\"title\": \"x\", \"steps\": [}"), Contains("lesson.json: invalid JSON"));
    CHECK_THAT(error_of(R"({"title": "x"})"), Contains("lesson.json: 'steps' must be a list of at least one step"));
    CHECK_THAT(error_of(R"({"title": "x", "steps": []})"), Contains("'steps' must be a list of at least one step"));
    CHECK_THAT(error_of(R"({"titel": "x", "steps": [{"title": "a"}]})"), Contains("lesson.json: unknown key 'titel'"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a"}, {"title": "b", "stag": "q"}]})"),
               Contains("lesson.json: step 2: unknown key 'stag' (known keys: title,"));
    CHECK_THAT(error_of(R"({"steps": [{"narration": "no title"}]})"), Contains("step 1: every step needs a 'title'"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "token": "three"}]})"),
               Contains("step 1: 'token' must be an integer in [0,") && Contains("got \"three\""));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "head": -2}]})"), Contains("'head' must be an integer in [-1,"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "stage": "block0.atn"}]})"),
               Contains("step 1: 'stage' \"block0.atn\" is not a stage of the catalogue"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "screen": "attn"}]})"),
               Contains("'screen' must be one of stage, attention, why, model-view, overview, "
                        "attention-distance, patch-pca, token-norms, cls-masks, got \"attn\""));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "colours": "rainbow"}]})"),
               Contains("'colours' must be one of auto,"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "numbers": 1}]})"),
               Contains("'numbers' must be true or false, got 1"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "highlight": {"patch": 1, "row": 2}}]})"),
               Contains("step 1: 'highlight': give exactly one of patch, row or cell"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "highlight": {"cell": [1, 2]}}]})"),
               Contains("'cell' must be [head, row, column], got [1,2]"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "highlight": {"pixel": 3}}]})"), Contains("unknown key 'pixel'"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "image": "missing.png"}]})", "/tmp/lessons/l.json"),
               Contains("/tmp/lessons/l.json: step 1: 'image' \"missing.png\" is not a file (looked in /tmp/lessons)"));
    CHECK_THAT(error_of(R"({"steps": [{"title": 7}]})"), Contains("'title' must be text, got 7"));
    CHECK_THROWS_WITH(load_lesson("/nonexistent/lesson.json"), Contains("/nonexistent/lesson.json"));
}

TEST_CASE("a lesson on a Hub model names the lesson played otherwise: a file beside it, kept when saved") {
    const std::string lessons = vit::asset_path("lessons");
    const std::string path = lessons + "/real.json";
    const Lesson lesson =
        parse_lesson(R"({"model": "hf-hub:timm/vit_small_patch16_224.dino", "otherwise": "pixels-to-tokens.json",
                                          "steps": [{"title": "a"}]})",
                     path);
    CHECK(otherwise_path(lesson, path) == lessons + "/pixels-to-tokens.json");
    CHECK(parse_lesson(lesson_json(lesson), path) == lesson);
    CHECK(otherwise_path(parse_lesson(R"({"steps": [{"title": "a"}]})", path), path).empty());
    CHECK_THAT(error_of(R"({"model": "hf-hub:a/b", "otherwise": "none.json", "steps": [{"title": "a"}]})", path),
               Contains("'otherwise' \"none.json\" is not a file (looked in " + lessons + ")"));
    CHECK_THAT(
        error_of(R"({"model": "digits", "otherwise": "pixels-to-tokens.json", "steps": [{"title": "a"}]})", path),
        Contains("but 'model' \"digits\" is not an hf-hub:ORG/NAME model"));
}

TEST_CASE("a step is checked against the model it runs on") {
    const Pipeline p = digits_pipeline();
    auto one = [](const char* step) {
        return parse_lesson(std::string(R"({"steps": [)") + step + "]}", "lesson.json");
    };
    CHECK(check_error(one(R"({"title": "ok", "stage": "block3.attn", "token": 16, "head": 3})"), 0, p) == "(no error)");
    CHECK_THAT(
        check_error(one(R"({"title": "deep", "stage": "block7.attn"})"), 0, p),
        Contains("lesson.json: step 1 (deep): 'stage' \"block7.attn\": the model digits has no such stage (4 blocks)"));
    CHECK_THAT(check_error(one(R"({"title": "t", "token": 17})"), 0, p),
               Contains("'token' 17: the model sees 17 tokens"));
    CHECK_THAT(check_error(one(R"({"title": "l", "layer": 4})"), 0, p), Contains("'layer' 4: the model has 4 blocks"));
    CHECK_THAT(check_error(one(R"({"title": "h", "head": 4})"), 0, p), Contains("'head' 4: the model has 4 heads"));
    CHECK_THAT(check_error(one(R"({"title": "p", "highlight": {"patch": 16}})"), 0, p),
               Contains("'highlight' patch 16: the model has 16 patches"));
    CHECK_THAT(check_error(one(R"({"title": "c", "highlight": {"cell": [0, 3, 17]}})"), 0, p),
               Contains("'highlight' cell [0, 3, 17]"));
    const Pipeline headless = make_pipeline(vit::stage_list(4, false), 17, 4);
    CHECK_THAT(check_error(one(R"({"title": "logits", "stage": "logits"})"), 0, headless), Contains("no head"));
    CHECK_THAT(check_error(one(R"({"title": "w", "screen": "why"})"), 0, headless),
               Contains("'screen' needs a class head, and the model has none"));
    CHECK(check_error(one(R"({"title": "w", "screen": "why"})"), 0, p) == "(no error)");
    const Pipeline blockless = make_pipeline(vit::stage_list(0, true), 17, 1);
    CHECK_THAT(check_error(one(R"({"title": "a", "screen": "attention"})"), 0, blockless),
               Contains("'screen' needs attention, and the model has no blocks"));
    CHECK(check_error(one(R"({"title": "v", "screen": "overview"})"), 0, blockless) == "(no error)");
    CHECK_THAT(check_error(one(R"({"title": "c", "cls_only": true})"), 0, blockless),
               Contains("'cls_only' needs attention, and the model has no blocks"));
}

TEST_CASE("a step's view follows its keys and its highlight, a recorded view plays back the same") {
    const Pipeline p = digits_pipeline();
    const Lesson lesson = parse_lesson(kHandWritten, "lesson.json");
    const AppState scores = step_view(lesson.steps[1], p, AppState{});
    CHECK(p.ids[scores.stage] == "block1.scores");
    CHECK(scores.head == 2);   // the cell's head
    CHECK(scores.token == 5);  // the cell's row
    CHECK(scores.colormap == ColormapMode::Diverging);
    CHECK_FALSE(scores.show_numbers);
    const AppState cls = step_view(lesson.steps[2], p, AppState{});
    CHECK(cls.screen == Screen::Attention);
    CHECK(cls.cls_only);
    CHECK(cls.layer == 3);
    CHECK(step_view(lesson.steps[3], p, AppState{}).token == 3);  // patch 2 is token 3
    CHECK(step_view(lesson.steps[4], p, AppState{}).gradients);

    AppState here;
    go_to_stage(here, p, p.index_of("block2.fc1"));
    select_token(here, p, 7);
    select_head(here, p, 1);
    here.gradients = true;
    const LessonStep recorded = step_from_view(here, p, "digits", "");
    const AppState back = step_view(recorded, p, AppState{});
    CHECK(back.stage == here.stage);
    CHECK(back.token == 7);
    CHECK(back.head == 1);
    CHECK(back.gradients);
}

TEST_CASE("a step's interventions: each bad value is one message naming the file, the step and the key") {
    const Pipeline p = digits_pipeline();
    auto asking = [](const std::string& interventions) {
        return R"({"steps": [{"title": "ok"}, {"title": "ask", "interventions": )" + interventions + "}]}";
    };
    auto checked = [&](const std::string& interventions) {
        return check_error(parse_lesson(asking(interventions), "lesson.json"), 1, p);
    };
    // What the file itself says wrong: found when it is read.
    CHECK_THAT(
        error_of(asking(R"({"mask": "3"})")),
        Contains("lesson.json: step 2: 'interventions': unknown key 'mask' (known keys: mask_patches, drop_tokens, "
                 "ablate_heads, permute_patches, temperature, no_pos)"));
    CHECK_THAT(error_of(asking(R"({"mask_patches": [3, 5]})")),
               Contains("step 2: 'interventions': 'mask_patches' must be text as on the command line") &&
                   Contains("got [3,5]"));
    CHECK_THAT(error_of(asking(R"({"drop_tokens": ""})")),
               Contains("'drop_tokens' must be text") && Contains("got \"\""));
    CHECK_THAT(error_of(asking(R"({"no_pos": "yes"})")),
               Contains("step 2: 'interventions': 'no_pos' must be true or false"));
    CHECK_THAT(error_of(asking(R"("none")")), Contains("step 2: 'interventions': expected a JSON object"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "views_show": "both"}]})"),
               Contains("step 1: 'views_show' must be one of modified, original, difference, got \"both\""));
    // What does not fit the model: found when the step is checked against it.
    CHECK(checked(R"({"mask_patches": "3,5,10-12", "ablate_heads": "3:3", "temperature": 2})") == "(no error)");
    CHECK_THAT(checked(R"({"mask_patches": "3,x"})"),
               Contains("lesson.json: step 2 (ask): 'interventions' mask_patches '3,x': expected a whole number of at "
                        "least 0, got 'x'"));
    CHECK_THAT(checked(R"({"mask_patches": "16"})"),
               Contains("step 2 (ask): 'interventions' mask_patches '16': mask patches: patch 16 is out of range"));
    CHECK_THAT(checked(R"({"mask_patches": "0-15"})"),
               Contains("mask_patches '0-15': mask patches: masking all 16 patches"));
    CHECK_THAT(checked(R"({"drop_tokens": "0-15"})"), Contains("drop_tokens '0-15': drop tokens: dropping all 16"));
    CHECK_THAT(checked(R"({"ablate_heads": "4:0"})"),
               Contains("ablate_heads '4:0': ablate heads: head 4:0 does not exist"));
    CHECK_THAT(checked(R"({"ablate_heads": "2"})"),
               Contains("ablate_heads '2': expected BLOCK:HEAD pairs such as 0:1,3:2, got '2'"));
    CHECK_THAT(checked(R"({"permute_patches": "1,0"})"),
               Contains("permute_patches '1,0': permute patches: the list of 2 numbers is not a permutation of 0-15"));
    CHECK_THAT(checked(R"({"temperature": 0})"),
               Contains("step 2 (ask): 'interventions' temperature '0': temperature:"));
    CHECK_THAT(checked(R"({"temperature": "warm"})"), Contains("temperature 'warm': expected a number, got 'warm'"));
}

TEST_CASE("playing a step asks its interventions, a step without any clears them") {
    const Pipeline p = digits_pipeline();
    const Lesson lesson = parse_lesson(kHandWritten, "lesson.json");
    const AppState asked = step_view(lesson.steps[5], p, AppState{});
    const vit::Interventions iv = to_interventions(asked.ask);
    CHECK(iv.mask_patches == std::vector<int>{5, 6});
    CHECK(iv.drop_tokens == std::vector<int>{0, 1, 2, 3});
    CHECK(iv.ablate_heads == std::vector<vit::HeadRef>{{0, 1}, {3, 2}});
    CHECK(iv.no_positions);
    CHECK(iv.permute_patches.size() == 16);
    CHECK(iv.permute_patches.front() == 15);
    CHECK(iv.temperature == 0.5f);
    CHECK(asked.ask.show == AskShow::Difference);
    const AppState cleared = step_view(lesson.steps[0], p, asked);
    CHECK(to_interventions(cleared.ask).empty());
    CHECK(cleared.ask.show == AskShow::Modified);
}

TEST_CASE("a recorded view keeps the Ask panel's interventions, and they survive save and load") {
    const Pipeline p = digits_pipeline();
    AppState here;
    fit_ask(here.ask, 16, 4, 4);
    for (int patch : {3, 4, 5, 9}) paint_patch(here.ask, patch, true);
    set_head_silenced(here.ask, 2, 1, true);
    set_head_silenced(here.ask, 0, 3, true);
    here.ask.no_positions = true;
    set_shuffle(here.ask, true);
    here.ask.temperature = 0.25f;
    here.ask.show = AskShow::Original;
    const LessonStep recorded = step_from_view(here, p, "digits", "");
    CHECK(recorded.view.interventions.mask == "3-5,9");
    CHECK(recorded.view.interventions.ablate == "0:3,2:1");
    CHECK(recorded.view.interventions.temperature == "0.25");
    CHECK(recorded.view.views_show == AskShow::Original);

    Lesson lesson;
    lesson.title = "recorded";
    lesson.steps = {recorded};
    const Lesson again = parse_lesson(lesson_json(lesson), "lesson.json");
    CHECK(again == lesson);
    const AppState back = step_view(again.steps[0], p, AppState{});
    CHECK(to_interventions(back.ask) == to_interventions(here.ask));
    CHECK(back.ask.show == AskShow::Original);
}

TEST_CASE(
    "a model that is a path is found relative to the lesson file, like an image, a built-in or Hub name stays a name") {
    const fs::path folder = fs::temp_directory_path() / "vitviz-test-lesson-models";
    fs::create_directories(folder / "checkpoints" / "mine");
    std::ofstream(folder / "tiny.safetensors") << "x";
    const std::string path = (folder / "lesson.json").string();
    const Lesson lesson = parse_lesson(R"({"model": "tiny.safetensors", "steps": [
        {"title": "the lesson's model"}, {"title": "a folder", "model": "checkpoints/mine"},
        {"title": "built in", "model": "vit-b-random"}, {"title": "absolute", "model": ")" +
                                           (folder / "tiny.safetensors").string() + R"("},
        {"title": "on the Hub", "model": "hf-hub:timm/vit_small_patch16_224.dino"}]})",
                                       path);
    CHECK(step_model(lesson, path, 0) == (folder / "tiny.safetensors").string());
    CHECK(step_model(lesson, path, 1) == (folder / "checkpoints" / "mine").string());
    CHECK(step_model(lesson, path, 2) == "vit-b-random");
    CHECK(step_model(lesson, path, 3) == (folder / "tiny.safetensors").string());
    CHECK(step_model(lesson, path, 4) == "hf-hub:timm/vit_small_patch16_224.dino");
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "model": "gone/model.safetensors"}]})", path),
               Contains(path + ": step 1: 'model' \"gone/model.safetensors\" is neither a built-in model (" +
                        vit::builtin_model_names(", ") +
                        "), an hf-hub:ORG/NAME model, nor a checkpoint file or "
                        "folder (looked in " +
                        folder.string() + ")"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "model": "hf-hub:no-org"}]})", path),
               Contains(path + ": step 1: 'model': 'hf-hub:no-org': expected hf-hub:ORG/NAME[@REVISION]"));
    CHECK_THAT(vit::builtin_model_names(", "), Contains("toy-4x4, digits, vit-b-random"));
    CHECK_THAT(error_of(R"({"model": "digit", "steps": [{"title": "a"}]})", path),
               Contains(path + ": 'model' \"digit\" is neither a built-in model"));
    fs::remove_all(folder);
}

TEST_CASE("a train step: its keys, its stop against the run, and no model or image of its own") {
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "train": {"epochs": 0}}]})"),
               Contains("step 1: 'train': 'epochs' must be an integer in [1, 200], got 0"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "train": {"until": 5}}]})"),
               Contains("step 1: 'train': unknown key 'until' (known keys: epochs, until_step, seed, window)"));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "train": {"window": "yes"}}]})"),
               Contains("'window' must be true or false"));
    CHECK_THAT(
        error_of(R"({"steps": [{"title": "a", "model": "digits", "train": {}}]})"),
        Contains(
            "step 1: 'train' runs the Train window's digits ViT on its probe digit: leave out 'model' and 'image'"));
    const Lesson lesson = parse_lesson(R"({"steps": [{"title": "far", "train": {"until_step": 900}}]})", "lesson.json");
    CHECK_THROWS_WITH(check_train(lesson, 0, 500, "lesson.json"),
                      Contains("lesson.json: step 1 (far): 'train' until_step 900: a run of 1 epoch has 500 steps"));
    CHECK_NOTHROW(check_train(lesson, 0, 1000, "lesson.json"));
}

TEST_CASE("every screen's name round-trips through a lesson file") {
    for (const ScreenInfo& screen : screen_table()) {
        INFO(screen.name);
        Lesson lesson;
        lesson.title = "screens";
        LessonStep step;
        step.title = "one";
        step.view.screen = screen.value;
        lesson.steps = {step};
        const std::string text = lesson_json(lesson);
        if (screen.value != Screen::Stage)
            CHECK_THAT(text, Contains(std::string("\"screen\": \"") + screen.name + "\""));
        CHECK(parse_lesson(text, "lesson.json") == lesson);
    }
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "screen": "models"}]})"),
               Contains("step 1: 'screen' must be one of stage, attention, why, model-view, overview, "
                        "attention-distance, patch-pca, token-norms, cls-masks, got \"models\""));
}

// Hostile lesson files: text too long to draw, hundreds of thousands of keys,
// symbolic link loops; whatever text is drawn is cut to what Dear ImGui can
// draw in one call (logic/describe/drawn_text.h).
TEST_CASE("a narration, title or question longer than the caption holds is refused naming the step and the key") {
    const std::string huge(1 << 20, 'x');
    std::string error = error_of(R"({"steps": [{"title": "a"}, {"title": "b", "narration": ")" + huge + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 2: 'narration' is 1048576 bytes long; at most 4000 fit on screen"));
    CHECK(is_short_line(error));
    error = error_of(R"({"steps": [{"title": ")" + std::string(301, 't') + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 1: 'title' is 301 bytes long; at most 300"));
    error = error_of(R"({"steps": [{"title": "a", "question": ")" + huge + "\"}]}");
    CHECK_THAT(error, Contains("lesson.json: step 1: 'question' is 1048576 bytes long"));
    error = error_of(R"({"title": ")" + huge + R"(", "steps": [{"title": "a"}]})");
    CHECK_THAT(error, Contains("lesson.json: 'title' is 1048576 bytes long"));
    CHECK(is_short_line(error_of(R"({"steps": [{"title": "a", "model": ")" + huge + "\"}]}")));
    // An unknown key of a megabyte is quoted shortened.
    CHECK(is_short_line(error_of("{\"" + huge + "\": 1, \"steps\": [{\"title\": \"a\"}]}")));
    // At the bound it loads.
    CHECK(parse_lesson(R"({"steps": [{"title": ")" + std::string(300, 't') + R"(", "narration": ")" +
                           std::string(4000, 'n') + "\"}]}",
                       "lesson.json")
              .steps[0]
              .narration.size() == 4000);
}

TEST_CASE("text drawn in one call is cut to what Dear ImGui can draw, a UTF-8 character never split") {
    CHECK(drawn_text("A short caption.") == "A short caption.");
    const std::string fits(kMaxDrawnBytes, 'x');
    CHECK(drawn_text(fits) == fits);
    std::string euros;
    while (euros.size() < (1u << 20)) euros += "\xE2\x82\xAC";  // €, 3 bytes each
    const std::string cut = drawn_text(euros);
    CHECK(cut.size() <= kMaxDrawnBytes);
    CHECK_THAT(cut, EndsWith("… (cut)"));
    const std::string kept = cut.substr(0, cut.size() - std::string("… (cut)").size());
    CHECK(kept.size() % 3 == 0);
    CHECK(kept == euros.substr(0, kept.size()));
}

TEST_CASE("a lesson of 300,000 sibling objects is refused in linear time") {
    std::string members;
    for (int i = 0; i < 300000; ++i) members += ", \"k" + std::to_string(i) + "\": {}";
    const std::clock_t start = std::clock();  // processor time: a loaded test machine does not count
    const std::string error = error_of(R"({"steps": [{"title": "a"}])" + members + "}");
    CHECK(static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC < 3.0);  // generous for a Debug sanitizer build
    CHECK_THAT(error, Contains("lesson.json: unknown key 'k0'"));
    const std::string deep = std::string(65, '[') + std::string(65, ']');
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "narration": )" + deep + "}]}"),
               Contains("lesson.json: invalid JSON: nested deeper than 64 levels"));
}

TEST_CASE("a symbolic link loop as a lesson's model or image is one message naming the file, the step and the key") {
    const fs::path folder = fs::temp_directory_path() / "vitviz-test-lesson-loop";
    fs::remove_all(folder);
    fs::create_directories(folder);
    fs::create_symlink("loop", folder / "loop");
    const std::string path = (folder / "lesson.json").string();
    const std::string reason =
        "cannot be looked at: too many levels of symbolic links (looked in " + folder.string() + ")";
    std::string error = error_of(R"({"model": "loop", "steps": [{"title": "a"}]})", path);
    CHECK_THAT(error, Contains(path + ": 'model' \"loop\" " + reason));
    CHECK(is_short_line(error));
    error = error_of(R"({"steps": [{"title": "a"}, {"title": "b", "image": "loop/x.png"}]})", path);
    CHECK_THAT(error, Contains(path + ": step 2: 'image' \"loop/x.png\" " + reason));
    CHECK_THAT(error_of(R"({"steps": [{"title": "a", "model": "loop"}]})", path),
               Contains(path + ": step 1: 'model' \"loop\""));
    CHECK_THAT(error_of(R"({"image": "loop", "steps": [{"title": "a"}]})", path),
               Contains(path + ": 'image' \"loop\" " + reason));
    fs::remove_all(folder);
}

static float chars(const std::string& line) { return static_cast<float>(line.size()); }

TEST_CASE("wrapping between words never splits a number at its decimal point") {
    // Wrapping that may break after punctuation could end the first line with "at 63."
    const std::string text = "The model answers 1, at 63.3% (was 92.9%).";
    const std::string wrapped = word_wrapped(text, 25.f, chars);
    CHECK(wrapped == "The model answers 1, at\n63.3% (was 92.9%).");
    std::istringstream lines(wrapped);
    for (std::string line; std::getline(lines, line);) CHECK(line.size() <= 25);
}

TEST_CASE("wrapping keeps a too-wide word on its own line and the text's own line breaks") {
    CHECK(word_wrapped("see /a/very/long/path/to/a/file.json now", 10.f, chars) ==
          "see\n/a/very/long/path/to/a/file.json\nnow");
    CHECK(word_wrapped("one two\nthree four", 100.f, chars) == "one two\nthree four");
    CHECK(word_wrapped("a  b", 100.f, chars) == "a b");
    CHECK(word_wrapped("", 10.f, chars).empty());
}
