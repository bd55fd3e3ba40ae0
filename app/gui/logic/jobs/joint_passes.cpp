// The joint PCA's other images on the worker (see joint_passes.h): a PassSteps per
// image, its pieces the job's pieces, each finished pass cut down to what the PCA needs.
#include "logic/jobs/joint_passes.h"

#include <algorithm>
#include <exception>
#include <filesystem>

#include "logic/jobs/pass_steps.h"

namespace vit::gui {

namespace fs = std::filesystem;

// `path` as one spelling of its file (relative or not, with "..").
static std::string canonical(const std::string& path) {
    std::error_code ec;
    const fs::path p = fs::weakly_canonical(fs::absolute(path, ec), ec);
    return ec ? path : p.string();
}

std::vector<std::string> joint_pca_others(const std::string& current, const std::string& current_name,
                                          const std::vector<std::string>& chosen,
                                          const std::vector<std::string>& gallery, size_t most) {
    std::vector<std::string> others, seen{current.empty() ? std::string() : canonical(current)};
    for (const std::string& path : chosen.empty() ? gallery : chosen) {
        const std::string same = canonical(path);
        if (others.size() == most) break;
        if (std::find(seen.begin(), seen.end(), same) != seen.end()) continue;
        if (current.empty() && fs::path(path).filename().string() == current_name) continue;
        seen.push_back(same);
        others.push_back(path);
    }
    return others;
}

class JointWork : public Job {
public:
    JointWork(std::shared_ptr<const Model> model, JointPasses asked)
        : model_(std::move(model)), done_(std::move(asked)) {}
    bool step() override {
        try {
            const size_t next = done_count();
            if (next == done_.paths.size()) return false;
            if (!pass_)
                pass_ = std::make_unique<PassSteps>(LoadRequest{done_.model_name, done_.paths[next], done_.image_size},
                                                    model_, done_.model_name, PassSteps::Progress{}, &reuse_);
            if (pass_->step()) return true;
            keep(pass_->take());
            pass_.reset();
            return next + 1 < done_.paths.size();
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(mutex_);
            done_.error = e.what();
            return false;
        }
    }
    size_t done_count() {
        std::lock_guard<std::mutex> lock(mutex_);
        return done_.images.size();
    }
    JointPasses progress() {
        std::lock_guard<std::mutex> lock(mutex_);
        return done_;
    }
    bool answers(const std::string& model, const std::vector<std::string>& paths, int size) const {
        return done_.answers(model, paths, size);  // the key fields are never written after construction
    }

private:
    void keep(Loaded loaded) {
        auto image = std::make_shared<JointImage>();
        image->name = loaded.image_name;
        image->input = *loaded.input;
        image->tokens = patch_tokens(*loaded.trace, model_->config);
        for (int b = 0; b < model_->config.depth; ++b)
            image->outs.push_back(loaded.trace->at(StageRef{StageKind::Out, b}));
        std::lock_guard<std::mutex> lock(mutex_);
        done_.images.push_back(std::move(image));
    }

    std::shared_ptr<const Model> model_;
    PassReuse reuse_;  // the traces' storage passed on from image to image
    std::unique_ptr<PassSteps> pass_;
    std::mutex mutex_;  // done_ is read by the owner while the worker writes it
    JointPasses done_;
};

JointPassJob::JointPassJob(std::shared_ptr<Worker> worker) : worker_(std::move(worker)) {}

JointPassJob::~JointPassJob() = default;

void JointPassJob::request(std::shared_ptr<const Model> model, const std::string& model_name,
                           const std::vector<std::string>& paths, int image_size) {
    if (running_ ? running_->job->answers(model_name, paths, image_size)
                 : latest_ && latest_->answers(model_name, paths, image_size))
        return;
    running_.reset();  // cancels the job under way (after its piece)
    JointPasses asked;
    asked.model_name = model_name;
    asked.paths = paths;
    asked.image_size = image_size;
    latest_ = asked;
    auto job = std::make_shared<JointWork>(std::move(model), std::move(asked));
    running_ = std::make_unique<Running>(Running{job, worker_->submit(job)});
}

const JointPasses* JointPassJob::poll() {
    if (running_) {
        latest_ = running_->job->progress();
        if (running_->task->finished()) running_.reset();
    }
    return latest_ ? &*latest_ : nullptr;
}

}  // namespace vit::gui
