// What App shares with its controllers (GpuController, AskController,
// LessonController, TrainingController, CompareController) and its driver
// (controllers/drivers/driver.h): the state they read and change, by
// reference, and what they may ask App to do, as callbacks. App builds one and
// hands it to each; none reaches into App itself.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "logic/jobs/loader.h"
#include "logic/jobs/block_focus.h"
#include "logic/state/app_state.h"
#include "logic/cache/derived_cache.h"
#include "logic/state/options.h"
#include "logic/cache/texture_cache.h"
#include "panels/draw_panel.h"
#include "services/fonts.h"
#include "views/widgets/view_common.h"

namespace vit::gui {

struct AppContext {
    const Options& options;
    AppState& state;
    Pipeline& pipeline;
    Loader& loader;
    TextureCache& cache;
    DerivedCache& derived;
    uint64_t& generation;  // changes with every new trace (texture keys)
    const Fonts& fonts;
    const int& linked_hover;
    DrawPanelState& draw;

    // The model and trace on screen and where they came from.
    std::shared_ptr<const Model>& model;
    std::string& model_name;
    std::shared_ptr<const Trace>& trace;
    const Image& picture;
    const std::string& image_path;
    const std::string& image_name;  // as the title and the link name it
    const double& forward_ms;

    std::function<void(const std::string& model, const std::string& image)> request;  // image "": the model's own
    std::function<void()> send_canvas;  // the Draw canvas, MNIST-normalised, to the loader
    std::function<void(bool on)> set_presenter;
    std::function<void(const std::string&)> show_error;
    std::function<void(const std::string&)> show_notice;
    // An error that spoils what the command line asked for: shown, and a driver that runs it exactly ends
    // with exit code 1 (true then).
    std::function<bool(const std::string&)> fail;
    // A lesson's transitions held at this share of their length by the driver (a tour's); nullopt: the clock runs.
    std::function<std::optional<double>()> held_transition;
    // What the views draw from, over `shown` (the pass they show): of a Stream trace, the block
    // on screen recomputed (shown_block in app_state.h). Its stages are the full trace's bit for
    // bit, so what the views made of another block's stages stays true (same generation).
    ViewContext views(const std::shared_ptr<const Trace>& shown) {
        const std::shared_ptr<const Trace> seen = focus.seen(shown, shown_block(state, pipeline));
        ViewContext views{state, pipeline, *seen, *model, picture, cache, derived, generation, fonts, linked_hover};
        views.held = seen;
        return views;
    }
    // The views' textures and derived numbers belong to another trace now.
    void new_views() {
        ++generation;
        cache.new_trace();
        derived.clear();
    }

    BlockFocus focus{};    // the block on screen of a Stream trace, recomputed for the views
    bool started = false;  // the first pass is applied with the command line's lesson, token and view
};

}  // namespace vit::gui
