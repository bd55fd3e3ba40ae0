// A pass of the Loader (loader.h) in bounded pieces: reading the model (or
// reusing the one loaded), decoding the image, each piece of the forward pass
// (core's ForwardWalk: the embedding, each block, the head, the rollout), the
// unmodified pass beside a modified one, then the logit lens. Errors are thrown
// (vit::Error, InputTooLarge).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "logic/jobs/loader.h"
#include "logic/jobs/worker.h"
#include "model/packed_weights.h"
#include "pass/forward.h"

namespace vit::gui {

// The full traces the app may hold at once: the plain pass and the Ask panel's modified pass on
// screen while the next question's two are written (measured: a rerun of the Ask panel peaks at
// about four traces beside the weights). Each trace may take this share of the memory budget
// (trace_budget.h). On the desktop memory is overcommitted: a pass that does not fit is not
// refused by an allocation but killed later, with the window. A page's heap is a hard limit
// instead: an allocation past it fails where the pass reports it (forward.h), so a trace there
// may take the whole budget (DINOv2-S/14 keeps its 518 pixels in a 4 GB tab).
#ifdef __EMSCRIPTEN__
constexpr int kTracesHeldAtOnce = 1;
#else
constexpr int kTracesHeldAtOnce = 4;
#endif

// What one request keeps for the next (a Loader's requests run one at a time):
// the model's weights packed for the core's kernel
// (model/packed_weights.h), made once per model, and the storage of a trace the
// app no longer shows, which the next pass of that model writes into.
class PassReuse {
public:
    // `model`'s packed weights: the ones kept when they are its, else packed now
    // (shared: the occlusion job keeps them while it runs).
    std::shared_ptr<const PackedWeights> packed(const std::shared_ptr<const Model>& model);
    // A trace shared with whoever shows it: when the last holder drops it, its storage comes back here.
    std::shared_ptr<const Trace> share(Trace trace);
    Trace spare();  // the storage that came back (empty when none did)

private:
    std::shared_ptr<const Model> packed_model_;  // the model packed_ was made from, kept alive with it
    std::shared_ptr<const PackedWeights> packed_;
    struct Spare {
        std::mutex mutex;
        Trace trace;
    };
    std::shared_ptr<Spare> spare_ = std::make_shared<Spare>();  // shared with the traces' deleters
};

class PassSteps {
public:
    using Progress = std::function<void(float, const char*)>;
    // `reuse` (optional) keeps what a later request on the same model needs again. A model
    // named hf-hub: downloads with its bytes, speed and time left as the progress's text,
    // and stops (an error) once `cancel` (optional) is set.
    PassSteps(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
              Progress progress = {}, PassReuse* reuse = nullptr, const std::atomic<bool>* cancel = nullptr);
    // One piece; false once the pass is complete.
    bool step() { return phases_.step(); }
    // The result (running the pieces left, if any).
    Loaded take();

private:
    void report(float fraction, const char* what) const;
    void read_model(std::shared_ptr<const Model> current, const std::string& current_name);
    void decode_image();
    bool walk(const Interventions& iv, std::shared_ptr<const Trace>& into, double* ms);
    bool asks_original_again() const;
    bool take_original();

    Loaded out_;
    Progress progress_;
    const std::atomic<bool>* cancel_;
    PassReuse own_reuse_;
    PassReuse* reuse_;
    std::unique_ptr<ForwardWalk> walk_;  // the forward pass under way
    Phases phases_;
};

}  // namespace vit::gui
