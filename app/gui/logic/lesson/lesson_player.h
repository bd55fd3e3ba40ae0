// Playing a lesson: which step is shown, whether its view still waits for its
// model and image to load, and the animated change from the step before
// (step_transition.h). In lesson mode the stepping keys move through the steps
// (what a presentation clicker sends: PageDown/PageUp, and the arrows); the
// other keys keep their meaning. While the lesson editor is open the arrows
// explore as usual (to find the next view to record) and only PageDown/PageUp
// step through the lesson.
#pragma once
#include <string>
#include <vector>

#include "logic/state/input_queue.h"
#include "logic/lesson/lesson.h"
#include "logic/lesson/step_transition.h"
#include "logic/state/tour.h"

namespace vit::gui {

struct LessonPlayer {
    Lesson lesson;
    std::string path;      // the lesson file (images are relative to its folder)
    int index = 0;         // the step shown
    bool pending = true;   // the step's view is applied once its model and image are loaded
    int requested = -1;    // the step whose model and image were last asked of the loader
    StepTransition transition;  // from the view before to the step's

    int steps() const { return static_cast<int>(lesson.steps.size()); }
    const LessonStep& step() const { return lesson.steps[static_cast<size_t>(index)]; }
    // Moves to step i (clamped); the view follows once loaded.
    void go(int i);
};

// Right, Down, PageDown: next step; Left, Up, PageUp: previous; Home/End: first/last.
// `exploring` (the editor is open): PageDown/PageUp only.
// True when the key moved (or tried to move) the lesson; other keys are left to apply_key.
bool apply_lesson_key(const KeyEvent& e, LessonPlayer& player, bool exploring = false);

// --lesson FILE --tour DIR: one shot per step, `NN-step.png`. With the editor open
// (--edit-lesson), per step the transition into it frozen halfway, `NN-halfway.png`
// (from the second step on), then the step with the editor, `NN-edit.png`.
std::vector<TourShot> lesson_tour_plan(int steps, bool editing);

}  // namespace vit::gui
