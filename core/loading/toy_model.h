// The built-in `toy-4x4` model: the toy notebook the project started from, as a ViT. A 4×4
// single-channel image of 0..15, 2×2 patches, the notebook's nn.Linear(4, 8)
// weights and bias as the patch projection, zero CLS token and positional
// embedding, and one small block (2 heads of 4) with fixed weights.
#pragma once
#include "formats/image.h"
#include "model/model.h"

namespace vit {

Model make_toy_model();
// The notebook's image: torch.arange(16).reshape(4, 4), one channel.
Image toy_image();

}  // namespace vit
