// The Loader: a model and an image loaded and run through vit::forward as a
// job of the worker (worker.h), in the pieces of pass_steps.h.
#include "logic/jobs/loader.h"

#include "logic/jobs/pass_steps.h"
#include "pass/trace_budget.h"

namespace vit::gui {

Loaded load_and_run(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
                    const std::function<void(float, const char*)>& progress, PassReuse* reuse) {
    return PassSteps(req, std::move(current), current_name, progress, reuse).take();
}

// One request on the worker: its pieces, then the outcome (errors as text).
class LoadJob : public Job {
public:
    LoadJob(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name,
            const std::shared_ptr<Loader::Shared>& st)
        : steps_(req, std::move(current), current_name, progress_to(st), st->reuse.get(),
                 {&st->cancel, &st->superseded}) {
        outcome_.request = req;
    }
    bool step() override {
        try {
            if (steps_.step()) return true;
            outcome_.loaded = steps_.take();
        } catch (const Superseded&) {
            superseded_ = true;
        } catch (const InputTooLarge& e) {
            outcome_.error = e.what();
            outcome_.fitting_image_size = e.largest_fitting;
        } catch (const std::exception& e) {
            outcome_.error = e.what();
        }
        return false;
    }
    LoadOutcome take() { return std::move(outcome_); }
    // Stopped for a newer request: no outcome; the model it read, for that request.
    bool superseded() const { return superseded_; }
    const PassSteps& steps() const { return steps_; }

private:
    static PassSteps::Progress progress_to(std::shared_ptr<Loader::Shared> st) {
        return [st](float f, const char* what) {
            st->progress = f;
            std::lock_guard<std::mutex> lock(st->mutex);
            st->phase = what;
        };
    }

    PassSteps steps_;
    LoadOutcome outcome_;
    bool superseded_ = false;
};

Loader::Loader(std::shared_ptr<Worker> worker, bool keep_stream)
    : worker_(std::move(worker)), keep_stream_(keep_stream) {
    state_->reuse = std::make_shared<PassReuse>();
}

Loader::~Loader() = default;

void Loader::start(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name) {
    state_->progress = 0.f;
    state_->cancel = false;
    state_->superseded = false;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        state_->phase = "starting";
    }
    LoadRequest asked = req;
    asked.keep_stream = asked.keep_stream || keep_stream_;
    job_ = std::make_shared<LoadJob>(asked, std::move(current), current_name, state_);
    task_ = worker_->submit(job_);
}

void Loader::request(const LoadRequest& req, std::shared_ptr<const Model> current, const std::string& current_name) {
    if (busy()) {
        pending_ = req;
        pending_model_ = std::move(current);
        pending_name_ = current_name;
        state_->superseded = true;  // the pass under way stops at its next block
        return;
    }
    start(req, std::move(current), current_name);
}

std::string Loader::phase() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    return state_->phase;
}

std::optional<LoadOutcome> Loader::poll() {
    if (!task_ || !task_->finished()) return {};
    task_.reset();
    if (job_->superseded()) {  // nothing to show: the newest request runs, on the model read if it is its
        const PassSteps& steps = job_->steps();
        const bool same = steps.model() && steps.model_name() == pending_->model;
        std::shared_ptr<const Model> model = same ? steps.model() : pending_model_;
        const std::string name = same ? steps.model_name() : pending_name_;
        start(*pending_, std::move(model), name);
        pending_.reset();
        pending_model_.reset();
        return {};
    }
    LoadOutcome o = job_->take();
    job_.reset();
    if (pending_) {
        // The newest request runs next, on the model just loaded when it is the same.
        if (o.loaded) start(*pending_, o.loaded->model, o.loaded->model_name);
        else start(*pending_, pending_model_, pending_name_);
        pending_.reset();
        pending_model_.reset();
    }
    return o;
}

}  // namespace vit::gui
