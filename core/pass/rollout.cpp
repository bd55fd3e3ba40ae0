// Attention rollout over all blocks (stage `rollout`), as in Abnar & Zuidema
// 2020 and the common ViT-explainability code: heads averaged, identity added
// for the residual, rows renormalised, products taken from the first block on.
#include "pass/rollout.h"

#include "pass/stages.h"
#include "tensor/gemm.h"
#include "tensor/openmp.h"

namespace vit {

namespace {

// Rows [begin, end) of Â for one block: the mean over heads of attn, plus I, each row renormalised.
void residual_attention_rows(const Tensor& attn, int64_t begin, int64_t end, MatRef out) {
    const int64_t heads = attn.shape[0];
    out = attn.slice(0).middleRows(begin, end - begin);
    for (int64_t h = 1; h < heads; ++h) out += attn.slice(h).middleRows(begin, end - begin);
    out /= static_cast<float>(heads);
    for (int64_t r = begin; r < end; ++r) {
        out(r - begin, r) += 1.0f;
        out.row(r - begin) /= out.row(r - begin).sum();
    }
}

}  // namespace

RolloutWalk::RolloutWalk(int64_t tokens) : result_(Mat::Identity(tokens, tokens)) {}

// Each thread takes a share of the rows: Â's rows, then those rows of the product
// with the rollout so far (rows of Â · R need only Â's rows).
void RolloutWalk::add(const Tensor& attn) {
    const int64_t tokens = result_.rows();
    if (!first_ && block_.rows() != tokens) block_.resize(tokens, tokens), product_.resize(tokens, tokens);
#pragma omp parallel if (result_.size() >= kParallelMinElements)
    {
        const auto [begin, end] = thread_share(tokens);
        if (end > begin && first_) {
            residual_attention_rows(attn, begin, end, result_.middleRows(begin, end - begin));
        } else if (end > begin) {
            MatRef rows = block_.middleRows(begin, end - begin);
            residual_attention_rows(attn, begin, end, rows);
            multiply(rows, result_, product_.middleRows(begin, end - begin));
        }
    }
    if (!first_) result_.swap(product_);
    first_ = false;
}

void attention_rollout(const std::vector<const Tensor*>& attns, Tensor& out) {
    RolloutWalk walk(out.mat().rows());
    for (const Tensor* attn : attns) walk.add(*attn);
    out.mat() = walk.result();
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
