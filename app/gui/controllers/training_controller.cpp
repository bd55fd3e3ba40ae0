// TrainingController (controllers/training_controller.h): starting a run,
// showing the chosen snapshot in the main view and saving it.
#include "controllers/training_controller.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <utility>

#include "loading/load_model.h"
#include "services/files.h"
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
        training_.start(std::move(initial), train_.data, o, threads, 25, std::exchange(hold_next_, false) || paused);
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
}

}  // namespace vit::gui
