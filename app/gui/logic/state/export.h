// Export: the current view as PNG (stb_image_write) and the current stage's
// tensor as a NumPy .npy file (float32, C order), named after the stage.
#pragma once
#include <string>

#include "logic/describe/colormap.h"
#include "logic/state/app_state.h"
#include "tensor/tensor.h"

namespace vit::gui {

// The PNG file of `img` at stb's best compression; "" when it cannot be encoded.
std::string encode_png(const RgbaImage& img);
// Throw vit::Error naming the file when it cannot be written.
void save_png(const std::string& path, const RgbaImage& img);
void save_npy(const std::string& path, const Tensor& t);

// "vitviz-07-block0.q.png" style names inside `dir` that do not overwrite
// earlier exports ("-2", "-3", … appended).
std::string unique_export_path(const std::string& dir, const std::string& stem, const std::string& ext);

// The name Ctrl+S gives the view: "vitviz-<stage id>" on the stage screen, the screen's
// name on the others ("vitviz-why", screens.h), "vitviz" with no model.
std::string view_export_stem(const AppState& s, const Pipeline& p);

// The folder of the pictures beside OUT.html: OUT-steps.
std::string handout_picture_dir(const std::string& html_path);

}  // namespace vit::gui
