// Multi-head attention stages (timm's Attention, eval mode, no fused kernel).
// Heads are independent, so each runs its small GEMMs on its own OpenMP
// thread; Eigen then runs each product single-threaded inside the region.
#include "attention.h"

#include <cmath>

#include "layers.h"

namespace vit {

void split_heads(const ConstMatRef& qkv, int heads, Tensor& q, Tensor& k, Tensor& v) {
    const int64_t tokens = qkv.rows();
    const int64_t dim = qkv.cols() / 3;
    const int64_t head_dim = dim / heads;
    Tensor* parts[3] = {&q, &k, &v};
#pragma omp parallel for collapse(2) schedule(static) if (qkv.size() >= kParallelMinElements)
    for (int part = 0; part < 3; ++part)
        for (int h = 0; h < heads; ++h)
            parts[part]->slice(h) = qkv.block(0, part * dim + h * head_dim, tokens, head_dim);
}

void attention_weights(const Tensor& q, const Tensor& k, Tensor& scores, Tensor& attn, float temperature) {
    const int64_t heads = q.shape[0];
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.shape[2]));
#pragma omp parallel for schedule(static) if (scores.numel() >= kParallelMinElements)
    for (int64_t h = 0; h < heads; ++h) {
        scores.slice(h).noalias() = (q.slice(h) * scale) * k.slice(h).transpose();
    }
    if (temperature == 1.0f) {
        softmax_rows(scores.mat(), attn.mat());
    } else {
        attn.mat() = scores.mat() / temperature;
        softmax_rows(attn.mat(), attn.mat());
    }
}

void attention_context(const Tensor& attn, const Tensor& v, Tensor& context) {
    const int64_t heads = attn.shape[0];
    const int64_t head_dim = v.shape[2];
    MatMap out = context.mat();
#pragma omp parallel for schedule(static) if (attn.numel() >= kParallelMinElements)
    for (int64_t h = 0; h < heads; ++h) {
        out.middleCols(h * head_dim, head_dim).noalias() = attn.slice(h) * v.slice(h);
    }
}

}  // namespace vit
