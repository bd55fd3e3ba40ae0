// A driver runs the app in place of a person: the tour of the stages or of a
// lesson (and its hand-out), `--train --tour`, `--measure-fps`,
// `--measure-pass`, `--monkey`. make_driver picks one from the command line;
// App calls it at fixed points of each frame and asks nothing else about it.
// A driver reaches the app through DriverParts and ends the run with finish().
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "controllers/app_context.h"
#include "logic/describe/picture_coverage.h"
#include "logic/state/input_queue.h"
#include "logic/state/ui_actions.h"

namespace vit::gui {

class AskController;
class LessonController;
class TrainingController;

class Driver {
public:
    virtual ~Driver() = default;

    virtual void feed(InputQueue&) {}         // before ImGui::NewFrame: this frame's keys, buttons and pointer
    virtual void before_frame(UiActions&) {}  // the app took its finished work; before the keys and the drawing
    virtual void after_drawn() {}             // the frame is laid out, before it is rendered
    virtual void after_render(int /*fb_width*/, int /*fb_height*/) {}  // the framebuffer holds the frame
    virtual void presented() {}                                        // the frame is on screen

    // Whether a person's keys and pointer reach the app; if not, App keeps the pointer off the window
    // (a tour's screenshots have no tooltips) and the keys wait.
    virtual bool takes_person() const { return true; }
    // A lesson's transitions, held at this share of their length (a tour's pictures are the same each run).
    virtual std::optional<double> held_transition() const { return std::nullopt; }

    // What the command line asked is run exactly: an error on screen, or a model too large that would be
    // opened smaller, ends the run with exit code 1. The monkey's random input is allowed its errors.
    bool exact() const { return exact_; }
    void failed() {
        if (exact_) finish(1);
    }
    bool done() const { return done_; }
    int exit_code() const { return exit_code_; }

protected:
    explicit Driver(bool exact) : exact_(exact) {}
    void finish(int exit_code) {
        done_ = true;
        if (exit_code_ == 0) exit_code_ = exit_code;  // a failure stays the answer
    }

private:
    bool exact_;
    bool done_ = false;
    int exit_code_ = 0;
};

// What a driver may use of the app.
struct DriverParts {
    AppContext& app;
    AskController& ask;
    LessonController& lessons;
    TrainingController& training;
    const std::string& asset_dir;
    std::function<bool()> settled;                 // every pass, map and walk the screen shows has arrived
    const std::vector<PixelRect>& figure_regions;  // this frame's view and dock: where a hand-out's figure is cut from
};

// The driver the command line asks for (nullptr: a person drives).
std::unique_ptr<Driver> make_driver(const DriverParts& parts);

}  // namespace vit::gui
