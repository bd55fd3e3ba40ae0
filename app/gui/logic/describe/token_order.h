// Token rows and image patches. The app counts tokens in image order (the
// selected token: 0 = CLS, 1 + p = patch p). Under interventions (permuted or
// dropped patch tokens) a stage's rows hold other patches (Trace::
// embedded_patches, token_patches): views outline, name and select by the
// patch a row holds, and pictures over the image put row 1 + p back at patch p.
#pragma once
#include <vector>

#include "pass/stages.h"
#include "tensor/tensor.h"
#include "pass/trace.h"

namespace vit::gui {

// Which token each row of one stage's tensor holds.
struct TokenRowMap {
    std::vector<int> patches;  // the patch in each patch row, in row order; empty: image order
    int offset = 0;            // 1: no CLS row (patches, patch_embed), row r is patch row r
    bool reordered() const { return !patches.empty(); }
    int token_of_row(int row) const;    // in image order: 0 = CLS, 1 + p = patch p
    int row_of_token(int token) const;  // -1: no row holds it (dropped, or CLS in a patch matrix)
};
// Whether stage `kind` comes after the dropped tokens are left out (`tokens` and later).
bool after_token_drop(StageKind kind);
// The map of stage `kind`'s rows: `patches` before the permutation and every
// stage of a plain pass in image order; `patch_embed` and `cls` permuted;
// `tokens` and later permuted and with the dropped tokens left out.
TokenRowMap token_row_map(const Trace& trace, StageKind kind, int patches);

// A row's token for tick labels: "CLS", its number in image order, or "p7"
// (patch 7) where rows are reordered.
std::string token_label(int token, bool reordered);
// "CLS", "patch 3 (token 4)", or "patch 3" where rows are reordered.
std::string token_name(int token, bool reordered);

// True when the rows are not 0..N−1 in order (an empty list counts as in order).
bool tokens_reordered(const std::vector<int>& token_patches, int patches);
// A …×T'×T' tensor (attention, rollout) as …×T×T with T = patches + 1: token
// rows and columns put at 1 + their patch, CLS at 0, zeros for dropped tokens.
std::vector<float> square_in_image_order(const Tensor& t, const std::vector<int>& token_patches, int patches);

}  // namespace vit::gui
