// Token rows back in image order. Under interventions (permuted or dropped
// patch tokens) row i + 1 of a token stage holds patch token_patches[i]
// (Trace::token_patches); a picture over the image needs row 1 + p to be patch p.
#pragma once
#include <vector>

#include "tensor.h"

namespace vit::gui {

// True when the rows are not 0..N−1 in order (an empty list counts as in order).
bool tokens_reordered(const std::vector<int>& token_patches, int patches);
// A …×T'×T' tensor (attention, rollout) as …×T×T with T = patches + 1: token
// rows and columns put at 1 + their patch, CLS at 0, zeros for dropped tokens.
std::vector<float> square_in_image_order(const Tensor& t, const std::vector<int>& token_patches, int patches);

}  // namespace vit::gui
