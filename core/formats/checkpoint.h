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

#include "hub/transfer.h"
#include "model/model.h"

namespace vit {

// Called with a fraction in [0,1] while tensors are read (for progress bars).
using LoadProgress = std::function<void(float)>;

Model load_checkpoint(const std::string& path, const LoadProgress& progress = {});

// A built-in model by name (the registry of model/builtin.h), a model on the Hugging
// Face Hub ("hf-hub:ORG/NAME[@REVISION]", from the cache or downloaded into it with
// `downloads` hearing each file's bytes: hub/hub_fetch.h), or a checkpoint path.
// Memory its weights cannot have is vit::Error naming it.
Model load_model(const std::string& name_or_path, const LoadProgress& progress = {}, const HubProgress& downloads = {});

}  // namespace vit
