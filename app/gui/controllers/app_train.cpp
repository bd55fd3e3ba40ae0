// The App's Train window hooks, kept apart from app.cpp: starting a
// run, showing the chosen snapshot in the main view (every stage and the
// attention screen run on the probe digit, or on the drawing when the Draw
// window is open), saving it, and `--train --tour DIR`'s three screenshots.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>

#include "controllers/app.h"
#include "formats/checkpoint.h"
#include "logic/state/export.h"
#include "platform/gl_texture.h"
#include "formats/model_writer.h"

namespace vit::gui {

namespace fs = std::filesystem;

// The name the loader and the title give the model being trained.
static constexpr const char* kTrainingModelName = "digits ViT in training";

void App::start_training(bool paused) {
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
        const bool tour_start = options_.train && touring() && train_tour_shot_ == 0;  // the first shot is step 0
        training_.start(std::move(initial), train_.data, o, threads, 25, tour_start || paused);
        train_.follow = true;
        train_shown_.reset();
    } catch (const std::exception& e) {
        show_error(e.what());
    }
}

void App::save_training(const TrainSnapshot& shot) {
    try {
        save_checkpoint(train_.save_dir, *shot.model);
        show_notice("saved step " + std::to_string(shot.step) + " to " + std::string(train_.save_dir) +
                    " (model.safetensors, config.json): open it with Open model or --model " + train_.save_dir);
    } catch (const std::exception& e) {
        show_error(e.what());
    }
}

// Runs the main view on `shot` when it or the probe digit changed (one forward at a time).
void App::show_training_snapshot(const TrainSnapshot& shot) {
    if (loader_.busy() || !train_.data || train_.data->held_out.size() == 0) return;
    if (shot.model == train_shown_ && train_.probe == train_probe_shown_) return;
    train_shown_ = shot.model;
    train_probe_shown_ = train_.probe;
    model_ = shot.model;
    model_name_ = kTrainingModelName;
    if (draw_.visible && !draw_.canvas.empty()) return send_canvas();
    LoadRequest r{model_name_, "", 0};
    r.pixels = std::make_shared<const Image>(digit_image(train_.data->held_out, train_.probe));
    r.pixels_name = "held-out digit " + std::to_string(train_.probe + 1) + " (a " +
                    std::to_string(train_.data->held_out.labels[train_.probe]) + ")";
    loader_.request(r, model_, model_name_);
}

void App::draw_train_window() {
    // A lesson's train step shows the run's weights in the main view, with or without the window.
    if (!train_.visible && !(lesson_ && lesson_->step().train.on)) return;
    const TrainProgress progress = training_.progress();
    TrainActions actions;
    DrawTrainPanel(train_, training_, progress, trace_ ? &shown_trace() : nullptr, model_.get(), actions);
    if (actions.start) start_training();
    const TrainSnapshot* shot = choose_snapshot(progress, train_.follow, train_.snapshot);
    if (actions.save && shot) save_training(*shot);
    if (shot) show_training_snapshot(*shot);
    if (options_.train && touring()) step_train_tour(progress);
}

// --train --tour: the run starts paused; start (step 0), middle (paused at half the steps) and end.
void App::step_train_tour(const TrainProgress& progress) {
    static constexpr const char* kShots[] = {"train-start.png", "train-middle.png", "train-end.png"};
    if (train_tour_shot_ >= 3 || capture_train_) return;
    if (train_tour_shot_ == 1 && progress.phase == TrainPhase::Running && progress.step * 2 >= progress.total_steps)
        training_.pause();
    const bool due = (train_tour_shot_ == 0 && progress.phase == TrainPhase::Paused) ||
                     (train_tour_shot_ == 1 && progress.phase == TrainPhase::Paused && progress.step > 0) ||
                     (train_tour_shot_ == 2 && progress.phase == TrainPhase::Finished);
    // The view must show the newest weights before the picture is taken.
    if (due && !loader_.busy() && model_ == training_.latest() && train_shown_ == model_) {
        train_tour_file_ = (fs::path(options_.tour_dir) / kShots[train_tour_shot_]).string();
        capture_train_ = true;
    }
}

// After rendering: save the due screenshot, then let the run go on (or quit after the last).
void App::capture_train_tour(int fb_width, int fb_height) {
    if (!capture_train_) return;
    if (++train_capture_frames_ < 3) return;  // let layout and textures settle
    train_capture_frames_ = 0;
    capture_train_ = false;
    try {
        save_png(train_tour_file_, read_framebuffer(fb_width, fb_height));
    } catch (const std::exception& e) {
        show_error(e.what());
        quit_ = true;
        exit_code_ = 1;
        return;
    }
    if (++train_tour_shot_ == 3) {
        std::printf("tour: train-start.png, train-middle.png, train-end.png in %s\n", options_.tour_dir.c_str());
        quit_ = true;
    } else {
        training_.resume();
    }
}

}  // namespace vit::gui
