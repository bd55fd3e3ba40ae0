// Recording and editing a lesson in the app: start a new lesson or
// edit the one playing, add the view on screen as a step after the shown one,
// edit a step's words in place, move the shown step up or down, delete it (undo
// brings it back), jump to a step, and save to a typed path. It edits the
// LessonPlayer's lesson directly, so the lesson plays as usual while it is
// edited; the panel (panels/lesson_editor_panel) draws it and the tests
// (tests/app/logic/lesson/test_lesson_editor.cpp) drive it without a window.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "logic/lesson/lesson_player.h"

namespace vit::gui {

struct LessonEditor {
    bool visible = false;
    std::string save_path;  // as typed; "~/" is the home folder
    Lesson saved;           // the lesson as last opened or saved (unsaved changes: it differs)
    std::vector<std::pair<int, LessonStep>> deleted;  // undo: each deleted step and its place, the last on top
};

// Editing the lesson `player` plays; saving goes back to its file by default.
void edit_lesson(LessonEditor& ed, const LessonPlayer& player);
// A new lesson with no steps yet, on `model` (and `image`: "" for the model's own), to be
// saved at `path` (its folder is where the steps' images are looked for).
LessonPlayer new_lesson(LessonEditor& ed, const std::string& model, const std::string& image, const std::string& path);
// Where a new lesson is saved unless the teacher types another path: ~/vitviz-lesson.json
// (the working folder when there is no home).
std::string default_lesson_path(const char* home);

bool unsaved_changes(const LessonEditor& ed, const LessonPlayer& player);

// The view on screen (`model` and `image` as loaded: a path, or "" for a built-in model's
// own image) as a new step after the shown one, which it becomes. The step names a model or
// image only where it differs from the lesson's; an image path is kept relative to the
// lesson's folder.
void add_view_as_step(LessonPlayer& player, const AppState& view, const Pipeline& p, const std::string& model,
                      const std::string& image);
// The shown step one place earlier (-1) or later (+1); it stays the shown step.
void move_step(LessonPlayer& player, int delta);
// Deletes the shown step (kept for undo_delete); the next one is shown.
void delete_step(LessonEditor& ed, LessonPlayer& player);
// Puts the last deleted step back in its place and shows it; false when nothing was deleted.
bool undo_delete(LessonEditor& ed, LessonPlayer& player);

// Writes the lesson to ed.save_path (images re-pointed when the folder changes) and
// plays it from there. The file written is first read back as a lesson, so a file
// that would not load is never written. Throws vit::Error naming the path (and the
// step and key) for no path, a folder that does not exist, a lesson with no steps,
// a step without a title, or a file that cannot be written.
void save_edited_lesson(LessonEditor& ed, LessonPlayer& player);

// "~/x.json" → "HOME/x.json"; other paths unchanged.
std::string expand_home(const std::string& path, const char* home);

}  // namespace vit::gui
