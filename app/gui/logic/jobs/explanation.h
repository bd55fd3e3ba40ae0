// What the backward pass says about one class of one trace: the gradient of
// its logit for every stage (the backward walk), Chefer et al.'s relevance over
// the patches and the input-gradient saliency over the pixels ("Why this
// class?"). Computed as a job of the worker (worker.h), in pieces: the
// backward (core's BackwardWalk: the head, a block a piece, the embedding),
// the saliency, the relevance; kept until the trace or the class changes; a
// request for another trace or class cancels the job under way.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "logic/jobs/worker.h"
#include "model/model.h"
#include "pass/interventions.h"
#include "pass/trace.h"

namespace vit::gui {

struct Explanation {
    int cls = -1;
    uint64_t generation = 0;                 // the trace it explains (App's generation counter)
    std::shared_ptr<const Trace> gradients;  // d logit[cls] / d stage, for every stage it depends on
    std::vector<float> relevance;            // N: R[0, 1 + n] for patch n (relevance.h), as shares summing to 1
    std::string relevance_missing;           // why relevance is empty (dropped tokens)
    std::vector<float> saliency;             // S×S: max over channels of |∂logit[cls]/∂input|
    int side = 0;                            // S
    std::string error;                       // why there is none (no head, a class out of range)

    // Whether this is the explanation of class `c` of trace `g`.
    bool answers(uint64_t g, int c) const { return generation == g && cls == c; }
};

// Synchronous (the tests call it; the job runs the same pieces). Errors come back in `error`.
// `asked`: the question the trace was computed under. The backward pass follows
// masked pixels, dropped tokens and removed positions; under a temperature,
// silenced heads or shuffled patches the explanation has only its error set.
Explanation explain_class(const Model& model, const Trace& trace, int cls, const Interventions& asked = {});

// The class a "Why" view explains by default: the top-1 of `probs` (0 when absent).
int top_class(const Trace& trace);

class ExplainWork;

class ExplainJob {
public:
    explicit ExplainJob(std::shared_ptr<Worker> worker);
    ~ExplainJob();  // cancels the job under way
    // Starts unless the newest result or the job under way is for (generation,
    // cls); a job under way for another question is cancelled first.
    void request(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> trace, uint64_t generation, int cls,
                 const Interventions& asked = {});
    // The newest finished explanation (null before the first); collects a finished job.
    const Explanation* poll();
    bool busy() const { return task_ != nullptr; }

private:
    std::shared_ptr<Worker> worker_;
    std::optional<Explanation> done_;
    std::shared_ptr<ExplainWork> job_;
    std::unique_ptr<Task> task_;  // last: destroyed first, cancelling the job
};

}  // namespace vit::gui
