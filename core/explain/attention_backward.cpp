// Backward of timm's Attention (no fused kernel), one head per OpenMP thread
// as in the forward (attention.cpp).
#include "explain/attention_backward.h"

#include <cmath>

#include "explain/layers_backward.h"

namespace vit {

void attention_context_backward(const Tensor& attn, const Tensor& v, const Tensor& dcontext, Tensor& dattn,
                                Tensor& dv) {
    const int64_t heads = attn.shape[0];
    const int64_t head_dim = v.shape[2];
    const ConstMatMap dctx = dcontext.mat();
#pragma omp parallel for schedule(static) if (attn.numel() >= kParallelMinElements)
    for (int64_t h = 0; h < heads; ++h) {
        const auto dctx_h = dctx.middleCols(h * head_dim, head_dim);
        dattn.slice(h).noalias() = dctx_h * v.slice(h).transpose();
        dv.slice(h).noalias() = attn.slice(h).transpose() * dctx_h;
    }
}

void attention_weights_backward(const Tensor& q, const Tensor& k, const Tensor& attn, const Tensor& dattn,
                                Tensor& dscores, Tensor& dq, Tensor& dk) {
    const int64_t heads = q.shape[0];
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.shape[2]));
    softmax_rows_backward(attn.mat(), dattn.mat(), dscores.mat());
#pragma omp parallel for schedule(static) if (dscores.numel() >= kParallelMinElements)
    for (int64_t h = 0; h < heads; ++h) {
        dq.slice(h).noalias() = (dscores.slice(h) * scale) * k.slice(h);
        dk.slice(h).noalias() = (dscores.slice(h).transpose() * scale) * q.slice(h);
    }
}

void merge_heads(const Tensor& dq, const Tensor& dk, const Tensor& dv, MatMap dqkv) {
    const int64_t heads = dq.shape[0], tokens = dq.shape[1], head_dim = dq.shape[2];
    const int64_t dim = heads * head_dim;
    const Tensor* parts[3] = {&dq, &dk, &dv};
    for (int part = 0; part < 3; ++part)
        for (int64_t h = 0; h < heads; ++h)
            dqkv.block(0, part * dim + h * head_dim, tokens, head_dim) = parts[part]->slice(h);
}

}  // namespace vit
