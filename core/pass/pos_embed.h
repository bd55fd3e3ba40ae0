// Positional embeddings for an input whose patch grid differs from the one
// the checkpoint was trained on: timm's resample_abs_pos_embed (CLS row kept,
// the grid part resized bicubically with antialiasing, as F.interpolate) or
// transformers' DINOv2 interpolate_pos_encoding (plain bicubic, no
// antialias), and the first one's transpose for the backward pass.
#pragma once
#include "model/model.h"
#include "tensor/tensor.h"

namespace vit {

// pos: (prefix + g²)×D → (prefix + grid²)×D, the prefix rows (CLS, and DIST or
// registers unless no_embed_class) kept; returns pos unchanged when grid == g.
Mat resample_pos_embed(const Mat& pos, int grid, int prefix = 1, PosResample mode = PosResample::Antialiased);

// Its backward: the resample is linear in pos, so the gradient of pos is the
// transpose of the same weights applied to the gradient of the result.
// dout: (1 + grid²)×D → (1 + old_grid²)×D (the CLS row passes through).
Mat resample_pos_embed_backward(const Mat& dout, int old_grid);

}  // namespace vit
