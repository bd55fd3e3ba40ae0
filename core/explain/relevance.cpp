// Gradient-weighted attention relevance (Chefer et al. 2021, eq. 5–6 for
// self-attention only), accumulated from the first block to the last.
#include "explain/relevance.h"

namespace vit {

Tensor relevance(const Trace& values, const Trace& gradients, int depth) {
    const int64_t T = values.at({StageKind::Tokens, -1}).shape[0];
    Tensor out({T, T});
    MatMap r = out.mat();
    r.setIdentity();
    for (int b = 0; b < depth; ++b) {
        const Tensor& attn = values.at({StageKind::Attn, b});
        const Tensor& dattn = gradients.at({StageKind::Attn, b});
        const int64_t heads = attn.shape[0];
        Mat mean = Mat::Zero(T, T);
        for (int64_t h = 0; h < heads; ++h) mean += (dattn.slice(h).array() * attn.slice(h).array()).max(0.0f).matrix();
        mean /= static_cast<float>(heads);
        r += mean * r;
    }
    return out;
}

}  // namespace vit
