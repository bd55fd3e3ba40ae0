// The worker that loads a model and an image and runs vit::forward off the UI thread.
#include "logic/jobs/loader.h"

#include <algorithm>
#include <filesystem>

#include "model/builtin.h"
#include "formats/checkpoint.h"
#include "pass/forward.h"
#include "explain/logit_lens.h"
#include "base/timing.h"
#include "pass/trace_budget.h"

namespace vit::gui {

Loaded load_and_run(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
                    const std::function<void(float, const char*)>& progress, OcclusionMapper* mapper) {
    auto report = [&](float f, const char* what) {
        if (progress) progress(f, what);
    };
    Loaded out;
    out.request = req;
    const Stopwatch load_watch;
    if (current && req.model == current_name) {
        out.model = std::move(current);
    } else {
        report(0.f, "reading the model");
        out.model = std::make_shared<const Model>(
            load_model(req.model, [&](float f) { report(0.8f * std::clamp(f, 0.f, 1.f), "reading the model"); }));
    }
    out.model_name = req.model;
    const ModelConfig& cfg = out.model->config;

    report(0.82f, "decoding the image");
    Image img;
    if (req.pixels) {
        img = with_channels(*req.pixels, cfg.channels);
        out.image_name = req.pixels_name;
    } else {
        img = model_image(req.model, req.image, cfg.channels);  // as the CLI reads it
        if (req.image.empty()) out.image_name = find_builtin_model(req.model)->image_name;  // model_image found one
        else out.image_name = std::filesystem::path(req.image).filename().string();
    }
    check_input_fits(cfg, req.image_size);
    Tensor input = preprocess(img, cfg.preprocess, req.image_size);
    int longest = std::max(img.height, img.width);
    if (longest > 1024) {
        float s = 1024.f / longest;
        img = resize(img, std::max(1, int(img.height * s)), std::max(1, int(img.width * s)), "bilinear");
    }
    out.picture = std::move(img);
    out.load_ms = load_watch.ms();

    report(0.9f, "running the forward pass");
    const Stopwatch forward_watch;
    out.trace = std::make_shared<const Trace>(forward(*out.model, input, req.interventions));
    out.forward_ms = forward_watch.ms();
    if (req.interventions.empty()) out.original = out.trace;
    else out.original = req.original ? req.original : std::make_shared<const Trace>(forward(*out.model, input));
    if (cfg.num_classes > 0) {
        out.lens = logit_lens(*out.model, *out.trace);
        if (req.occlusion) {
            report(0.95f, "computing the occlusion map");
            const Stopwatch occlusion_watch;
            OcclusionMapper own;
            out.occlusion = (mapper ? *mapper : own).run(*out.model, input, req.interventions);
            out.occlusion_ms = occlusion_watch.ms();
        }
    }
    report(1.f, "done");
    return out;
}

Loader::~Loader() {
    if (running_.valid()) running_.wait();
}

void Loader::start(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name) {
    state_->progress = 0.f;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->phase = "starting";
    }
    std::shared_ptr<Shared> st = state_;
    running_ = std::async(std::launch::async, [req, current, current_name, st]() {
        LoadOutcome o;
        o.request = req;
        try {
            o.loaded = load_and_run(
                req, current, current_name,
                [st](float f, const char* what) {
                    st->progress = f;
                    std::lock_guard<std::mutex> lock(st->mutex);
                    st->phase = what;
                },
                &st->mapper);
        } catch (const InputTooLarge& e) {
            o.error = e.what();
            o.fitting_image_size = e.largest_fitting;
        } catch (const std::exception& e) {
            o.error = e.what();
        }
        return o;
    });
}

void Loader::request(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name) {
    if (busy()) {
        pending_ = req;
        pending_model_ = std::move(current);
        pending_name_ = current_name;
        return;
    }
    start(req, std::move(current), current_name);
}

std::string Loader::phase() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->phase;
}

std::optional<LoadOutcome> Loader::poll() {
    if (!running_.valid() || running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return {};
    LoadOutcome o = running_.get();
    if (pending_) {
        // The newest request runs next, on the model just loaded when it is the same.
        if (o.loaded) start(*pending_, o.loaded->model, o.loaded->model_name);
        else start(*pending_, pending_model_, pending_name_);
        pending_.reset();
        pending_model_.reset();
    }
    return o;
}

}  // namespace vit::gui
