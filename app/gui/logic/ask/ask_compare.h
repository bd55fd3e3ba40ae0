// Comparing the pass under the interventions with the unmodified one: the
// predictions side by side with their change, and every stage's difference
// (only where the two stages have the same shape: dropped tokens change T).
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pass/interventions.h"
#include "explain/occlusion.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

// What the worker computed for the Ask panel beside the trace on screen (loader.h).
struct AskResults {
    std::shared_ptr<const Trace> original;  // the unmodified pass
    std::optional<OcclusionMap> occlusion;  // absent until its first patches; partial while computed (NaN: not yet)
    bool occlusion_stale = false;           // computed for another pass (question, image or model) than the one shown
    double occlusion_ms = 0.0;
    Mat lens;             // logit lens of the modified pass (depth × classes)
    Interventions asked;  // what the trace on screen was computed under
};

// The occlusion map's state in words: "occlusion map: 196 masked passes in 14012.5 ms",
// "… 38 of 196 masked passes so far (1203.0 ms)", and "; stale: made for the pass before
// this one" while it belongs to another pass.
std::string occlusion_status(const AskResults& ask);
// Whether an occlusion map can be drawn over a pass of `model` on `input`: one
// value per patch of the input and a class of the model's (a stale map of
// another model or image size cannot).
bool occlusion_fits(const OcclusionMap& map, const Model& model, const Tensor& input);

struct PredictionChange {
    int cls = 0;
    float original = 0.f, modified = 0.f;
    float delta() const { return modified - original; }
};

// The `top` classes by the larger of their two probabilities, largest first.
std::vector<PredictionChange> compare_predictions(const Tensor& original_probs, const Tensor& modified_probs, int top);

// "" when both passes' probabilities are finite; else the message of
// core/base/finite.h naming the pass, shown instead of the comparison.
std::string nonfinite_predictions(const Tensor& original_probs, const Tensor& modified_probs);

// modified − original for every stage of `modified` whose shape matches the
// same stage of `original`; the others are left out (views say the trace has no such stage).
Trace difference_trace(const Trace& modified, const Trace& original);
// How many stages of `modified` have no difference (a shape that changed).
int stages_without_difference(const Trace& modified, const Trace& difference);

}  // namespace vit::gui
