// The claim the patch_embed stage teaches, checked on the pass itself: the
// linear projection of the flattened patches equals timm's stride-P Conv2d
// (PatchEmbed.proj) computed directly on the input image.
#pragma once
#include "model/model.h"
#include "pass/trace.h"

namespace vit {

// max |Conv2d(input; patch_w, patch_b, kernel = stride = P) − patch_embed| over
// every patch and feature of `trace` (a pass of `model`), summed in double.
float patch_embed_conv_difference(const Model& model, const Trace& trace);

}  // namespace vit
