// Loading a checkpoint: safetensors weights (F32, F16, BF16) with timm or
// Hugging Face key names, plus config.json (timm or HF form) and HF's
// preprocessor_config.json beside them. `path` is a folder holding both or the
// .safetensors file itself. Every problem is a vit::Error naming the file and,
// for tensors, the key, the expected shape and the shape found; a tensor the
// model does not use is refused by its key (a model loaded without it would
// not be the one the checkpoint holds).
#pragma once
#include <functional>
#include <string>

#include "model/model.h"

namespace vit {

// Called with a fraction in [0,1] while tensors are read (for progress bars).
using LoadProgress = std::function<void(float)>;

Model load_checkpoint(const std::string& path, const LoadProgress& progress = {});

}  // namespace vit
