// Recording and editing a lesson (see lesson_editor.h).
#include "logic/lesson/lesson_editor.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "base/error.h"

namespace vit::gui {

namespace fs = std::filesystem;

namespace {

fs::path folder_of(const std::string& lesson_path) {
    const fs::path folder = fs::path(lesson_path).parent_path();
    return fs::absolute(folder.empty() ? fs::path(".") : folder).lexically_normal();
}

// `image` (a path as the app opened it) as the lesson file at `lesson_path` names it.
std::string relative_to_lesson(const std::string& image, const std::string& lesson_path) {
    if (image.empty()) return "";
    return fs::absolute(image).lexically_normal().lexically_proximate(folder_of(lesson_path)).generic_string();
}

// An image named relative to the lesson at `from`, named relative to the lesson at `to`.
void repoint(std::string& image, const std::string& from, const std::string& to) {
    if (image.empty() || fs::path(image).is_absolute()) return;
    image = (folder_of(from) / image).lexically_normal().lexically_proximate(folder_of(to)).generic_string();
}

}  // namespace

void edit_lesson(LessonEditor& ed, const LessonPlayer& player) {
    ed.saved = player.lesson;
    ed.save_path = player.path;
    ed.deleted.clear();
}

LessonPlayer new_lesson(LessonEditor& ed, const std::string& model, const std::string& image, const std::string& path) {
    LessonPlayer player;
    player.lesson.title = "New lesson";
    player.lesson.model = model;
    player.lesson.image = relative_to_lesson(image, path);
    player.path = path;
    player.pending = false;
    ed.saved = player.lesson;
    ed.save_path = path;
    ed.deleted.clear();
    return player;
}

std::string default_lesson_path(const char* home) {
    const std::string name = "vitviz-lesson.json";
    return home && *home ? (fs::path(home) / name).string() : name;
}

bool unsaved_changes(const LessonEditor& ed, const LessonPlayer& player) { return !(player.lesson == ed.saved); }

void add_view_as_step(LessonPlayer& player, const AppState& view, const Pipeline& p, const std::string& model,
                      const std::string& image) {
    const Lesson& lesson = player.lesson;
    const std::string own_image = relative_to_lesson(image, player.path);
    LessonStep step =
        step_from_view(view, p, model == lesson.model ? "" : model, own_image == lesson.image ? "" : own_image);
    const int at = player.steps() == 0 ? 0 : player.index + 1;
    player.lesson.steps.insert(player.lesson.steps.begin() + at, std::move(step));
    player.index = at;
    player.pending = false;  // its view is the one on screen
}

void move_step(LessonPlayer& player, int delta) {
    const int to = player.index + delta;
    if (to < 0 || to >= player.steps() || delta == 0) return;
    std::swap(player.lesson.steps[static_cast<size_t>(player.index)], player.lesson.steps[static_cast<size_t>(to)]);
    player.index = to;
}

void delete_step(LessonEditor& ed, LessonPlayer& player) {
    if (player.steps() == 0) return;
    auto& steps = player.lesson.steps;
    ed.deleted.emplace_back(player.index, steps[static_cast<size_t>(player.index)]);
    steps.erase(steps.begin() + player.index);
    player.index = std::min(player.index, std::max(0, player.steps() - 1));
    player.pending = player.steps() > 0;
}

bool undo_delete(LessonEditor& ed, LessonPlayer& player) {
    if (ed.deleted.empty()) return false;
    auto [at, step] = std::move(ed.deleted.back());
    ed.deleted.pop_back();
    at = std::min(at, player.steps());
    player.lesson.steps.insert(player.lesson.steps.begin() + at, std::move(step));
    player.index = at;
    player.pending = true;
    return true;
}

void save_edited_lesson(LessonEditor& ed, LessonPlayer& player) {
    const std::string path = expand_home(ed.save_path, std::getenv("HOME"));
    if (path.empty()) throw Error("Save: type the path of the lesson file first (for example ~/my-lesson.json)");
    std::error_code unreadable;  // a path the system cannot look at (a symbolic link loop) fails when written
    if (fs::is_directory(path, unreadable))
        throw Error(path + ": is a folder; type a file name such as " + (fs::path(path) / "lesson.json").string());
    if (!fs::is_directory(folder_of(path), unreadable))
        throw Error(path + ": there is no folder " + folder_of(path).string());
    if (player.steps() == 0) throw Error(path + ": the lesson has no steps yet (add this view as a step first)");
    Lesson out = player.lesson;
    repoint(out.image, player.path, path);
    for (LessonStep& s : out.steps) repoint(s.image, player.path, path);
    parse_lesson(lesson_json(out), path);  // what would not load is not written
    save_lesson(out, path);
    player.lesson = out;
    player.path = path;
    ed.saved = std::move(out);
    ed.save_path = path;
}

std::string expand_home(const std::string& path, const char* home) {
    if (!home || !*home || path.empty() || path[0] != '~' || (path.size() > 1 && path[1] != '/')) return path;
    return std::string(home) + path.substr(1);
}

}  // namespace vit::gui
