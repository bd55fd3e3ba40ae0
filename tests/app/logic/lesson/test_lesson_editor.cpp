// The lesson editor (app/gui/logic/lesson/lesson_editor.h): a lesson written by hand
// round-trips through recording (each step added from its view), editing its
// words in place, saving and loading; reordering, deleting and undoing move the
// shown step with them; saving where it cannot is one message naming the path
// (and nothing is written); recorded images stay found when the lesson moves.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "base/error.h"
#include "logic/state/key_actions.h"
#include "logic/lesson/lesson_editor.h"
#include "pass/stages.h"

using namespace vit::gui;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

const char* kHandWritten = R"({
  "title": "Inside block 2",
  "model": "digits",
  "steps": [
    {"title": "The digit", "stage": "input", "narration": "A handwritten digit, 28 by 28 pixels."},
    {"title": "Patch 4 scores", "stage": "block2.scores", "token": 5, "layer": 2, "head": 1, "colours": "diverging",
     "numbers": false, "question": "Which patch does it score highest?"},
    {"title": "Where CLS looks", "screen": "attention", "layer": 3, "cls_only": true},
    {"title": "What the pixels did", "stage": "block0.attn", "token": 3, "gradients": true}
  ]
})";

Pipeline digits_pipeline() { return make_pipeline(vit::stage_list(4, true), 17, 4); }

// A fresh folder for the files a test writes.
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("vitviz-lesson-editor-" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::vector<std::string> titles(const LessonPlayer& player) {
    std::vector<std::string> out;
    for (const LessonStep& s : player.lesson.steps) out.push_back(s.title);
    return out;
}

std::string save_error(LessonEditor& ed, LessonPlayer& player) {
    try {
        save_edited_lesson(ed, player);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "(no error)";
}

// The hand-written lesson, as if opened from DIR/lesson.json, in the editor.
void open_hand_written(LessonEditor& ed, LessonPlayer& player, const fs::path& dir) {
    player.lesson = parse_lesson(kHandWritten, "lesson.json");
    player.path = (dir / "lesson.json").string();
    edit_lesson(ed, player);
}

}  // namespace

TEST_CASE("a hand-written lesson round-trips through recording its views, editing their words, save and load") {
    const Pipeline p = digits_pipeline();
    const Lesson want = parse_lesson(kHandWritten, "lesson.json");
    const fs::path dir = scratch("round-trip");
    LessonEditor ed;
    LessonPlayer player = new_lesson(ed, "digits", "", (dir / "recorded.json").string());
    CHECK(player.steps() == 0);
    CHECK_FALSE(unsaved_changes(ed, player));

    player.lesson.title = want.title;  // typed in the editor's fields
    for (const LessonStep& s : want.steps) {
        add_view_as_step(player, step_view(s, p, AppState{}), p, "digits", "");
        LessonStep& added = player.lesson.steps[static_cast<size_t>(player.index)];
        CHECK(added.title == "New step");
        added.title = s.title;
        added.narration = s.narration;
        added.question = s.question;
    }
    CHECK(player.index == 3);
    CHECK_FALSE(player.pending);  // the view recorded is the one on screen
    CHECK(unsaved_changes(ed, player));

    save_edited_lesson(ed, player);
    CHECK_FALSE(unsaved_changes(ed, player));
    Lesson recorded = want;
    recorded.steps[2].view.stage = "input";  // a recording names the stage on screen (the file left it to the default)
    CHECK(player.lesson == recorded);
    CHECK(load_lesson((dir / "recorded.json").string()) == recorded);
}

TEST_CASE("moving, deleting and undoing keep the shown step in view, and the saved file has the new order") {
    const Pipeline p = digits_pipeline();
    const fs::path dir = scratch("reorder");
    LessonEditor ed;
    LessonPlayer player;
    open_hand_written(ed, player, dir);
    CHECK(ed.save_path == player.path);
    player.go(1);
    player.pending = false;

    move_step(player, +1);
    CHECK(titles(player) ==
          std::vector<std::string>{"The digit", "Where CLS looks", "Patch 4 scores", "What the pixels did"});
    CHECK(player.index == 2);  // still showing "Patch 4 scores"
    CHECK(unsaved_changes(ed, player));
    move_step(player, -1);
    move_step(player, -1);
    move_step(player, -1);  // already first: stays
    CHECK(titles(player) ==
          std::vector<std::string>{"Patch 4 scores", "The digit", "Where CLS looks", "What the pixels did"});
    CHECK(player.index == 0);

    player.go(3);
    delete_step(ed, player);
    CHECK(titles(player) == std::vector<std::string>{"Patch 4 scores", "The digit", "Where CLS looks"});
    CHECK(player.index == 2);  // the last one left
    player.go(0);
    delete_step(ed, player);
    CHECK(player.step().title == "The digit");
    CHECK(undo_delete(ed, player));
    CHECK(player.step().title == "Patch 4 scores");
    CHECK(undo_delete(ed, player));
    CHECK(titles(player) ==
          std::vector<std::string>{"Patch 4 scores", "The digit", "Where CLS looks", "What the pixels did"});
    CHECK(player.index == 3);
    CHECK(player.pending);  // the step put back is shown again
    CHECK_FALSE(undo_delete(ed, player));

    player.go(1);
    add_view_as_step(player, AppState{}, p, "toy-4x4", "");
    CHECK(player.index == 2);
    CHECK(player.step().model == "toy-4x4");  // not the lesson's model: named

    save_edited_lesson(ed, player);
    const Lesson saved = load_lesson(player.path);
    CHECK(saved.steps.size() == 5);
    CHECK(saved.steps[0].title == "Patch 4 scores");
    CHECK(saved.steps[2].title == "New step");
    CHECK(saved.steps[2].model == "toy-4x4");
    CHECK(saved.steps[4].view.gradients);
}

TEST_CASE("saving where it cannot is one message naming the path, and writes nothing") {
    const fs::path dir = scratch("bad-save");
    LessonEditor ed;
    LessonPlayer player;
    open_hand_written(ed, player, dir);

    ed.save_path = "/nonexistent-vitviz-folder/lesson.json";
    CHECK(save_error(ed, player) ==
          "/nonexistent-vitviz-folder/lesson.json: there is no folder /nonexistent-vitviz-folder");
    CHECK(player.path == (dir / "lesson.json").string());  // still the old file

    ed.save_path = "";
    CHECK_THAT(save_error(ed, player), Contains("type the path of the lesson file"));
    ed.save_path = dir.string();
    CHECK_THAT(save_error(ed, player), Contains(dir.string() + ": is a folder"));

    ed.save_path = (dir / "lesson.json").string();
    player.lesson.steps[1].title = "";  // cleared in the editor
    CHECK(save_error(ed, player) == (dir / "lesson.json").string() + ": step 2: every step needs a 'title'");
    CHECK_FALSE(fs::exists(dir / "lesson.json"));
    CHECK(unsaved_changes(ed, player));

    LessonEditor empty_ed;
    LessonPlayer empty = new_lesson(empty_ed, "digits", "", (dir / "new.json").string());
    CHECK_THAT(save_error(empty_ed, empty), Contains("new.json: the lesson has no steps yet"));
    CHECK_FALSE(fs::exists(dir / "new.json"));
}

TEST_CASE("a recorded image is named relative to the lesson and still found after saving it elsewhere") {
    const Pipeline p = digits_pipeline();
    const fs::path dir = scratch("images");
    fs::create_directories(dir / "a" / "photos");
    fs::create_directories(dir / "b");
    std::ofstream(dir / "a" / "photos" / "cat.png") << "not really a PNG";
    LessonEditor ed;
    LessonPlayer player = new_lesson(ed, "digits", "", (dir / "a" / "lesson.json").string());
    add_view_as_step(player, AppState{}, p, "digits", (dir / "a" / "photos" / "cat.png").string());
    CHECK(player.step().image == "photos/cat.png");
    add_view_as_step(player, AppState{}, p, "digits", "");
    CHECK(player.step().image.empty());  // the lesson's (the model's own)

    ed.save_path = (dir / "b" / "moved.json").string();
    save_edited_lesson(ed, player);
    CHECK(player.lesson.steps[0].image == "../a/photos/cat.png");
    const Lesson loaded = load_lesson((dir / "b" / "moved.json").string());
    CHECK(fs::equivalent(step_image(loaded, player.path, 0), dir / "a" / "photos" / "cat.png"));
}

TEST_CASE("a typed ~/ is the home folder, a new lesson is saved in it by default") {
    CHECK(expand_home("~/lessons/a.json", "/home/t") == "/home/t/lessons/a.json");
    CHECK(expand_home("~", "/home/t") == "/home/t");
    CHECK(expand_home("~other/a.json", "/home/t") == "~other/a.json");
    CHECK(expand_home("lessons/a.json", "/home/t") == "lessons/a.json");
    CHECK(expand_home("~/a.json", nullptr) == "~/a.json");
    CHECK(default_lesson_path("/home/t") == "/home/t/vitviz-lesson.json");
    CHECK(default_lesson_path(nullptr) == "vitviz-lesson.json");
}

TEST_CASE("with the editor open the arrows explore and only PageDown/PageUp step the lesson") {
    LessonPlayer player;
    player.lesson = parse_lesson(kHandWritten, "lesson.json");
    player.pending = false;
    CHECK_FALSE(apply_lesson_key({Key::Right}, player, true));
    CHECK_FALSE(apply_lesson_key({Key::End}, player, true));
    CHECK(player.index == 0);
    CHECK(apply_lesson_key({Key::PageDown}, player, true));
    CHECK(player.index == 1);
    CHECK(apply_lesson_key({Key::Right}, player, false));  // step 2 asks a question: the press shows its answer
    CHECK(player.index == 1);
    CHECK(player.revealed);
    CHECK(apply_lesson_key({Key::Right}, player, false));
    CHECK(player.index == 2);
}

TEST_CASE("R opens and closes the lesson editor, Ctrl+R does nothing") {
    const Pipeline p = digits_pipeline();
    AppState s;
    Bookmarks b;
    CHECK(apply_key({Key::R}, s, p, b).toggle_lesson_editor);
    CHECK(!apply_key({Key::R, true, true}, s, p, b).any());
}
