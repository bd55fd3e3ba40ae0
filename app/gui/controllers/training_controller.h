// TrainingController: the Train window. Starts a run in the background, shows
// the chosen snapshot in the main view (every stage and the attention screen
// run on the probe digit, or on the drawing when the Draw window is open),
// saves it, and takes `--train --tour DIR`'s three screenshots.
#pragma once
#include <memory>
#include <string>

#include "controllers/app_context.h"
#include "controllers/gpu_controller.h"
#include "logic/jobs/training_session.h"
#include "panels/train_panel.h"

namespace vit::gui {

class TrainingController {
public:
    TrainingController(AppContext& app, const GpuController& gpu, std::shared_ptr<Worker> worker);

    void start(bool paused = false);
    // Each frame, when the window is open or `lesson_step` (a lesson's train step shows the run's weights).
    void draw_window(bool lesson_step);
    void after_render(int fb_width, int fb_height);  // --train --tour: the due screenshot

    TrainPanelState& panel() { return train_; }
    TrainingSession& session() { return training_; }
    const TrainingSession& session() const { return training_; }
    void follow_run() { train_shown_.reset(); }  // the main view goes back to the run's weights
    // The main view runs the run's newest weights.
    bool shows_latest() const { return app_.model == training_.latest() && train_shown_ == app_.model; }

private:
    void save(const TrainSnapshot& shot);
    void show_snapshot(const TrainSnapshot& shot);
    void step_tour(const TrainProgress& progress);

    AppContext& app_;
    const GpuController& gpu_;
    TrainPanelState train_;
    TrainingSession training_;
    std::shared_ptr<const Model> train_shown_;  // the snapshot the main view was last asked to run
    int train_probe_shown_ = -1;
    int train_tour_shot_ = 0;  // --train --tour: the next of start, middle, end
    bool capture_train_ = false;
    int train_capture_frames_ = 0;
    std::string train_tour_file_;
};

}  // namespace vit::gui
