// Loading a checkpoint: safetensors weights (F32, F16, BF16) with timm or
// Hugging Face key names, plus config.json (timm or HF form) and HF's
// preprocessor_config.json beside them. `path` is a folder holding both or the
// .safetensors file itself. Every problem is a vit::Error naming the file and,
// for tensors, the key, the expected shape and the shape found; a tensor the
// model does not use is refused by its key (a model loaded without it would
// not be the one the checkpoint holds). A safetensors file whose `__metadata__`
// holds kRandomWeightsKey is a model of random weights (ModelConfig::random_weights),
// as save_checkpoint (model_writer.h) and tests/hub/random_vit.py write them.
#pragma once
#include <functional>
#include <string>

#include "model/model.h"

namespace vit {

// The safetensors metadata key that marks weights as random, never trained.
constexpr const char* kRandomWeightsKey = "vitviz.random_weights";

// Called with a fraction in [0,1] while tensors are read (for progress bars).
using LoadProgress = std::function<void(float)>;

Model load_checkpoint(const std::string& path, const LoadProgress& progress = {});

}  // namespace vit
