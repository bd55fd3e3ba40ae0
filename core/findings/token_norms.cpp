// Token norms, high-norm outliers and attention sinks (see token_norms.h).
#include "findings/token_norms.h"

#include <algorithm>

namespace vit {

std::vector<float> token_norms(const Tensor& x) {
    const ConstMatMap m = x.mat();
    std::vector<float> out(m.rows());
    for (int t = 0; t < m.rows(); ++t) out[t] = static_cast<float>(m.row(t).cast<double>().norm());
    return out;
}

float median_patch_norm(const std::vector<float>& norms, const PatchTokens& tokens) {
    std::vector<float> patch(norms.begin() + std::min<size_t>(tokens.prefix, norms.size()), norms.end());
    if (patch.empty()) return 0.f;
    const size_t mid = patch.size() / 2;
    std::nth_element(patch.begin(), patch.begin() + mid, patch.end());
    if (patch.size() % 2) return patch[mid];
    const float upper = patch[mid];
    return 0.5f * (upper + *std::max_element(patch.begin(), patch.begin() + mid));
}

std::vector<uint8_t> high_norm_outliers(const std::vector<float>& norms, const PatchTokens& tokens) {
    const float limit = kOutlierFactor * median_patch_norm(norms, tokens);
    std::vector<uint8_t> out(norms.size());
    for (size_t t = 0; t < norms.size(); ++t) out[t] = norms[t] > limit ? 1 : 0;
    return out;
}

Mat attention_sink_scores(const Tensor& attn) {
    const int H = static_cast<int>(attn.shape[0]), T = static_cast<int>(attn.shape[2]);
    Mat out(H, T);
    for (int h = 0; h < H; ++h) out.row(h) = attn.slice(h).cast<double>().colwise().sum().cast<float>();
    return out;
}

}  // namespace vit
