// DINO's attention masks (Caron et al. 2021; visualize_attention.py of the DINO
// repository): head h's attention from CLS (row 0) to the patches, a = attn[h, 0, p:],
// normalised to sum 1; sorted ascending, a patch is kept where the cumulative sum
// up to and including it exceeds 1 − share, i.e. the smallest set of top patches
// holding `share` of the mass. PyTorch:
//   val, idx = torch.sort(a); val /= val.sum(); keep = (torch.cumsum(val, 0) > 1 - share)[torch.argsort(idx)]
#pragma once
#include <vector>

#include "findings/patch_tokens.h"

namespace vit {

// 1 where patch i (of n weights, any order) is kept.
std::vector<uint8_t> top_mass_mask(const float* weights, int n, float share);
// H × grid² masks (image patch order; 0 where no patch row) of an H × T × T attention stage.
std::vector<std::vector<uint8_t>> cls_attention_masks(const Tensor& attn, const PatchTokens& tokens, float share);

}  // namespace vit
