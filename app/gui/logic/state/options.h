// Command-line options of `vitviz` and the built-in defaults (model, image);
// usage() in options.cpp lists every option (`vitviz --help`).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "logic/state/app_state.h"
#include "logic/state/view_snapshot.h"
#include "loading/builtin.h"
#include "pass/intervention_flags.h"

namespace vit::gui {

// The model the app opens with no --model: the trained digits model
// when its files are in assets/, else the toy (which needs no files).
inline constexpr const char* kDefaultModel = kDigitsModel;
inline constexpr const char* kFallbackModel = kToyModel;

struct Options {
    std::string model;          // empty: default_model()
    std::string compare_model;  // --compare-model: a second model beside it (logic/jobs/compare_pass.h); empty: none
    std::string image;          // empty: the model's built-in image
    std::vector<std::string> pca_images;  // --pca-images: the patch-PCA screen starts joint over these and the image
    int image_size = 0;                   // 0: the model's own input size
    bool keep_stream = false;  // --keep-stream: every pass keeps only the residual stream (as a pass too large does)
    std::string tour_dir;      // non-empty: screenshot every stage into it and exit
    int select_token = -1;     // -1: keep the default (CLS)
    bool presenter = false;
    bool clicker = false;       // PageUp/PageDown step one stage (presentation clickers)
    bool open_chooser = false;  // start with the Open window (choose an image)
    double measure_fps = 0.0;   // > 0: step through the stages for this many seconds, print the FPS, exit
    int measure_pass = 0;       // > 0: rerun the pass N times as the Ask panel does, print the times, exit
    bool fixed_screen = false;  // --screen: start on `screen`; --measure-fps then measures that screen alone
    Screen screen = Screen::Stage;
    bool gpu = false;  // --backend gpu: start on the GPU backend (gpu/); CPU when it cannot start
    bool gpu_fail_test =
        false;            // --gpu-fail-test: the GPU backend's start compiles a broken shader (shows the failure path)
    std::string lesson;   // --lesson FILE: play it (with --tour: DIR/NN-step.png per step)
    int lesson_step = 0;  // the lesson's step to open on, from 1 (a page's link: logic/link/view_link.h); 0: its first
    std::optional<ViewSnapshot> start_view;  // the view to open on once the model is loaded (a page's link)
    bool edit_lesson =
        false;              // open the lesson editor at start (with --lesson and --tour: NN-edit.png, NN-halfway.png)
    std::string handout;    // --handout OUT.html (with --lesson): the lesson as one HTML page, pictures in tour_dir
    bool train = false;     // open the Train window and start a run (with --tour: screenshots of it)
    int train_epochs = 20;  // that run's epochs
    InterventionFlags interventions;  // asked at start (and shown by the tour's Ask shot)
    int monkey_seconds =
        0;  // > 0: random input for this many seconds, then the counts and exit (controllers/drivers/monkey_driver.h)
    int monkey_seed = 1;  // the monkey's PRNG seed: the same seed replays the same input
    bool help = false;

    // How many of --tour (or --handout), --measure-fps, --measure-pass and --monkey were given: each runs the
    // app without a person (controllers/drivers/driver.h), so parse_options refuses more than one.
    int drivers_asked() const {
        return !tour_dir.empty() + (measure_fps > 0) + (measure_pass > 0) + (monkey_seconds > 0);
    }

    // The files this run reads, which nothing it writes may replace: the lesson, the image, --pca-images.
    std::vector<std::string> inputs() const;
};

// Throws vit::Error naming the bad argument.
Options parse_options(const std::vector<std::string>& args);
const char* usage();

// kDefaultModel when its weights and config are in `asset_dir`, else kFallbackModel.
// (With no --image a built-in model opens on its own image: core/loading/builtin.h.)
std::string default_model(const std::string& asset_dir);

// A start that failed with nothing on screen yet: what to open instead, as
// {model, image}, at that model's own input size (never the failed request's).
// A bad image keeps the model and opens it on `model_image`
// (its own image, "" for built-ins, or the gallery photo a checkpoint opens
// on); when that was what failed, the toy; nothing once the toy itself failed.
struct StartChoice {
    std::string model, image;
};
std::optional<StartChoice> start_fallback(const StartChoice& failed, const std::string& model_image);

}  // namespace vit::gui
