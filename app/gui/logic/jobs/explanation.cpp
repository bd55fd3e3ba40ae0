// "Why this class?" numbers from the backward pass (see explanation.h), in
// pieces that the worker (worker.h) runs.
#include "logic/jobs/explanation.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "explain/backward.h"
#include "explain/relevance.h"
#include "pass/forward.h"
#include "pass/trace_budget.h"

namespace vit::gui {

namespace {

// The backward pass follows masked pixels, dropped tokens and removed positions,
// but not a softmax temperature, silenced heads or shuffled patches.
bool backward_follows(const Interventions& asked) {
    return asked.temperature == 1.0f && asked.ablate_heads.empty() && asked.permute_patches.empty();
}
constexpr const char* kNotFollowed =
    "the backward pass does not follow a temperature, silenced heads or shuffled patches: "
    "take them out of the Ask panel's question to see the gradients";

// The explanation in pieces: the backward walk, the saliency, the relevance.
class ExplainSteps {
public:
    ExplainSteps(const Model& model, const Trace& trace, int cls, const Interventions& asked)
        : model_(model), trace_(&trace) {
        ex_.cls = cls;
        if (!backward_follows(asked)) {
            ex_.error = kNotFollowed;
            return;
        }
        if (trace.keep() == TraceKeep::Stream) phases_.add([this] { return pass_every_stage(); });
        phases_.add([this] {  // the seed and the head
            grads_.params = zeros_like(model_);
            walk_.emplace(model_, *trace_, logit_seed(model_, ex_.cls), grads_);
            return false;
        });
        phases_.add([this] { return walk_->step(); });  // a block a piece, then the embedding
        phases_.add([this] {
            find_saliency();
            return false;
        });
        phases_.add([this] {
            find_relevance();
            ex_.gradients = std::make_shared<const Trace>(std::move(grads_.stages));
            return false;
        });
    }
    // One piece; false once done or failed (the error is kept in the explanation).
    bool step() {
        try {
            return phases_.step();
        } catch (const std::exception& e) {
            ex_.error = e.what();
            return false;
        }
    }
    Explanation take() {
        while (step()) {}
        return std::move(ex_);
    }

private:
    // The backward pass reads every stage: a Stream trace's pass is run again keeping them,
    // when they and their gradients fit in memory (else an error saying so).
    bool pass_every_stage() {
        const ModelConfig& c = model_.config;
        const Tensor& input = trace_->at({StageKind::Input});
        const int size = static_cast<int>(input.shape[1]);
        const int64_t needed = 2 * trace_bytes(c, size);
        if (needed > trace_budget_bytes())
            throw Error("gradients of " + c.name + " at " + std::to_string(size) + "×" + std::to_string(size) +
                        " pixels need every stage of its pass and of its backward pass (" +
                        gigabytes(static_cast<double>(needed)) + "); a smaller image size has them (--image-size " +
                        std::to_string(largest_fitting_image_size(c, trace_budget_bytes() / 2)) + ")");
        every_stage_ = forward(model_, input, trace_->interventions());
        trace_ = &*every_stage_;
        return false;
    }
    void find_saliency() {
        const Tensor& din = grads_.stages.at({StageKind::Input});
        const int C = static_cast<int>(din.shape[0]), S = static_cast<int>(din.shape[1]);
        ex_.side = S;
        ex_.saliency.assign(static_cast<size_t>(S) * S, 0.f);
        for (int c = 0; c < C; ++c)
            for (size_t i = 0; i < ex_.saliency.size(); ++i)
                ex_.saliency[i] = std::max(ex_.saliency[i], std::fabs(din.data[c * ex_.saliency.size() + i]));
    }
    void find_relevance() {
        const int N = static_cast<int>(trace_->at({StageKind::Patches}).rows());
        const int T = static_cast<int>(trace_->at({StageKind::Tokens}).rows());
        if (T != N + 1) {
            ex_.relevance_missing = "relevance needs every patch token (some were dropped)";
            return;
        }
        const Tensor r = relevance(*trace_, grads_.stages, model_.config.depth);
        ex_.relevance.assign(r.data.begin() + 1, r.data.begin() + 1 + N);  // row 0 (CLS), columns 1…N
        double total = 0.0;  // as shares of the patches' total, so the map reads in %
        for (float v : ex_.relevance) total += v;
        if (total > 0.0)
            for (float& v : ex_.relevance) v = static_cast<float>(v / total);
    }

    const Model& model_;
    const Trace* trace_;                // the trace the backward pass reads: the one asked about,
    std::optional<Trace> every_stage_;  // or its pass again with every stage (pass_every_stage)
    Explanation ex_;
    Gradients grads_;
    std::optional<BackwardWalk> walk_;  // fills grads_
    Phases phases_;
};

}  // namespace

// One question on the worker, keeping its model and trace alive.
class ExplainWork : public Job {
public:
    ExplainWork(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> trace, uint64_t generation, int cls,
                const Interventions& asked)
        : model_(std::move(model)),
          trace_(std::move(trace)),
          steps_(*model_, *trace_, cls, asked),
          generation_(generation),
          cls_(cls) {}
    bool step() override { return steps_.step(); }
    bool answers(uint64_t generation, int cls) const { return generation_ == generation && cls_ == cls; }
    Explanation take() {
        Explanation ex = steps_.take();
        ex.generation = generation_;
        return ex;
    }

private:
    std::shared_ptr<const Model> model_;
    std::shared_ptr<const Trace> trace_;
    ExplainSteps steps_;
    uint64_t generation_;
    int cls_;
};

Explanation explain_class(const Model& model, const Trace& trace, int cls, const Interventions& asked) {
    return ExplainSteps(model, trace, cls, asked).take();
}

int top_class(const Trace& trace) {
    const Tensor* probs = trace.tensor({StageKind::Probs});
    if (!probs || probs->data.empty()) return 0;
    return static_cast<int>(std::max_element(probs->data.begin(), probs->data.end()) - probs->data.begin());
}

ExplainJob::ExplainJob(std::shared_ptr<Worker> worker) : worker_(std::move(worker)) {}

ExplainJob::~ExplainJob() = default;

void ExplainJob::request(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> trace, uint64_t generation,
                         int cls, const Interventions& asked) {
    if (done_ && done_->answers(generation, cls)) return;
    if (busy() && job_->answers(generation, cls)) return;  // on its way: the view asks again every frame
    task_.reset();  // an older question is cancelled (after the piece under way: at most one block's backward)
    job_ = std::make_shared<ExplainWork>(std::move(model), std::move(trace), generation, cls, asked);
    task_ = worker_->submit(job_);
}

const Explanation* ExplainJob::poll() {
    if (task_ && task_->finished()) {
        task_.reset();
        done_ = job_->take();
        job_.reset();
    }
    return done_ ? &*done_ : nullptr;
}

}  // namespace vit::gui
