// Token norms and attention sinks ("Vision Transformers Need Registers",
// Darcet et al. 2024):
// - norm[t] = ‖x[t]‖₂ of each token row of a T × D stage (a block's output);
//   PyTorch: x.norm(dim=-1).
// - a high-norm outlier is a token whose norm exceeds kOutlierFactor × the median
//   norm of the patch tokens (Darcet et al. find a few patches ~10× the rest in
//   large models; 2× the median separates those two groups and marks nothing in a
//   model without them). Prefix tokens are judged by the same rule.
// - sink[h, t] = Σ_i attn[h, i, t], the column sums of the attention: how much
//   attention token t receives from all queries (T would be "all of it");
//   PyTorch: attn.sum(dim=-2).
#pragma once
#include <vector>

#include "findings/patch_tokens.h"

namespace vit {

constexpr float kOutlierFactor = 2.f;

std::vector<float> token_norms(const Tensor& x);
// The median norm of the patch rows, and 1 where a row's norm is above kOutlierFactor × it.
float median_patch_norm(const std::vector<float>& norms, const PatchTokens& tokens);
std::vector<uint8_t> high_norm_outliers(const std::vector<float>& norms, const PatchTokens& tokens);
// H × T column sums of an H × T × T attention stage.
Mat attention_sink_scores(const Tensor& attn);

}  // namespace vit
