// What the panels ask the app to do (open a file, export, toggle presenter
// mode). Panels fill it during the frame; App carries it out afterwards, so no
// panel owns the loader, the window or the files.
#pragma once
#include <optional>
#include <string>

namespace vit::gui {

struct UiActions {
    std::optional<std::string> open_image;     // a path; "" = the model's built-in image
    std::optional<std::string> open_model;     // a built-in name or a checkpoint path
    std::optional<std::string> compare_model;  // the comparison model, as open_model; "" = none
    bool export_png = false;                   // the current view (whole window) as PNG
    bool export_npy = false;                   // the current stage's tensor as .npy
    bool toggle_presenter = false;
    bool show_open_image = false;  // open the Open panel for images / models
    bool show_open_model = false;
    bool cancel_download = false;  // stop the model's download under way (Loader::cancel_download)
};

}  // namespace vit::gui
