// The comparison model (vitviz --compare-model, or the Open window's "as the
// comparison model"): a second model run on the image the loaded model shows,
// with its own preprocessing and input size, as a Loader job on the worker
// (loader.h), never on the UI thread. A new image, or a new comparison model,
// reruns it; until the new pass arrives the last one stays, marked stale. An
// error comes back once as text ("comparison model: …") and forgets the
// comparison model, so the app keeps running on the loaded one alone.
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "logic/jobs/loader.h"

namespace vit::gui {

// The comparison's block for the loaded model's block `layer` of `depth`: the same relative depth
// in a model of `other_depth` blocks (block 5 of 12 → block 2 of 6; the last block → the last).
int comparison_layer(int layer, int depth, int other_depth);

class ComparePass {
public:
    explicit ComparePass(std::shared_ptr<Worker> worker);
    // The comparison model (a built-in name or a checkpoint path; "" clears it), run on the image last followed.
    void set_model(const std::string& model);
    void clear() { set_model(""); }
    // The loaded model shows a new pass: when its image changed, run the comparison on it.
    void follow(const Loaded& shown);
    // Once per frame: takes finished work; an error's message, once ("" otherwise).
    std::string poll();

    bool active() const { return !model_.empty(); }
    const std::string& model() const { return model_; }
    // The last comparison pass; null before the first one and after clear() or an error.
    const Loaded* result() const { return active() && result_ ? &*result_ : nullptr; }
    // The result is not for the current comparison model and image (a new pass is on its way).
    bool stale() const;
    bool working() const { return loader_.busy(); }
    uint64_t generation() const { return generation_; }  // changes with every new result

private:
    void run();

    Loader loader_;
    std::string model_;
    std::string image_key_;   // which image the loaded model shows: its file, or "pixels <address>"
    LoadRequest image_;       // that image as a request (its file, or its pixels)
    std::string result_key_;  // the model and image of result_
    std::optional<Loaded> result_;
    uint64_t generation_ = 0;
};

}  // namespace vit::gui
