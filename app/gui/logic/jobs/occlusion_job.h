// The occlusion map as a job of the worker (worker.h), apart from the pass so
// the answer shows at once: a few patches a piece (one patch per thread of the
// pass's team, so a piece takes about one pass), the map so far readable
// between pieces (the cells not yet computed are NaN), and a new request or
// cancel() stops it after the piece under way. It masks the input the pass
// was made from (loader.h Loaded); the map packs the weights for its own passes.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "explain/occlusion.h"
#include "logic/jobs/worker.h"
#include "pass/interventions.h"

namespace vit::gui {

// The map so far, and what it was asked for.
struct OcclusionProgress {
    OcclusionMap map;         // partial until map.complete()
    Interventions asked;      // the question it is computed under
    uint64_t generation = 0;  // the trace it belongs to (App's generation counter)
    double ms = 0.0;          // the time spent on it so far
    std::string error;        // why it stopped (vit::Error's message), or ""
};

class OcclusionWork;

class OcclusionJob {
public:
    explicit OcclusionJob(std::shared_ptr<Worker> worker);
    ~OcclusionJob();  // cancels the job under way
    // Starts the map of `input` under `asked` for trace `generation`, cancelling
    // the one under way; nothing when it is already running or done for `generation`.
    void request(std::shared_ptr<const Model> model, std::shared_ptr<const Tensor> input, const Interventions& asked,
                 uint64_t generation);
    // Stops the job after its piece under way (what it computed stays readable).
    void cancel();
    // The newest map, partial while the job runs; null before the first piece.
    const OcclusionProgress* poll();
    bool busy() const { return task_ != nullptr; }

private:
    std::shared_ptr<Worker> worker_;
    std::shared_ptr<OcclusionMapper> mapper_ = std::make_shared<OcclusionMapper>();  // its buffers kept between maps
    std::optional<OcclusionProgress> latest_;
    std::shared_ptr<OcclusionWork> job_;
    std::unique_ptr<Task> task_;  // last: destroyed first, cancelling the job
};

}  // namespace vit::gui
