// The occlusion map: how much the model's answer rests on each patch. For
// each patch n, the probability of the top-1 class of the pass under `base`
// when patch n is masked as well (its pixels set to 0, interventions.h).
// Runs one lean pass per patch (forward.h LeanPass: no trace kept), the
// patches spread over the pass's team (threads.h: the free cores), the weights
// packed once per map (packed_weights.h; a copy held until the map is complete)
// unless the caller brings them;
// OcclusionMapper can also run it a few patches at a time, the map partial
// between pieces.
#pragma once
#include <memory>
#include <vector>

#include "pass/forward.h"
#include "pass/interventions.h"
#include "model/model.h"

namespace vit {

struct OcclusionMap {
    int top_class = 0;                 // the top-1 class of the pass under `base`
    float top_probability = 0.0f;      // its probability there
    std::vector<float> probabilities;  // N: its probability with patch n masked; NaN while not yet computed
    int computed = 0;                  // patches 0…computed-1 hold their value, the others are NaN

    bool complete() const { return computed == static_cast<int>(probabilities.size()); }
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
    // (false once every patch is done), then map() is run()'s map; between
    // pieces map() is the partial map. `model`, `input` and `packed` (the
    // model's packed weights, optional: packed here when null) must outlive the pieces.
    void start(const Model& model, const Tensor& input, const Interventions& base = {},
               const PackedWeights* packed = nullptr);
    bool next(int count);
    const OcclusionMap& map() const { return map_; }

private:
    std::vector<LeanPass> passes_;  // one per OpenMP thread
    const Model* model_ = nullptr;
    const Tensor* input_ = nullptr;
    Interventions base_;
    std::unique_ptr<const PackedWeights> own_packed_;  // the weights packed for the map under way, when not brought
    const PackedWeights* packed_ = nullptr;
    OcclusionMap map_;
    std::vector<bool> hidden_;  // per patch: masked or dropped by `base`
    int patches_ = 0, done_ = 0;
};

}  // namespace vit
