// TrainTour (controllers/drivers/train_tour.h): the training run's three
// screenshots.
#include "controllers/drivers/train_tour.h"

#include <cstdio>
#include <filesystem>

#include "controllers/training_controller.h"
#include "services/gl_texture.h"

namespace vit::gui {

namespace fs = std::filesystem;

static constexpr const char* kShotFiles[] = {"train-start.png", "train-middle.png", "train-end.png"};

TrainTour::TrainTour(const DriverParts& parts) : Driver(true), parts_(parts) {
    parts_.training.hold_next_run();  // the first shot is step 0
}

void TrainTour::after_drawn() {
    if (shot_ >= kShots || due_ || !parts_.training.panel().visible) return;
    TrainingSession& run = parts_.training.session();
    const TrainProgress progress = run.progress();
    if (shot_ == 1 && progress.phase == TrainPhase::Running && progress.step * 2 >= progress.total_steps) run.pause();
    const bool due = (shot_ == 0 && progress.phase == TrainPhase::Paused) ||
                     (shot_ == 1 && progress.phase == TrainPhase::Paused && progress.step > 0) ||
                     (shot_ == 2 && progress.phase == TrainPhase::Finished);
    // The view must show the newest weights before the picture is taken.
    if (due && !parts_.app.loader.busy() && parts_.training.shows_latest()) {
        file_ = (fs::path(parts_.app.options.tour_dir) / kShotFiles[shot_]).string();
        due_ = true;
    }
}

void TrainTour::after_render(int fb_width, int fb_height) {
    if (!due_ || ++due_frames_ < kSettleFrames) return;
    due_frames_ = 0;
    due_ = false;
    try {
        save_framebuffer_png(file_, fb_width, fb_height);
    } catch (const std::exception& e) {
        parts_.app.show_error(e.what());
        return finish(1);
    }
    if (++shot_ < kShots) return parts_.training.session().resume();
    std::printf("tour: train-start.png, train-middle.png, train-end.png in %s\n", parts_.app.options.tour_dir.c_str());
    finish(0);
}

}  // namespace vit::gui
