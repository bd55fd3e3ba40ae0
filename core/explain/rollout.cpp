// Attention rollout over all blocks (stage `rollout`), as in Abnar & Zuidema
// 2020 and the common ViT-explainability code: heads averaged, identity added
// for the residual, rows renormalised, products taken from the first block on.
#include "explain/rollout.h"

#include "pass/stages.h"

namespace vit {

static Mat residual_attention(const Tensor& attn) {
    const int64_t heads = attn.shape[0];
    const int64_t tokens = attn.shape[1];
    Mat mean = Mat::Zero(tokens, tokens);
    for (int64_t h = 0; h < heads; ++h) mean += attn.slice(h);
    mean /= static_cast<float>(heads);
    mean += Mat::Identity(tokens, tokens);
    for (int64_t r = 0; r < tokens; ++r) mean.row(r) /= mean.row(r).sum();
    return mean;
}

void attention_rollout(const std::vector<const Tensor*>& attns, Tensor& out) {
    MatMap result = out.mat();
    if (attns.empty()) {
        result.setIdentity();
        return;
    }
    result = residual_attention(*attns.front());
    for (size_t l = 1; l < attns.size(); ++l) {
        const Mat product = residual_attention(*attns[l]) * result;
        result = product;
    }
}

const Tensor& add_rollout(Trace& trace) {
    std::vector<const Tensor*> attns;
    for (const Stage& s : trace.stages())
        if (s.kind == StageKind::Attn) attns.push_back(&s.tensor);
    const int64_t tokens = attns.empty() ? trace.at({StageKind::Tokens}).shape[0] : attns.front()->shape[1];
    const bool replace = trace.size() > 0 && trace.stages().back().kind == StageKind::Rollout;
    Tensor& out = trace.put(trace.size() - (replace ? 1 : 0), {StageKind::Rollout}, {tokens, tokens});
    attention_rollout(attns, out);
    return out;
}

}  // namespace vit
