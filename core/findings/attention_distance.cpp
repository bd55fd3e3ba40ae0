// Mean attention distance per head (see attention_distance.h).
#include "findings/attention_distance.h"

#include <cmath>

namespace vit {

std::vector<float> mean_attention_distance(const Tensor& attn, const PatchTokens& tokens) {
    const int H = static_cast<int>(attn.shape[0]), T = static_cast<int>(attn.shape[1]);
    const int n = static_cast<int>(tokens.patches.size()), p0 = tokens.prefix;
    std::vector<float> out(H, 0.f);
    if (n == 0 || T != tokens.tokens()) return out;
    std::vector<double> dist(static_cast<size_t>(n) * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            const int a = tokens.patches[i], b = tokens.patches[j];
            const double dy = a / tokens.grid - b / tokens.grid, dx = a % tokens.grid - b % tokens.grid;
            dist[static_cast<size_t>(i) * n + j] = tokens.patch_px * std::sqrt(dy * dy + dx * dx);
        }
    for (int h = 0; h < H; ++h) {
        const ConstMatMap a = attn.slice(h);
        double total = 0.0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) total += a(p0 + i, p0 + j) * dist[static_cast<size_t>(i) * n + j];
        out[h] = static_cast<float>(total / n);
    }
    return out;
}

Mat attention_distance_by_depth(const Trace& trace, const PatchTokens& tokens, int depth) {
    Mat out = Mat::Zero(depth, 0);
    for (int b = 0; b < depth; ++b) {
        const Tensor* attn = trace.tensor(StageRef{StageKind::Attn, b});
        if (!attn) continue;
        const std::vector<float> d = mean_attention_distance(*attn, tokens);
        if (out.cols() == 0) out = Mat::Zero(depth, static_cast<int>(d.size()));
        for (size_t h = 0; h < d.size(); ++h) out(b, static_cast<int>(h)) = d[h];
    }
    return out;
}

}  // namespace vit
