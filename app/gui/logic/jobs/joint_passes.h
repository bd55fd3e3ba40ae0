// The other images of the patch-PCA screen's joint PCA (core/findings/pca.h:
// joint_patch_pca_colours, DINOv2's Figure 1): each read and run through the model
// on screen as the Loader does (pass_steps.h, the same pieces), one image after
// another as a job of the worker (worker.h), keeping of each only its input, its
// patch rows and every block's output. A request for other images, another model
// or another input size cancels the job under way; what is done so far stays readable.
#pragma once
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "findings/patch_tokens.h"
#include "findings/pca.h"
#include "logic/jobs/worker.h"
#include "model/model.h"

namespace vit::gui {

struct JointImage {
    std::string name;          // the file's name
    Tensor input;              // the model's input made from it (stage `input`), for display
    PatchTokens tokens;        // its patch rows
    std::vector<Tensor> outs;  // block b's output (block{b}.out), every block
};

struct JointPasses {
    std::string model_name;                                 // the model they went through, as requested
    std::vector<std::string> paths;                         // the images asked for, in order
    int image_size = 0;                                     // the input size asked for (0: the model's own)
    std::vector<std::shared_ptr<const JointImage>> images;  // those done so far, in `paths` order
    std::string error;  // why the job stopped (vit::Error's message, naming the file), or ""
    bool complete() const { return error.empty() && images.size() == paths.size(); }
    bool answers(const std::string& model, const std::vector<std::string>& asked, int size) const {
        return model_name == model && paths == asked && image_size == size;
    }
};

// The images a joint PCA takes beside the current one (`current`, "" for the model's own, whose
// display name is `current_name`): `chosen` (--pca-images) when given, else `gallery`; the
// current one (the same file, or by name the model's own) and repeats left out, at most `most`.
std::vector<std::string> joint_pca_others(const std::string& current, const std::string& current_name,
                                          const std::vector<std::string>& chosen,
                                          const std::vector<std::string>& gallery, size_t most);

class JointWork;

class JointPassJob {
public:
    explicit JointPassJob(std::shared_ptr<Worker> worker);
    ~JointPassJob();  // cancels the job under way
    // Starts the passes of `paths` through `model` (requested as `model_name`) at `image_size`
    // unless the job under way or the newest result answers them.
    void request(std::shared_ptr<const Model> model, const std::string& model_name,
                 const std::vector<std::string>& paths, int image_size);
    // The newest result, partial while the job runs; null before the first request.
    const JointPasses* poll();
    bool busy() const { return running_ != nullptr; }

private:
    struct Running {  // the job under way and its task, which go together
        std::shared_ptr<JointWork> job;
        std::unique_ptr<Task> task;  // last: destroyed first, cancelling the job
    };
    std::shared_ptr<Worker> worker_;
    std::optional<JointPasses> latest_;
    std::unique_ptr<Running> running_;  // null when idle
};

}  // namespace vit::gui
