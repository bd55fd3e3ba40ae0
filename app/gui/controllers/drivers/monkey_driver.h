// MonkeyDriver: the driver of `vitviz --monkey SECONDS --seed S`. Each frame it takes
// the next random event (logic/monkey/monkey.h) and feeds it to the app the
// way a user would: keys and mouse buttons through the input queue, the
// pointer and wheel to Dear ImGui, model, comparison model and image switches
// as the panels' UiActions, questions through the Ask panel's state, lesson steps and
// training steps through their controllers. It works in a new temporary
// folder (also HOME), so what the app saves (Ctrl+S, Ctrl+E, the Train and
// lesson editor's Save) lands there; after SECONDS it prints the counts and
// ends the app with exit code 0. A crash or sanitizer report is a finding:
// the seed and model printed at the start replay the same input.
#pragma once
#include <chrono>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "controllers/ask_controller.h"
#include "controllers/drivers/driver.h"
#include "controllers/lesson_controller.h"
#include "controllers/training_controller.h"
#include "logic/monkey/monkey.h"

namespace vit::gui {

class MonkeyDriver : public Driver {
public:
    explicit MonkeyDriver(const DriverParts& parts);

    // Before ImGui::NewFrame: this frame's keys and buttons into `input`, the pointer and wheel to ImGui.
    void feed(InputQueue& input) override;
    // Before the frame: the switches, questions, lesson and training steps; ends the run when its time is up.
    void before_frame(UiActions& actions) override;

private:
    void start();
    void press(InputQueue& input);          // a new event's first frame
    void continue_drag(InputQueue& input);  // a drag's later frames
    void carry_out(const MonkeyEvent& e, UiActions& actions);
    void ask(const MonkeyEvent& e);
    void lesson_step(uint32_t pick);
    void train(const MonkeyEvent& e);
    void count_training();
    void report();  // the counts, and the temporary folder removed

    AppContext& app_;
    AskController& ask_;
    LessonController& lessons_;
    TrainingController& training_;
    std::vector<std::string> images_;         // "" (the model's own) then the gallery's photos
    std::vector<std::string> lessons_files_;  // the built-in lessons
    std::mt19937 rng_;
    std::vector<std::string> models_;  // the models of MonkeyEvent::model (monkey_models)
    bool started_ = false;
    std::string folder_;  // the temporary working folder
    std::chrono::steady_clock::time_point start_;
    MonkeyEvent event_;                   // the event under way
    std::optional<MonkeyEvent> pending_;  // for act()
    int drag_left_ = 0;                   // frames of event_'s drag still to go
    float pointer_x_ = 0.5f, pointer_y_ = 0.5f;
    int trained_step_ = 0;  // the training run's step when last counted
    MonkeyCounts counts_;
};

}  // namespace vit::gui
