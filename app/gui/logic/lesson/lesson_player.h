// Playing a lesson: which step is shown, whether its view still waits for its
// model and image to load, and the animated change from the step before
// (step_transition.h). In lesson mode the stepping keys move through the steps
// (what a presentation clicker sends: PageDown/PageUp, and the arrows); the
// other keys keep their meaning. While the lesson editor is open the arrows
// explore as usual (to find the next view to record) and only PageDown/PageUp
// step through the lesson. A step with a question stops twice: first the
// question (predict), then on the next press its answer and the model's
// (see); going back shows a step whole.
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
    std::string path;           // the lesson file (images are relative to its folder)
    int index = 0;              // the step shown
    bool pending = true;        // the step's view is applied once its model and image are loaded
    int requested = -1;         // the step whose model and image were last asked of the loader
    StepTransition transition;  // from the view before to the step's
    bool revealed = true;       // false: the step's question waits for the next press to show its answer
    // Played instead of another lesson (its "otherwise"): the caption's line saying which and why
    // (and no further lesson instead); "": the lesson asked for.
    std::string instead_of;

    int steps() const { return static_cast<int>(lesson.steps.size()); }
    const LessonStep& step() const { return lesson.steps[static_cast<size_t>(index)]; }
    // Moves to step i (clamped), its question (if any) not yet answered; the view follows once loaded.
    void go(int i);
    void next();  // the answer of the step's question, else the next step
    void back();  // the step before, whole
};

// Right, Down, PageDown: next (the answer, or the next step); Left, Up, PageUp: previous; Home/End: first/last.
// `exploring` (the editor is open): PageDown/PageUp only.
// True when the key moved (or tried to move) the lesson; other keys are left to apply_key.
bool apply_lesson_key(const KeyEvent& e, LessonPlayer& player, bool exploring = false);

// --lesson FILE --tour DIR: one shot per step, `NN-step.png`, and after a step with a
// question (`questions[i]`) its answer revealed, `NN-answer.png`. With the editor open
// (--edit-lesson), per step the transition into it frozen halfway, `NN-halfway.png`
// (from the second step on), then the step with the editor, `NN-edit.png`.
std::vector<TourShot> lesson_tour_plan(int steps, bool editing, const std::vector<bool>& questions = {});
// Which steps of `lesson` ask a question (lesson_tour_plan's `questions`).
std::vector<bool> question_steps(const Lesson& lesson);

}  // namespace vit::gui
