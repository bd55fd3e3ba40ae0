// Saving a model as a checkpoint folder the loader (checkpoint.h) and the app
// open: model.safetensors (F32, timm key names; random weights marked in its
// metadata, checkpoint.h) and config.json in timm's hub form (architecture,
// num_classes, model_args, pretrained_cfg).
#pragma once
#include <string>

#include "model/model.h"

namespace vit {

// Creates `dir` when needed; throws vit::Error naming the folder or file that
// cannot be written.
void save_checkpoint(const std::string& dir, const Model& model);

}  // namespace vit
