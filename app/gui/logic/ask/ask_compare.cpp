// Predictions side by side and stage differences between two passes.
#include "logic/ask/ask_compare.h"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "base/finite.h"

namespace vit::gui {

std::string occlusion_status(const AskResults& ask) {
    if (!ask.occlusion) return "";
    const OcclusionMap& m = *ask.occlusion;
    char text[160];
    if (m.complete())
        std::snprintf(text, sizeof text, "occlusion map: %zu masked passes in %.1f ms", m.probabilities.size(),
                      ask.occlusion_ms);
    else
        std::snprintf(text, sizeof text, "occlusion map: %d of %zu masked passes so far (%.1f ms)", m.computed,
                      m.probabilities.size(), ask.occlusion_ms);
    return std::string(text) + (ask.occlusion_stale ? "; stale: made for the pass before this one" : "");
}

bool occlusion_fits(const OcclusionMap& map, const Model& model, const Tensor& input) {
    const int64_t P = model.config.patch_size;
    const size_t patches = static_cast<size_t>((input.shape[1] / P) * (input.shape[2] / P));
    return map.probabilities.size() == patches && map.top_class >= 0 &&
           map.top_class < static_cast<int>(model.config.labels.size());
}

std::vector<PredictionChange> compare_predictions(const Tensor& original_probs, const Tensor& modified_probs, int top) {
    const size_t n = std::min(original_probs.data.size(), modified_probs.data.size());
    std::vector<PredictionChange> all(n);
    for (size_t c = 0; c < n; ++c) all[c] = {static_cast<int>(c), original_probs.data[c], modified_probs.data[c]};
    const size_t k = std::min(n, static_cast<size_t>(std::max(0, top)));
    std::partial_sort(all.begin(), all.begin() + k, all.end(),
                      [](const PredictionChange& a, const PredictionChange& b) {
                          return std::max(a.original, a.modified) > std::max(b.original, b.modified);
                      });
    all.resize(k);
    return all;
}

std::string nonfinite_predictions(const Tensor& original_probs, const Tensor& modified_probs) {
    const FloatStorage &asked = modified_probs.data, &unmodified = original_probs.data;
    const std::string problem = nonfinite_answer("asked pass's probabilities", asked.data(), asked.size());
    return problem.empty() ? nonfinite_answer("unmodified pass's probabilities", unmodified.data(), unmodified.size())
                           : problem;
}

Trace difference_trace(const Trace& modified, const Trace& original) {
    Trace diff;
    for (const Stage& s : modified.stages()) {
        const Tensor* o = original.tensor(s.ref());
        if (!o || o->shape != s.tensor.shape) continue;
        Tensor& d = diff.add(s.ref(), s.tensor.shape);
        for (size_t i = 0; i < d.data.size(); ++i) d.data[i] = s.tensor.data[i] - o->data[i];
    }
    diff.set_patch_rows(modified.embedded_patches(), modified.token_patches());
    return diff;
}

int stages_without_difference(const Trace& modified, const Trace& difference) {
    return static_cast<int>(modified.size() - difference.size());
}

}  // namespace vit::gui
