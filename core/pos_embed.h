// Positional embeddings for an input whose patch grid differs from the one
// the checkpoint was trained on: timm's resample_abs_pos_embed (CLS row kept,
// the grid part resized bicubically with antialiasing, as F.interpolate).
#pragma once
#include "tensor.h"

namespace vit {

// pos: (1 + g²)×D → (1 + grid²)×D; returns pos unchanged when grid == g.
Mat resample_pos_embed(const Mat& pos, int grid);

}  // namespace vit
