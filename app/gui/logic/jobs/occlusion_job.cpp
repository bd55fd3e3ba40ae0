// The occlusion job (occlusion_job.h): OcclusionMapper's pieces on the worker,
// each publishing the map so far.
#include "logic/jobs/occlusion_job.h"

#include <exception>

#include "pass/timing.h"
#include "tensor/threads.h"

namespace vit::gui {

// One map on the worker, keeping its model and input alive.
class OcclusionWork : public Job {
public:
    OcclusionWork(std::shared_ptr<const Model> model, std::shared_ptr<const Tensor> input,
                  std::shared_ptr<OcclusionMapper> mapper, const Interventions& asked, uint64_t generation)
        : model_(std::move(model)), input_(std::move(input)), mapper_(std::move(mapper)) {
        progress_.asked = asked;
        progress_.generation = generation;
    }
    bool step() override {
        const Stopwatch watch;
        bool more = false;
        try {
            if (!started_) {
                mapper_->start(*model_, *input_, progress_.asked);
                started_ = more = true;
            } else {
                more = mapper_->next(machine_threads());
            }
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(mutex_);
            progress_.error = e.what();
            return false;
        }
        std::lock_guard<std::mutex> lock(mutex_);
        progress_.map = mapper_->map();
        progress_.ms += watch.ms();
        return more;
    }
    OcclusionProgress progress() {
        std::lock_guard<std::mutex> lock(mutex_);
        return progress_;
    }
    uint64_t generation() const { return progress_.generation; }

private:
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Tensor> input_;
    std::shared_ptr<OcclusionMapper> mapper_;
    bool started_ = false;
    std::mutex mutex_;  // progress_ is read by the owner while the worker writes it
    OcclusionProgress progress_;
};

OcclusionJob::OcclusionJob(std::shared_ptr<Worker> worker) : worker_(std::move(worker)) {}

OcclusionJob::~OcclusionJob() = default;

void OcclusionJob::request(std::shared_ptr<const Model> model, std::shared_ptr<const Tensor> input,
                           const Interventions& asked, uint64_t generation) {
    if (job_ && job_->generation() == generation) return;                                          // running for it
    if (!job_ && latest_ && latest_->generation == generation && latest_->map.complete()) return;  // done
    cancel();
    job_ = std::make_shared<OcclusionWork>(std::move(model), std::move(input), mapper_, asked, generation);
    task_ = worker_->submit(job_);
}

void OcclusionJob::cancel() {
    if (!job_) return;
    task_.reset();  // waits for the piece under way
    OcclusionProgress last = job_->progress();
    if (!last.map.probabilities.empty()) latest_ = std::move(last);
    job_.reset();
}

const OcclusionProgress* OcclusionJob::poll() {
    if (job_) {
        OcclusionProgress now = job_->progress();
        if (!now.map.probabilities.empty() || !now.error.empty()) latest_ = std::move(now);
        if (task_->finished()) {
            task_.reset();
            job_.reset();
        }
    }
    return latest_ ? &*latest_ : nullptr;
}

}  // namespace vit::gui
