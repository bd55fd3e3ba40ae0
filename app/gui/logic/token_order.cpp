// Scattering the kept token rows and columns back to their image patches.
#include "token_order.h"

namespace vit::gui {

bool tokens_reordered(const std::vector<int>& token_patches, int patches) {
    if (token_patches.empty()) return false;
    if (static_cast<int>(token_patches.size()) != patches) return true;
    for (int i = 0; i < patches; ++i)
        if (token_patches[i] != i) return true;
    return false;
}

std::vector<float> square_in_image_order(const Tensor& t, const std::vector<int>& token_patches, int patches) {
    const int64_t kept = t.shape[t.rank() - 1];
    const int64_t slices = static_cast<int64_t>(t.data.size()) / (kept * kept);
    const int64_t full = patches + 1;
    std::vector<int64_t> place(kept);  // full-order index of each kept row
    for (int64_t r = 0; r < kept; ++r) place[r] = r == 0 ? 0 : 1 + token_patches[r - 1];
    std::vector<float> out(static_cast<size_t>(slices * full * full), 0.f);
    for (int64_t s = 0; s < slices; ++s)
        for (int64_t r = 0; r < kept; ++r)
            for (int64_t c = 0; c < kept; ++c)
                out[(s * full + place[r]) * full + place[c]] = t.data[(s * kept + r) * kept + c];
    return out;
}

}  // namespace vit::gui
