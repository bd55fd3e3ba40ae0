// "Why this class?" numbers from the backward pass (see explanation.h).
#include "logic/jobs/explanation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "explain/backward.h"
#include "explain/relevance.h"

namespace vit::gui {

Explanation explain_class(const Model& model, const Trace& trace, int cls) {
    Explanation ex;
    ex.cls = cls;
    try {
        Gradients g = logit_gradients(model, trace, cls);
        const Tensor& din = g.stages.at({StageKind::Input});
        const int C = static_cast<int>(din.shape[0]), S = static_cast<int>(din.shape[1]);
        ex.side = S;
        ex.saliency.assign(static_cast<size_t>(S) * S, 0.f);
        for (int c = 0; c < C; ++c)
            for (size_t i = 0; i < ex.saliency.size(); ++i)
                ex.saliency[i] = std::max(ex.saliency[i], std::fabs(din.data[c * ex.saliency.size() + i]));
        const int N = static_cast<int>(trace.at({StageKind::Patches}).rows());
        const int T = static_cast<int>(trace.at({StageKind::Tokens}).rows());
        if (T == N + 1) {
            const Tensor r = relevance(trace, g.stages, model.config.depth);
            ex.relevance.assign(r.data.begin() + 1, r.data.begin() + 1 + N);  // row 0 (CLS), columns 1…N
            double total = 0.0;  // as shares of the patches' total, so the map reads in %
            for (float v : ex.relevance) total += v;
            if (total > 0.0)
                for (float& v : ex.relevance) v = static_cast<float>(v / total);
        } else {
            ex.relevance_missing = "relevance needs every patch token (some were dropped)";
        }
        ex.gradients = std::make_shared<const Trace>(std::move(g.stages));
    } catch (const std::exception& e) {
        ex.error = e.what();
    }
    return ex;
}

int top_class(const Trace& trace) {
    const Tensor* probs = trace.tensor({StageKind::Probs});
    if (!probs || probs->data.empty()) return 0;
    return static_cast<int>(std::max_element(probs->data.begin(), probs->data.end()) - probs->data.begin());
}

void ExplainJob::request(std::shared_ptr<const Model> model, std::shared_ptr<const Trace> trace, uint64_t generation,
                         int cls) {
    if (done_ && done_->answers(generation, cls)) return;
    if (busy()) return;  // one at a time: the view asks again every frame
    running_ = std::async(std::launch::async, [model = std::move(model), trace = std::move(trace), generation, cls] {
        Explanation ex = explain_class(*model, *trace, cls);
        ex.generation = generation;
        return ex;
    });
}

const Explanation* ExplainJob::poll() {
    if (busy() && running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) done_ = running_.get();
    return done_ ? &*done_ : nullptr;
}

}  // namespace vit::gui
