// TrainingController (controllers/training_controller.h): starting a run,
// showing the chosen snapshot in the main view, saving it, and
// `--train --tour DIR`'s three screenshots.
#include "controllers/training_controller.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "loading/load_model.h"
#include "logic/state/export.h"
#include "platform/files.h"
#include "platform/gl_texture.h"
#include "formats/model_writer.h"

namespace vit::gui {

namespace fs = std::filesystem;

// The name the loader and the title give the model being trained.
static constexpr const char* kTrainingModelName = "digits ViT in training";

TrainingController::TrainingController(AppContext& app, const GpuController& gpu, std::shared_ptr<Worker> worker)
    : app_(app), gpu_(gpu), training_(std::move(worker)) {}

void TrainingController::start(bool paused) {
    try {
        if (!train_.data) {
            train_.data = std::make_shared<const DigitSplit>(load_shipped_digits());
            const std::vector<int>& labels = train_.data->held_out.labels;  // the first 7, as the Draw window's sample
            const auto seven = std::find(labels.begin(), labels.end(), 7);
            train_.probe = seven == labels.end() ? 0 : static_cast<int>(seven - labels.begin());
        }
        Model initial = train_.from_shipped ? load_model(kDefaultModel) : init_model(digits_config(), train_.seed);
        TrainOptions o;
        o.epochs = train_.epochs;
        o.batch = train_.batch;
        o.lr = train_.lr;
        o.seed = static_cast<uint32_t>(train_.seed);
        // One core stays with the window, so it keeps drawing smoothly.
        const int threads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
        const bool tour_start =
            app_.options.train && app_.touring() && train_tour_shot_ == 0;  // the first shot is step 0
        training_.start(std::move(initial), train_.data, o, threads, 25, tour_start || paused);
        train_.follow = true;
        train_shown_.reset();
    } catch (const std::exception& e) {
        app_.show_error(e.what());
    }
}

void TrainingController::save(const TrainSnapshot& shot) {
    try {
        save_checkpoint(train_.save_dir, *shot.model);
        app_.show_notice("saved step " + std::to_string(shot.step) + " to " + std::string(train_.save_dir) +
                         " (model.safetensors, config.json): open it with Open model or --model " + train_.save_dir);
    } catch (const std::exception& e) {
        app_.show_error(e.what());
    }
}

// Runs the main view on `shot` when it or the probe digit changed (one forward at a time).
void TrainingController::show_snapshot(const TrainSnapshot& shot) {
    if (app_.loader.busy() || !train_.data || train_.data->held_out.size() == 0) return;
    if (shot.model == train_shown_ && train_.probe == train_probe_shown_) return;
    train_shown_ = shot.model;
    train_probe_shown_ = train_.probe;
    app_.model = shot.model;
    app_.model_name = kTrainingModelName;
    if (app_.draw.visible && !app_.draw.canvas.empty()) return app_.send_canvas();
    LoadRequest r{app_.model_name, "", 0};
    r.pixels = std::make_shared<const Image>(digit_image(train_.data->held_out, train_.probe));
    r.pixels_name = "held-out digit " + std::to_string(train_.probe + 1) + " (a " +
                    std::to_string(train_.data->held_out.labels[train_.probe]) + ")";
    app_.loader.request(r, app_.model, app_.model_name);
}

void TrainingController::draw_window(bool lesson_step) {
    // A lesson's train step shows the run's weights in the main view, with or without the window.
    if (!train_.visible && !lesson_step) return;
    const TrainProgress progress = training_.progress();
    TrainActions actions;
    DrawTrainPanel(train_, training_, progress, app_.trace ? gpu_.shown_trace().get() : nullptr, app_.model.get(),
                   actions);
    if (actions.start) start();
    const TrainSnapshot* shot = choose_snapshot(progress, train_.follow, train_.snapshot);
    if (actions.save && shot) save(*shot);
    if (shot) show_snapshot(*shot);
    if (app_.options.train && app_.touring()) step_tour(progress);
}

// --train --tour: the run starts paused; start (step 0), middle (paused at half the steps) and end.
void TrainingController::step_tour(const TrainProgress& progress) {
    static constexpr const char* kShots[] = {"train-start.png", "train-middle.png", "train-end.png"};
    if (train_tour_shot_ >= 3 || capture_train_) return;
    if (train_tour_shot_ == 1 && progress.phase == TrainPhase::Running && progress.step * 2 >= progress.total_steps)
        training_.pause();
    const bool due = (train_tour_shot_ == 0 && progress.phase == TrainPhase::Paused) ||
                     (train_tour_shot_ == 1 && progress.phase == TrainPhase::Paused && progress.step > 0) ||
                     (train_tour_shot_ == 2 && progress.phase == TrainPhase::Finished);
    // The view must show the newest weights before the picture is taken.
    if (due && !app_.loader.busy() && shows_latest()) {
        train_tour_file_ = (fs::path(app_.options.tour_dir) / kShots[train_tour_shot_]).string();
        capture_train_ = true;
    }
}

// After rendering: save the due screenshot, then let the run go on (or quit after the last).
void TrainingController::after_render(int fb_width, int fb_height) {
    if (!capture_train_) return;
    if (++train_capture_frames_ < 3) return;  // let layout and textures settle
    train_capture_frames_ = 0;
    capture_train_ = false;
    try {
        save_file(train_tour_file_, [&] { save_png(train_tour_file_, read_framebuffer(fb_width, fb_height)); });
    } catch (const std::exception& e) {
        app_.show_error(e.what());
        app_.quit = true;
        app_.exit_code = 1;
        return;
    }
    if (++train_tour_shot_ == 3) {
        std::printf("tour: train-start.png, train-middle.png, train-end.png in %s\n", app_.options.tour_dir.c_str());
        app_.quit = true;
    } else {
        training_.resume();
    }
}

}  // namespace vit::gui
