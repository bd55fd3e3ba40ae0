// The Loader's pass in pieces (see pass_steps.h).
#include "logic/jobs/pass_steps.h"

#include <algorithm>
#include <filesystem>

#include "pass/timing.h"
#include "explain/logit_lens.h"
#include "loading/load_model.h"
#include "loading/builtin.h"
#include "pass/trace_budget.h"

namespace vit::gui {

std::shared_ptr<const Trace> PassReuse::share(Trace trace) {
    return std::shared_ptr<const Trace>(new Trace(std::move(trace)), [spare = spare_](const Trace* done) {
        std::lock_guard<std::mutex> lock(spare->mutex);
        spare->trace = std::move(*const_cast<Trace*>(done));
        delete done;
    });
}

Trace PassReuse::spare() {
    std::lock_guard<std::mutex> lock(spare_->mutex);
    return std::move(spare_->trace);
}

// The share of the progress bar that reading (or downloading) the model fills; the
// image's decoding follows, then the forward pass takes the rest, block by block.
constexpr float kReadShare = 0.4f;

PassSteps::PassSteps(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
                     Progress progress, PassReuse* reuse, PassSignals signals)
    : progress_(std::move(progress)), signals_(signals), reuse_(reuse ? reuse : &own_reuse_) {
    out_.request = req;
    phases_.add([this, current = std::move(current), current_name] {
        read_model(current, current_name);
        return false;
    });
    phases_.add([this] {
        decode_image();
        return false;
    });
    phases_.add([this] {
        if (!asks_original_again())
            return walk(out_.request.interventions, out_.trace, &out_.forward_ms, "forward pass");
        out_.trace = out_.request.original;
        out_.pass_ran = false;
        return false;
    });
    phases_.add([this] { return take_original(); });
    phases_.add([this] {
        // The logit lens follows the plain layout only (one CLS row, one head; logit_lens.h).
        const ModelConfig& c = out_.model->config;
        if (c.num_classes > 0 && c.plain_tokens()) out_.lens = logit_lens(*out_.model, *out_.trace);
        return false;
    });
    phases_.add([this] {
        report(1.f, "done");
        return false;
    });
}

Loaded PassSteps::take() {
    phases_.run();
    return std::move(out_);
}

void PassSteps::report(float fraction, const char* what) const {
    if (progress_) progress_(fraction, what);
}

void PassSteps::read_model(std::shared_ptr<const Model> current, const std::string& current_name) {
    const Stopwatch watch;
    const std::string& name = out_.request.model;
    if (current && name == current_name) {
        out_.model = std::move(current);
    } else {
        report(0.f, "reading the model");
        const HubProgress download = [this](const HubTransfer& t) {
            const std::string text = "downloading " + t.file + ": " + transfer_text(t);
            report(kReadShare * static_cast<float>(t.total > 0 ? static_cast<double>(t.done) / t.total : 0.),
                   text.c_str());
            return !(signals_.cancel_download && *signals_.cancel_download);
        };
        out_.model = std::make_shared<const Model>(load_model(
            name, [&](float f) { report(kReadShare * std::clamp(f, 0.f, 1.f), "reading the model"); }, download));
    }
    out_.model_name = name;
    out_.load_ms += watch.ms();
}

// The request's image as the title and status bar name it, once it has been read
// (a built-in model's own image when no file is given: model_image found one).
static std::string image_name(const LoadRequest& req) {
    if (req.pixels) return req.pixels_name;
    if (req.image.empty()) return find_builtin_model(req.model)->image_name;
    return std::filesystem::path(req.image).filename().string();
}

void PassSteps::decode_image() {
    const Stopwatch watch;
    const LoadRequest& req = out_.request;
    const ModelConfig& cfg = out_.model->config;
    if (req.input) {  // a rerun on the image shown: its input as made before
        out_.input = req.input;
        out_.image_name = image_name(req);
        return;
    }
    report(kReadShare + 0.05f, "decoding the image");
    Image img = req.pixels ? with_channels(*req.pixels, cfg.channels)
                           : model_image(req.model, req.image, cfg.channels);  // as the CLI reads it
    out_.image_name = image_name(req);
    check_input_fits(cfg, req.image_size, trace_budget_bytes(), kTracesHeldAtOnce, keep());
    out_.input = std::make_shared<const Tensor>(preprocess(img, cfg.preprocess, req.image_size, req.image));
    int longest = std::max(img.height, img.width);
    if (longest > 1024) {
        float s = 1024.f / longest;
        img = resize(img, std::max(1, int(img.height * s)), std::max(1, int(img.width * s)), "bilinear");
    }
    out_.picture = std::move(img);
    out_.load_ms += watch.ms();
}

// One piece of the forward pass under `iv` (`what` names it in the progress); the trace
// goes to `into` with the last, the time to `ms` (optional). A newer request waiting
// stops it here, between two pieces (Superseded).
bool PassSteps::walk(const Interventions& iv, std::shared_ptr<const Trace>& into, double* ms, const char* what) {
    if (signals_.superseded && *signals_.superseded) throw Superseded{};
    const Stopwatch watch;
    if (!walk_) {
        if (!out_.request.input) pass_start_ = kReadShare + 0.1f;  // reading and decoding came first
        walk_ = std::make_unique<ForwardWalk>(*out_.model, *out_.input, iv, nullptr, reuse_->spare(), keep());
        report_blocks(what);
    }
    const bool more = walk_->step();
    report_blocks(what);
    if (!more) {
        into = reuse_->share(walk_->take());
        walk_.reset();
    }
    if (ms) *ms += watch.ms();
    return more;
}

// Every stage when the app's traces fit with them, else (or when asked) only the residual
// stream, whose blocks the views recompute (logic/jobs/block_focus.h).
TraceKeep PassSteps::keep() const {
    if (out_.request.keep_stream) return TraceKeep::Stream;
    return keep_that_fits(out_.model->config, out_.request.image_size, trace_budget_bytes(), kTracesHeldAtOnce);
}

// "forward pass: block 7 of 24", the bar moved as far.
void PassSteps::report_blocks(const char* what) const {
    const int depth = out_.model->config.depth, done = walk_->blocks_done();
    const std::string text =
        std::string(what) + ": block " + std::to_string(std::min(done + 1, depth)) + " of " + std::to_string(depth);
    report(pass_start_ + (1.f - pass_start_) * static_cast<float>(done) / static_cast<float>(std::max(depth, 1)),
           text.c_str());
}

// The plain pass on the image shown, whose trace the request brings: a pass gives the
// same numbers for the same model and input, so the request's trace is its answer.
bool PassSteps::asks_original_again() const {
    const LoadRequest& req = out_.request;
    return req.interventions.empty() && req.original && req.input;
}

// The unmodified pass: the trace itself with no interventions, else the one the
// request brings, else a piece of its own forward pass.
bool PassSteps::take_original() {
    if (out_.request.interventions.empty()) out_.original = out_.trace;
    else if (out_.request.original) out_.original = out_.request.original;
    else return walk({}, out_.original, nullptr, "unmodified pass");
    return false;
}

}  // namespace vit::gui
