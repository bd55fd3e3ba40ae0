// The images a built-in model opens on when the user gives none: the toy
// notebook's 4×4 ramp for `toy-4x4`, the first sample digit for `digits`.
#pragma once
#include <string>

#include "image.h"

namespace vit {

// Throws vit::Error when `model_name` is a checkpoint path (no built-in image).
Image default_image(const std::string& model_name);

}  // namespace vit
