// What the Open window's model gallery lists, without a window: every
// built-in model of core/model/builtin.h, then the checkpoints that ship
// under assets/. The panel that draws it is panels/open_panel.cpp.
#pragma once
#include <string>
#include <vector>

namespace vit::gui {

struct GalleryModel {
    std::string label;   // "toy-4x4   (built in: the notebook's 4×4 toy, 1 block)", or a path under assets/
    std::string choice;  // what choosing it opens: the built-in name or the checkpoint's path
};

// The built-in models in registry order, then at most `limit` checkpoints
// found under `asset_dir` (a built-in model's own folder there, assets/digits,
// is listed once, as the built-in).
std::vector<GalleryModel> gallery_models(const std::string& asset_dir, size_t limit);

}  // namespace vit::gui
