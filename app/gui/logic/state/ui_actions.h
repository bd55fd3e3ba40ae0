// What the panels and the keys ask the app to do (open a file, export, toggle
// presenter mode): the app's one vocabulary of actions. Panels fill it during
// the frame, a key press through apply_key (logic/state/key_actions.h), a
// driver before it; App carries it out afterwards, so no panel owns the loader,
// the window or the files.
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
    bool leave_presenter = false;       // Esc in presenter mode
    bool toggle_lesson_editor = false;  // R: the lesson editor shown or hidden
    bool show_open_image = false;       // open the Open panel for images / models
    bool show_open_model = false;
    bool cancel_download = false;  // stop the model's download under way (Loader::cancel_download)

    bool operator==(const UiActions& o) const {
        return open_image == o.open_image && open_model == o.open_model && compare_model == o.compare_model &&
               export_png == o.export_png && export_npy == o.export_npy && toggle_presenter == o.toggle_presenter &&
               leave_presenter == o.leave_presenter && toggle_lesson_editor == o.toggle_lesson_editor &&
               show_open_image == o.show_open_image && show_open_model == o.show_open_model &&
               cancel_download == o.cancel_download;
    }
    bool any() const { return !(*this == UiActions{}); }
};

}  // namespace vit::gui
