// A pass of the Loader (loader.h) in bounded pieces: reading the model (or
// reusing the one loaded), decoding the image, each piece of the forward pass
// (core's ForwardWalk: the embedding, each block, the head, the rollout), the
// unmodified pass beside a modified one, the logit lens, then the occlusion map
// a few patches at a time. Errors are thrown (vit::Error, InputTooLarge).
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "logic/jobs/loader.h"
#include "logic/jobs/worker.h"
#include "pass/forward.h"

namespace vit::gui {

class PassSteps {
public:
    using Progress = std::function<void(float, const char*)>;
    // `mapper` (optional) keeps the occlusion map's buffers from one request to the next.
    PassSteps(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
              Progress progress = {}, OcclusionMapper* mapper = nullptr);
    // One piece; false once the pass is complete.
    bool step() { return phases_.step(); }
    // The result (running the pieces left, if any).
    Loaded take();

private:
    void report(float fraction, const char* what) const;
    void read_model(std::shared_ptr<const Model> current, const std::string& current_name);
    void decode_image();
    bool walk(const Interventions& iv, std::shared_ptr<const Trace>& into, double* ms);
    bool take_original();
    bool map_occlusion();

    Loaded out_;
    Tensor input_;
    Progress progress_;
    OcclusionMapper own_mapper_;
    OcclusionMapper* mapper_;
    std::unique_ptr<ForwardWalk> walk_;  // the forward pass under way
    bool mapping_ = false;               // the occlusion map is under way
    Phases phases_;
};

}  // namespace vit::gui
