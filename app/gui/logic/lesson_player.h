// Playing a lesson: which step is shown, and whether its view still waits for
// its model and image to load. In lesson mode the stepping keys move through
// the steps (what a presentation clicker sends: PageDown/PageUp, and the
// arrows); the other keys keep their meaning.
#pragma once
#include <string>

#include "input_queue.h"
#include "lesson.h"

namespace vit::gui {

struct LessonPlayer {
    Lesson lesson;
    std::string path;      // the lesson file (images are relative to its folder)
    int index = 0;         // the step shown
    bool pending = true;   // the step's view is applied once its model and image are loaded
    int requested = -1;    // the step whose model and image were last asked of the loader

    int steps() const { return static_cast<int>(lesson.steps.size()); }
    const LessonStep& step() const { return lesson.steps[static_cast<size_t>(index)]; }
    // Moves to step i (clamped); the view follows once loaded.
    void go(int i);
};

// Right, Down, PageDown: next step; Left, Up, PageUp: previous; Home/End: first/last.
// True when the key moved (or tried to move) the lesson; other keys are left to apply_key.
bool apply_lesson_key(const KeyEvent& e, LessonPlayer& player);

}  // namespace vit::gui
