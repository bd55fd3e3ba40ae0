// Models with random weights and timm's shapes, for tests and benchmarks:
// ViT-Ti/16 and ViT-B/16 configs, the layouts of DINOv2 with registers, DeiT
// distilled, a class-token-free average-pooled ViT and CLIP's image tower, and any config
// filled with N(0, scale²) weights from a seeded generator (the same numbers
// on every machine).
#pragma once
#include <cstdint>

#include "model/model.h"

namespace vit {

ModelConfig vit_tiny_config();  // vit_tiny_patch16_224: D 192, 3 heads, depth 12
ModelConfig vit_base_config();  // vit_base_patch16_224: D 768, 12 heads, depth 12
// vit_small_patch14_reg4_dinov2's layout (D 384, 6 heads, patch 14, LayerScale,
// CLS then 4 registers, positions on the patches only, no head) at 224 pixels (16×16 patches).
ModelConfig vit_small_reg4_config();
// deit_small_distilled_patch16_224: D 384, 6 heads, CLS and DIST tokens, two heads.
ModelConfig deit_small_distilled_config();
// vit_medium_patch16_gap_256: D 512, 8 heads, no class token, no qkv bias,
// LayerScale, the head on the mean of the patch rows after the final norm (fc_norm=False).
ModelConfig vit_medium_gap_config();
// vit_base_patch16_clip_224's image tower: D 768, 12 heads, norm_pre, no patch
// bias, LayerNorm eps 1e-5, OpenAI CLIP's mean/std, no head.
ModelConfig vit_base_clip_config();

// qkv_bias false: no query/key/value bias (timm qkv_bias=False).
Model make_random_model(const ModelConfig& config, uint32_t seed, bool qkv_bias = true);

}  // namespace vit
