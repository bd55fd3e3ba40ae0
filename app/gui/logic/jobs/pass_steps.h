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
#include "pass/forward.h"

namespace vit::gui {

// The traces the app may hold at once: the plain pass and the Ask panel's modified pass on
// screen while the next question's two are written (measured: a rerun of the Ask panel peaks at
// about four traces beside the weights). Each trace may take this share of the memory budget
// (trace_budget.h); a pass whose every stage would not fit keeps only the residual stream
// (PassSteps::keep). On the desktop memory is overcommitted: a pass that does not fit is not
// refused by an allocation but killed later, with the window. A page's heap is a hard limit
// instead: an allocation past it fails where the pass reports it (forward.h), so a trace there
// may take the whole budget (DINOv2-S/14 keeps its 518 pixels in a 4 GB tab).
#ifdef __EMSCRIPTEN__
constexpr int kTracesHeldAtOnce = 1;
#else
constexpr int kTracesHeldAtOnce = 4;
#endif

// What one request keeps for the next (a Loader's requests run one at a time): the
// storage of a trace the app no longer shows, which the next pass of that model writes
// into. The weights are not packed ahead (model/packed_weights.h): that second copy
// of them saved at most a few percent of a ViT-B/16 pass at 224 px, nothing at 1,374 tokens.
class PassReuse {
public:
    // A trace shared with whoever shows it: when the last holder drops it, its storage comes back here.
    std::shared_ptr<const Trace> share(Trace trace);
    Trace spare();  // the storage that came back (empty when none did)

private:
    struct Spare {
        std::mutex mutex;
        Trace trace;
    };
    std::shared_ptr<Spare> spare_ = std::make_shared<Spare>();  // shared with the traces' deleters
};

// What may stop a request's pieces early, each optional: `cancel_download` stops a
// model's download (an error); `superseded` (a newer request waits) stops its forward
// pass at the next block by throwing Superseded.
struct PassSignals {
    const std::atomic<bool>* cancel_download = nullptr;
    const std::atomic<bool>* superseded = nullptr;
};
// Thrown between two pieces of a forward pass once a newer request waits; not a
// std::exception, so nothing reports it as an error.
struct Superseded {};

class PassSteps {
public:
    using Progress = std::function<void(float, const char*)>;
    // `reuse` (optional) keeps what a later request on the same model needs again. A model
    // named hf-hub: downloads with its bytes, speed and time left as the progress's text.
    // The forward pass reports its blocks ("forward pass: block 7 of 24").
    PassSteps(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
              Progress progress = {}, PassReuse* reuse = nullptr, PassSignals signals = {});
    // One piece; false once the pass is complete.
    bool step() { return phases_.step(); }
    // The result (running the pieces left, if any).
    Loaded take();
    // The model read so far (null before) and its name: a superseded request hands them on.
    const std::shared_ptr<const Model>& model() const { return out_.model; }
    const std::string& model_name() const { return out_.model_name; }

private:
    void report(float fraction, const char* what) const;
    void read_model(std::shared_ptr<const Model> current, const std::string& current_name);
    void decode_image();
    bool walk(const Interventions& iv, std::shared_ptr<const Trace>& into, double* ms, const char* what);
    TraceKeep keep() const;
    void report_blocks(const char* what) const;
    bool asks_original_again() const;
    bool take_original();

    Loaded out_;
    Progress progress_;
    PassSignals signals_;
    float pass_start_ = 0.f;  // where the progress bar stands when the forward pass begins
    PassReuse own_reuse_;
    PassReuse* reuse_;
    std::unique_ptr<ForwardWalk> walk_;  // the forward pass under way
    Phases phases_;
};

}  // namespace vit::gui
