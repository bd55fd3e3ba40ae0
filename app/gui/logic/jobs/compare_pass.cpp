// The comparison model's pass beside the loaded one (see compare_pass.h).
#include "logic/jobs/compare_pass.h"

#include <algorithm>
#include <cmath>

namespace vit::gui {

namespace {

// What a request runs: its model and its image (the file, or the address of its pixels).
std::string run_key(const LoadRequest& r) {
    return r.model + "|" +
           (r.pixels ? "pixels@" + std::to_string(reinterpret_cast<uintptr_t>(r.pixels.get())) : r.image);
}

}  // namespace

int comparison_layer(int layer, int depth, int other_depth) {
    if (depth <= 0 || other_depth <= 0) return 0;
    const double share = (layer + 1.0) / depth;  // the last block is 1
    return std::clamp(static_cast<int>(std::lround(share * other_depth)) - 1, 0, other_depth - 1);
}

ComparePass::ComparePass(std::shared_ptr<Worker> worker) : loader_(std::move(worker)) {}

void ComparePass::set_model(const std::string& model) {
    if (model == model_) return;
    model_ = model;
    if (active()) run();
}

void ComparePass::follow(const Loaded& shown) {
    const LoadRequest& r = shown.request;
    // A file is read again at the comparison's own size; pixels (the Draw canvas, a built-in model's own
    // image, which has no file) are the picture the loaded model shows.
    const std::string key = r.pixels || r.image.empty() ? "picture of " + run_key(r) : "file " + r.image;
    if (key == image_key_) return;
    image_key_ = key;
    image_ = LoadRequest{"", r.pixels ? "" : r.image, 0};
    image_.keep_stream = r.keep_stream;  // --keep-stream holds for the comparison's passes too
    if (r.pixels || r.image.empty()) {
        image_.pixels = r.pixels ? r.pixels : std::make_shared<const Image>(shown.picture);
        image_.pixels_name = shown.image_name;
    }
    if (active()) run();
}

void ComparePass::run() {
    if (image_key_.empty()) return;  // no image shown yet: follow() runs it
    LoadRequest req = image_;
    req.model = model_;
    const bool reuse = result_ && result_->model_name == model_;
    loader_.request(req, reuse ? result_->model : nullptr, reuse ? model_ : "");
}

std::string ComparePass::poll() {
    std::optional<LoadOutcome> o = loader_.poll();
    if (!o || !active() || o->request.model != model_) return "";  // nothing, or for a model no longer compared
    if (!o->loaded) {
        model_.clear();
        result_.reset();
        return "comparison model: " + o->error;
    }
    result_ = std::move(*o->loaded);
    ++generation_;
    return "";
}

bool ComparePass::stale() const {
    LoadRequest wanted = image_;
    wanted.model = model_;
    return result_ && run_key(result_->request) != run_key(wanted);
}

}  // namespace vit::gui
