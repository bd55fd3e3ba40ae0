// Loading a model and an image and running the forward pass as a job of the
// worker (worker.h: a thread of its own, or slices of the UI thread's frames),
// so the window keeps drawing and shows a progress bar while a large
// checkpoint is read. The UI polls once per frame; errors come back as
// text (vit::Error messages) for the message bar. When the requested model is
// the one already loaded it is reused, so changing the image is only a forward.
// A request may carry interventions (the Ask panel): then the unmodified pass
// is kept beside the modified one (reused when the request brings it), all on
// the worker; the occlusion map is a job of its own (occlusion_job.h).
#pragma once
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "formats/image.h"
#include "logic/jobs/worker.h"
#include "model/model.h"
#include "pass/interventions.h"
#include "pass/trace.h"

namespace vit::gui {

class PassReuse;  // pass_steps.h

struct LoadRequest {
    LoadRequest(std::string model_ = {}, std::string image_ = {}, int image_size_ = 0)
        : model(std::move(model_)), image(std::move(image_)), image_size(image_size_) {}
    std::string model;                      // built-in name or checkpoint path
    std::string image;                      // image path; "" = the model's built-in image (core/loading/builtin.h)
    int image_size = 0;                     // 0 = the model's own size
    std::shared_ptr<const Image> pixels;    // set: this image instead of a file (the Draw canvas)
    std::string pixels_name;                // its name for the title and status bar
    Interventions interventions;            // the question asked; empty = the plain pass
    std::shared_ptr<const Trace> original;  // the unmodified trace of this model and image, when known
    std::shared_ptr<const Tensor>
        input;                 // this model's input from this image, made already (a rerun): not decoded again
    bool keep_stream = false;  // the pass keeps only the residual stream even when every stage fits (pass_steps.h)
};

struct Loaded {
    std::shared_ptr<const Model> model;
    std::string model_name;                 // as requested ("toy-4x4", a path)
    std::string image_name;                 // file name, or "toy 4×4 (0…15)"
    Image picture;                          // the decoded image, at most 1024 px a side, for display; empty when
                                            // the request brought its input (the picture shown stays)
    std::shared_ptr<const Tensor> input;    // the model's input made from it (the occlusion job masks it)
    std::shared_ptr<const Trace> trace;     // every stage, under request.interventions
    std::shared_ptr<const Trace> original;  // the unmodified pass (the same as `trace` with no interventions)
    Mat lens;                               // the logit lens of `trace` (depth × classes); empty with no head
    LoadRequest request;
    double load_ms = 0, forward_ms = 0;
    bool pass_ran = true;  // false: the plain pass asked again, answered by the trace the request brought
};

struct LoadOutcome {
    std::optional<Loaded> loaded;  // empty on failure
    std::string error;             // vit::Error's message (or another exception's)
    int fitting_image_size = 0;    // the input was too large for memory: the largest image size that fits
    LoadRequest request;
};

// The work itself, synchronous (the tests call it; the worker runs the same pieces).
// `current` is reused when `req.model` equals `current_name`; `reuse` (optional,
// pass_steps.h) keeps what the next request on the same model needs again.
Loaded load_and_run(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
                    const std::function<void(float, const char*)>& progress = {}, PassReuse* reuse = nullptr);

class LoadJob;

class Loader {
public:
    // `keep_stream`: every request's pass keeps only the residual stream (LoadRequest::keep_stream).
    explicit Loader(std::shared_ptr<Worker> worker, bool keep_stream = false);
    ~Loader();  // cancels the work under way
    // Starts the work, or queues it when busy: only the newest request waits, and the
    // forward pass under way stops at its next block (its request gets no outcome).
    void request(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name);
    bool busy() const { return task_ != nullptr; }
    bool working() const { return task_ && !task_->finished(); }  // busy, its outcome not in yet
    float progress() const { return state_->progress.load(); }
    std::string phase() const;
    // A model's download (hf-hub:) under way stops with an error (the model on screen stays).
    void cancel_download() { state_->cancel = true; }
    // Finished work, once; empty while running or idle.
    std::optional<LoadOutcome> poll();

    // What the job and the loader share.
    struct Shared {
        std::atomic<float> progress{0.f};
        std::atomic<bool> cancel{false};      // cancel_download(); cleared as each job starts
        std::atomic<bool> superseded{false};  // a newer request waits; cleared as each job starts
        std::mutex mutex;
        std::string phase;
        std::shared_ptr<PassReuse> reuse;  // used by one job at a time
    };

private:
    void start(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name);

    std::shared_ptr<Worker> worker_;
    bool keep_stream_;
    std::shared_ptr<Shared> state_ = std::make_shared<Shared>();
    std::shared_ptr<LoadJob> job_;
    std::optional<LoadRequest> pending_;
    std::shared_ptr<const Model> pending_model_;
    std::string pending_name_;
    std::unique_ptr<Task> task_;  // last: destroyed first, cancelling the job
};

}  // namespace vit::gui
