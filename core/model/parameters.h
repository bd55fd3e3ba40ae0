// A model's weights as timm's state_dict lists them: key names
// (`blocks.0.attn.qkv.weight`) and shapes (`patch_embed.proj.weight` D×C×P×P,
// `cls_token` 1×1×D, `pos_embed` 1×T×D). Used to name parameter gradients.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"

namespace vit {

struct NamedTensor {
    std::string name;
    Tensor tensor;
};

// Every weight of `model` (copied), in timm's order; an empty bias (a layer
// without one) is left out.
std::vector<NamedTensor> timm_parameters(const Model& model);

}  // namespace vit
