// Token rows and image patches: which patch a stage's row holds, its tick
// label, and kept rows and columns scattered back to their image patches.
#include "logic/describe/token_order.h"

#include <algorithm>
#include <string>

namespace vit::gui {

int TokenRowMap::token_of_row(int row) const {
    const int token = row + offset;
    if (!layout.is_patch(token) || !reordered()) return token;
    const int at = layout.patch_of(token);
    return at < static_cast<int>(patches.size()) ? layout.token_of(patches[static_cast<size_t>(at)]) : -1;
}

int TokenRowMap::row_of_token(int token) const {
    if (token < 0) return -1;
    if (!layout.is_patch(token) || !reordered()) return token - offset < 0 ? -1 : token - offset;
    const auto at = std::find(patches.begin(), patches.end(), layout.patch_of(token));
    return at == patches.end() ? -1 : layout.token_of(static_cast<int>(at - patches.begin())) - offset;
}

std::string TokenRowMap::label(int row) const {
    const int token = token_of_row(row);
    return patch_rows ? std::to_string(layout.patch_of(token)) : token_label(token, reordered(), layout);
}

bool after_token_drop(StageKind kind) {
    return kind != StageKind::Input && kind != StageKind::Patches && kind != StageKind::PatchEmbed &&
           kind != StageKind::Cls;
}

TokenRowMap token_row_map(const Trace& trace, StageKind kind, int patches, const TokenLayout& layout) {
    TokenRowMap map;
    map.layout = layout;
    map.patch_rows = kind == StageKind::Patches || kind == StageKind::PatchEmbed;
    map.offset = map.patch_rows ? layout.count() : 0;
    if (kind == StageKind::Input || kind == StageKind::Patches) return map;  // cut before the shuffle
    const std::vector<int>& rows = after_token_drop(kind) ? trace.token_patches() : trace.embedded_patches();
    if (tokens_reordered(rows, patches)) map.patches = rows;
    return map;
}

bool tokens_reordered(const std::vector<int>& token_patches, int patches) {
    if (token_patches.empty()) return false;
    if (static_cast<int>(token_patches.size()) != patches) return true;
    for (int i = 0; i < patches; ++i)
        if (token_patches[i] != i) return true;
    return false;
}

std::vector<float> square_in_image_order(const Tensor& t, const std::vector<int>& token_patches, int patches,
                                         int prefix) {
    const int64_t kept = t.shape[t.rank() - 1];
    const int64_t slices = static_cast<int64_t>(t.data.size()) / (kept * kept);
    const int64_t full = patches + prefix;
    std::vector<int64_t> place(kept);  // full-order index of each kept row
    for (int64_t r = 0; r < kept; ++r) place[r] = r < prefix ? r : prefix + token_patches[r - prefix];
    std::vector<float> out(static_cast<size_t>(slices * full * full), 0.f);
    for (int64_t s = 0; s < slices; ++s)
        for (int64_t r = 0; r < kept; ++r)
            for (int64_t c = 0; c < kept; ++c)
                out[(s * full + place[r]) * full + place[c]] = t.data[(s * kept + r) * kept + c];
    return out;
}

}  // namespace vit::gui
