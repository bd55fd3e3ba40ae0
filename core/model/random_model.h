// Models with random weights and timm's shapes, for tests and benchmarks:
// ViT-Ti/16 and ViT-B/16 configs, and any config filled with N(0, scale²)
// weights from a seeded generator (the same numbers on every machine).
#pragma once
#include <cstdint>

#include "model/model.h"

namespace vit {

ModelConfig vit_tiny_config();  // vit_tiny_patch16_224: D 192, 3 heads, depth 12
ModelConfig vit_base_config();  // vit_base_patch16_224: D 768, 12 heads, depth 12

Model make_random_model(const ModelConfig& config, uint32_t seed);

}  // namespace vit
