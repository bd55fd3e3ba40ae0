// Cutting the input into patches (stage `patches`) and its transpose, which
// puts a gradient over the patches back onto the pixels (timm's PatchEmbed:
// the stride-P Conv2d reads each pixel in exactly one patch).
#pragma once
#include "tensor/tensor.h"

namespace vit {

// patches: N×(C·P·P), row p = patch (py, px) in raster order, columns in
// Conv2d weight order (c, y, x).  input: C×S×S.
void extract_patches(const Tensor& input, int patch, Tensor& patches);

// The transpose: each patch row written back to its pixels (input: C×S×S, overwritten).
void scatter_patches(const Tensor& patches, int patch, Tensor& input);

// Sets every pixel of the listed patches (raster numbers) to 0, in all channels.
void zero_patches(const std::vector<int>& numbers, int patch, Tensor& input);

}  // namespace vit
