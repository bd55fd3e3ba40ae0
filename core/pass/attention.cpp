// Multi-head attention stages (timm's Attention, eval mode, no fused kernel).
// Heads are independent: each head's query rows, in as many parts as make the
// work divide evenly over the threads, run their small products on one OpenMP
// thread each (gemm.h's products run single-threaded inside the region). A
// part's scores, softmax and weighted sum follow one another in the thread's
// own buffers, held in cache; only then are its scores and weights copied to
// their stages, past the caches (stream_copy.h), as nothing in the pass reads
// them again.
#include "pass/attention.h"

#include "tensor/openmp.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "tensor/gemm.h"
#include "pass/layers.h"
#include "tensor/stream_copy.h"

namespace vit {

namespace {

// Calls work(h, begin, rows) for every head's query rows in `parts` parts, so
// that heads × parts divides over the threads (ViT-Ti's 3 heads on 2 threads:
// 6 halves), one part per OpenMP iteration.
template <class Work>
void for_each_head_part(int64_t heads, int64_t tokens, [[maybe_unused]] bool parallel, Work work) {
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

void qkv_heads(const ConstMatRef& x, const Mat& w, const Vec& b, Tensor& q, Tensor& k, Tensor& v,
               const PackedBt* packed) {
    const int64_t heads = q.shape[0], tokens = q.shape[1], head_dim = q.shape[2];
    std::vector<float*> head_data;
    for (Tensor* part : {&q, &k, &v})
        for (int64_t h = 0; h < heads; ++h) head_data.push_back(part->slice(h).data());
    linear(x, w, b, ColumnGroups(head_data.data(), head_dim, head_dim, tokens, 3 * heads * head_dim), packed);
}

void attention(const Tensor& q, const Tensor& k, const Tensor& v, Tensor& scores, Tensor& attn, Tensor& context,
               float temperature) {
    const int64_t heads = q.shape[0], tokens = q.shape[1];
    const int64_t head_dim = v.shape[2];
    const float scale = 1.0f / std::sqrt(static_cast<float>(q.shape[2]));
    MatMap out = context.mat();
    for_each_head_part(
        heads, tokens, scores.numel() >= kParallelMinElements, [&](int64_t h, int64_t begin, int64_t rows) {
            // The part's scores and weights, worked on in the thread's own buffers.
            thread_local FloatStorage part_scores, part_attn;
            part_scores.resize(static_cast<size_t>(rows * tokens));
            part_attn.resize(static_cast<size_t>(rows * tokens));
            MatMap work_scores(part_scores.data(), rows, tokens), work_attn(part_attn.data(), rows, tokens);
            multiply_bt(q.slice(h).middleRows(begin, rows), k.slice(h), work_scores, scale);
            if (temperature == 1.0f) {
                softmax_rows(work_scores, work_attn);
            } else {  // shifted by the row's max before dividing: (s − max) / τ ≤ 0 never overflows to +inf
                work_attn = (work_scores.array().colwise() - work_scores.array().rowwise().maxCoeff()) / temperature;
                softmax_rows(work_attn, work_attn);
            }
            multiply(work_attn, v.slice(h), out.block(begin, h * head_dim, rows, head_dim));
            copy_past_caches(part_scores.data(), scores.slice(h).data() + begin * tokens, rows * tokens);
            copy_past_caches(part_attn.data(), attn.slice(h).data() + begin * tokens, rows * tokens);
        });
}

}  // namespace vit
