// The occlusion map: how much the model's answer rests on each patch. For
// each patch n, the probability of the top-1 class of the pass under `base`
// when patch n is masked as well (its pixels set to 0, interventions.h).
// Runs one lean pass per patch (forward.h LeanPass: no trace kept), the
// patches spread over the core's threads, the weights packed once per map
// (packed_weights.h); OcclusionMapper can also run it a few patches at a time.
#pragma once
#include <memory>
#include <vector>

#include "pass/forward.h"
#include "pass/interventions.h"
#include "model/model.h"

namespace vit {

struct OcclusionMap {
    int top_class = 0;                // the top-1 class of the pass under `base`
    float top_probability = 0.0f;     // its probability there
    std::vector<float> probabilities; // N: its probability with patch n masked
};

// Throws vit::Error for a model without a classifier head and for invalid `base`.
OcclusionMap occlusion_map(const Model& model, const Tensor& input, const Interventions& base = {});

// The same, keeping each thread's LeanPass buffers from one map to the next
// (the app redraws the map while the user paints).
class OcclusionMapper {
public:
    OcclusionMap run(const Model& model, const Tensor& input, const Interventions& base = {});

    // The same map a piece at a time (the app's sliced worker): start() runs the
    // pass for the top class, each next() masks the next `count` patches in turn
    // (false once every patch is done), then map() is run()'s map. `model` and
    // `input` must outlive the pieces.
    void start(const Model& model, const Tensor& input, const Interventions& base = {});
    bool next(int count);
    const OcclusionMap& map() const { return map_; }

private:
    std::vector<LeanPass> passes_;  // one per OpenMP thread
    const Model* model_ = nullptr;
    const Tensor* input_ = nullptr;
    Interventions base_;
    std::unique_ptr<const PackedWeights> packed_;  // the weights packed once per map
    OcclusionMap map_;
    std::vector<bool> hidden_;  // per patch: masked or dropped by `base`
    int patches_ = 0, done_ = 0;
};

}  // namespace vit
