// Multi-head attention stages (timm's Attention, eval mode, no fused kernel).
// Heads are independent: each head's query rows, in as many parts as make the
// work divide evenly over the threads, run their small products on one OpenMP
// thread each (gemm.h's products run single-threaded inside the region), and
// the softmax of a part follows its product while in cache.
#include "attention.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gemm.h"
#include "layers.h"

namespace vit {

namespace {

// Calls work(h, begin, rows) for every head's query rows in `parts` parts, so
// that heads × parts divides over the threads (ViT-Ti's 3 heads on 2 threads:
// 6 halves), one part per OpenMP iteration.
template <class Work>
void for_each_head_part(int64_t heads, int64_t tokens, bool parallel, Work work) {
    const int64_t threads = omp_get_max_threads();
    const int64_t parts = threads / std::gcd(heads, threads);
    const int64_t rows_per_part = (tokens + parts - 1) / parts;
#pragma omp parallel for schedule(static) if (parallel)
    for (int64_t item = 0; item < heads * parts; ++item) {
        const int64_t begin = item % parts * rows_per_part;
        const int64_t rows = std::min(rows_per_part, tokens - begin);
        if (rows > 0) work(item / parts, begin, rows);
    }
}

}  // namespace

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
    const int64_t heads = q.shape[0], tokens = q.shape[1];
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.shape[2]));
    for_each_head_part(heads, tokens, scores.numel() >= kParallelMinElements, [&](int64_t h, int64_t begin, int64_t rows) {
        MatMap head_scores(scores.slice(h).data() + begin * tokens, rows, tokens);
        MatMap head_attn(attn.slice(h).data() + begin * tokens, rows, tokens);
        multiply_bt(q.slice(h).middleRows(begin, rows), k.slice(h), head_scores, scale);
        if (temperature == 1.0f) {
            softmax_rows(head_scores, head_attn);
        } else {
            head_attn = head_scores / temperature;
            softmax_rows(head_attn, head_attn);
        }
    });
}

void attention_context(const Tensor& attn, const Tensor& v, Tensor& context) {
    const int64_t heads = attn.shape[0], tokens = attn.shape[1];
    const int64_t head_dim = v.shape[2];
    MatMap out = context.mat();
    for_each_head_part(heads, tokens, attn.numel() >= kParallelMinElements, [&](int64_t h, int64_t begin, int64_t rows) {
        multiply(attn.slice(h).middleRows(begin, rows), v.slice(h), out.block(begin, h * head_dim, rows, head_dim));
    });
}

}  // namespace vit
