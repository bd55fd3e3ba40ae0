// Mean attention distance (Dosovitskiy et al. 2021, Figure 7; the form of the
// code that plots it, e.g. keras-io's "Investigating ViT representations"):
// for head h, with a the attention matrix and d(i, j) = P·‖cell(i) − cell(j)‖
// the Euclidean distance in pixels between the grid cells of patches i and j,
//     dist_h = mean over patch queries i of Σ_j a_h[i, j] · d(i, j)
// with j over the patch keys only. Prefix tokens (CLS, registers, distillation)
// are left out as queries and as keys, and the row is NOT renormalised over the
// patches (as that code does): attention paid to a prefix token adds 0 distance.
// PyTorch: (attn[:, :, p:, p:] * dist).sum(-1).mean(-1), p = number of prefix tokens.
#pragma once
#include "findings/patch_tokens.h"

namespace vit {

// One value per head (pixels) of an H×T×T attention stage.
std::vector<float> mean_attention_distance(const Tensor& attn, const PatchTokens& tokens);
// depth × H: every block's attention (`block{i}.attn`) of the trace.
Mat attention_distance_by_depth(const Trace& trace, const PatchTokens& tokens, int depth);

}  // namespace vit
