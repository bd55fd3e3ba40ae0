// TrainingController: the Train window. Starts a run in the background, shows
// the chosen snapshot in the main view (every stage and the attention screen
// run on the probe digit, or on the drawing when the Draw window is open),
// and saves it.
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
    void hold_next_run() { hold_next_ = true; }  // the next run starts paused (controllers/drivers/train_tour.h)
    // Each frame, when the window is open or `lesson_step` (a lesson's train step shows the run's weights).
    void draw_window(bool lesson_step);

    TrainPanelState& panel() { return train_; }
    TrainingSession& session() { return training_; }
    const TrainingSession& session() const { return training_; }
    void follow_run() { train_shown_.reset(); }  // the main view goes back to the run's weights
    // The main view runs the run's newest weights.
    bool shows_latest() const { return app_.model == training_.latest() && train_shown_ == app_.model; }

private:
    void save(const TrainSnapshot& shot);
    void show_snapshot(const TrainSnapshot& shot);

    AppContext& app_;
    const GpuController& gpu_;
    TrainPanelState train_;
    TrainingSession training_;
    std::shared_ptr<const Model> train_shown_;  // the snapshot the main view was last asked to run
    int train_probe_shown_ = -1;
    bool hold_next_ = false;
};

}  // namespace vit::gui
