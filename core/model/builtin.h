// The images a built-in model opens on when the user gives none: the toy
// notebook's 4×4 ramp for `toy-4x4`, the first sample digit for `digits`;
// and the one way the CLI and the app choose and read a model's image.
#pragma once
#include <string>

#include "formats/image.h"

namespace vit {

// Throws vit::Error when `model_name` is a checkpoint path (no built-in image).
Image default_image(const std::string& model_name);

// The image model `model_name` runs on: the file at `path` decoded with the
// model's `channels`, or when `path` is empty the built-in model's own image
// in those channels (vit::Error for a checkpoint: it has none).
Image model_image(const std::string& model_name, const std::string& path, int channels);

}  // namespace vit
