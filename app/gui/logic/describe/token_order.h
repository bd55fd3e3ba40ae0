// Token rows and image patches. The app counts tokens in image order (the
// selected token: the prefix tokens 0 … P−1, then P + p = patch p; token_layout.h).
// Under interventions (permuted or dropped patch tokens) a stage's rows hold
// other patches (Trace::embedded_patches, token_patches): views outline, name
// and select by the patch a row holds, and pictures over the image put row
// P + p back at patch p.
#pragma once
#include <vector>

#include "logic/describe/token_layout.h"
#include "pass/stages.h"
#include "tensor/tensor.h"
#include "pass/trace.h"

namespace vit::gui {

// Which token each row of one stage's tensor holds.
struct TokenRowMap {
    std::vector<int> patches;  // the patch in each patch row, in row order; empty: image order
    TokenLayout layout;        // the prefix tokens before the patches
    int offset = 0;            // the prefix count in patch matrices (patches, patch_embed): row r is patch row r
    bool patch_rows = false;   // the rows are patches only (patches, patch_embed)
    bool reordered() const { return !patches.empty(); }
    int token_of_row(int row) const;    // in image order: prefix tokens, then P + p = patch p
    int row_of_token(int token) const;  // -1: no row holds it (dropped, or a prefix token in a patch matrix)
    std::string label(int row) const;   // the row's tick: token_label, or the patch number in patch matrices
};
// Whether stage `kind` comes after the dropped tokens are left out (`tokens` and later).
bool after_token_drop(StageKind kind);
// The map of stage `kind`'s rows: `patches` before the permutation and every
// stage of a plain pass in image order; `patch_embed` and `cls` permuted;
// `tokens` and later permuted and with the dropped tokens left out.
TokenRowMap token_row_map(const Trace& trace, StageKind kind, int patches, const TokenLayout& layout = {});

// True when the rows are not 0..N−1 in order (an empty list counts as in order).
bool tokens_reordered(const std::vector<int>& token_patches, int patches);
// A …×T'×T' tensor (attention, rollout) as …×T×T with T = prefix + patches: token
// rows and columns put at prefix + their patch, the prefix tokens first, zeros
// for dropped tokens.
std::vector<float> square_in_image_order(const Tensor& t, const std::vector<int>& token_patches, int patches,
                                         int prefix = 1);

}  // namespace vit::gui
