// DINO's top-mass masks of the CLS attention (see cls_mask.h).
#include "findings/cls_mask.h"

#include <algorithm>
#include <numeric>

namespace vit {

std::vector<uint8_t> top_mass_mask(const float* weights, int n, float share) {
    std::vector<int> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights[a] < weights[b]; });
    double total = 0.0;
    for (int i = 0; i < n; ++i) total += weights[i];
    std::vector<uint8_t> keep(n, 0);
    double running = 0.0;
    for (int i : order) {
        running += total > 0 ? weights[i] / total : 0.0;
        keep[i] = running > 1.0 - share ? 1 : 0;
    }
    return keep;
}

std::vector<std::vector<uint8_t>> cls_attention_masks(const Tensor& attn, const PatchTokens& tokens, float share) {
    const int H = static_cast<int>(attn.shape[0]), n = static_cast<int>(tokens.patches.size());
    std::vector<std::vector<uint8_t>> out(H, std::vector<uint8_t>(tokens.grid * tokens.grid, 0));
    if (tokens.prefix < 1) return out;
    for (int h = 0; h < H; ++h) {
        const float* row = attn.slice(h).row(0).data() + tokens.prefix;
        const std::vector<uint8_t> keep = top_mass_mask(row, n, share);
        for (int i = 0; i < n; ++i) out[h][tokens.patches[i]] = keep[i];
    }
    return out;
}

}  // namespace vit
