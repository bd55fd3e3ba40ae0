// Stepping through a lesson (see lesson_player.h).
#include "logic/lesson/lesson_player.h"

#include <algorithm>

namespace vit::gui {

void LessonPlayer::go(int i) {
    const int to = std::clamp(i, 0, std::max(0, steps() - 1));
    revealed = steps() == 0 || lesson.steps[static_cast<size_t>(to)].question.empty();
    if (to == index && !pending) return;
    index = to;
    pending = steps() > 0;
}

void LessonPlayer::next() {
    if (!revealed) revealed = true;
    else go(index + 1);
}

void LessonPlayer::back() {
    go(index - 1);
    revealed = true;
}

bool apply_lesson_key(const KeyEvent& e, LessonPlayer& player, bool exploring) {
    if (!e.press || e.ctrl) return false;
    switch (e.key) {
        case Key::PageDown: player.next(); return true;
        case Key::PageUp: player.back(); return true;
        default: break;
    }
    if (exploring) return false;
    switch (e.key) {
        case Key::Right:
        case Key::Down: player.next(); return true;
        case Key::Left:
        case Key::Up: player.back(); return true;
        case Key::Home: player.go(0); return true;
        case Key::End: player.go(player.steps() - 1); return true;
        default: return false;
    }
}

std::vector<TourShot> lesson_tour_plan(int steps, bool editing, const std::vector<bool>& questions) {
    std::vector<TourShot> plan;
    for (int i = 0; i < steps; ++i) {
        if (editing && i > 0) plan.push_back({0, Screen::Stage, tour_file_name(i, "halfway"), ShotKind::Halfway, i});
        plan.push_back({0, Screen::Stage, tour_file_name(i, editing ? "edit" : "step"), ShotKind::LessonStep, i});
        if (static_cast<size_t>(i) < questions.size() && questions[static_cast<size_t>(i)])
            plan.push_back({0, Screen::Stage, tour_file_name(i, "answer"), ShotKind::LessonAnswer, i});
    }
    return plan;
}

std::vector<bool> question_steps(const Lesson& lesson) {
    std::vector<bool> asks;
    for (const LessonStep& s : lesson.steps) asks.push_back(!s.question.empty());
    return asks;
}

}  // namespace vit::gui
