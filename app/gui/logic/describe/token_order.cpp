// Token rows and image patches: which patch a stage's row holds, the names
// of tokens, and kept rows and columns scattered back to their image patches.
#include "logic/describe/token_order.h"

#include <algorithm>
#include <string>

namespace vit::gui {

int TokenRowMap::token_of_row(int row) const {
    const int token = row + offset;
    if (token == 0 || !reordered()) return token;
    return token - 1 < static_cast<int>(patches.size()) ? 1 + patches[static_cast<size_t>(token - 1)] : -1;
}

int TokenRowMap::row_of_token(int token) const {
    if (token < 0) return -1;
    if (token == 0 || !reordered()) return token - offset;
    const auto at = std::find(patches.begin(), patches.end(), token - 1);
    return at == patches.end() ? -1 : 1 + static_cast<int>(at - patches.begin()) - offset;
}

bool after_token_drop(StageKind kind) {
    return kind != StageKind::Input && kind != StageKind::Patches && kind != StageKind::PatchEmbed &&
           kind != StageKind::Cls;
}

TokenRowMap token_row_map(const Trace& trace, StageKind kind, int patches) {
    TokenRowMap map;
    map.offset = kind == StageKind::Patches || kind == StageKind::PatchEmbed ? 1 : 0;
    if (kind == StageKind::Input || kind == StageKind::Patches) return map;  // cut before the shuffle
    const std::vector<int>& rows = after_token_drop(kind) ? trace.token_patches() : trace.embedded_patches();
    if (tokens_reordered(rows, patches)) map.patches = rows;
    return map;
}

std::string token_label(int token, bool reordered) {
    if (token == 0) return "CLS";
    return reordered ? "p" + std::to_string(token - 1) : std::to_string(token);
}

std::string token_name(int token, bool reordered) {
    if (token == 0) return "CLS";
    const std::string patch = "patch " + std::to_string(token - 1);
    return reordered ? patch : patch + " (token " + std::to_string(token) + ")";
}

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
