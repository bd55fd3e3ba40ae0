// The Open window, for an image or a model: a gallery of what ships in
// assets/ (and the built-ins) and of trained models on the Hugging Face Hub
// (core/hub/hub_gallery.h: each with its size, or "in the cache"), a typed path
// or hf-hub: name, and a small file browser over the filesystem (folders,
// images, checkpoints). A model may open as the comparison
// model, beside the loaded one (controllers/compare_controller.h). Dropping a file on the window
// does the same without this panel (App::on_drop).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "logic/state/file_list.h"
#include "logic/cache/texture_cache.h"
#include "logic/state/ui_actions.h"

namespace vit::gui {

struct OpenPanelState {
    bool visible = false;
    bool for_model = false;      // choosing a model (else an image)
    bool as_comparison = false;  // the model chosen becomes the comparison model, beside the loaded one
    std::string comparison;      // the comparison model now ("" = none), for its Clear button (App keeps it)
    std::string typed;           // the path typed by hand
    bool enter_queued = false;   // the app queued an Enter while a text field had the keyboard (input_queue.h)
    std::string folder;          // the browser's folder
    std::string listed_folder;   // the folder `listing` belongs to (list again only when it changes)
    std::vector<FileEntry> listing;
    std::string listing_error;
    bool gallery_ready = false;
    std::vector<FileEntry> gallery_images;
    std::vector<GalleryModel> gallery_models;
    // Gallery thumbnails, made a few per frame so the window never stalls; kept
    // apart from the trace's textures so a new image does not throw them away.
    std::unique_ptr<TextureCache> thumbnails;
    std::vector<std::string> thumbnail_failed;
    // A model from the Hub chosen here: the window stays open with its download's bar until it
    // opens (App closes it) or fails. The loader's progress, as App hands it over each frame.
    std::string awaiting;
    bool downloading = false;
    float download_progress = 0.f;
    std::string download_phase;
    // Which of the Hub gallery's models the cache holds (hub_gallery.h), looked up again every
    // two seconds while the window is open rather than every frame; its time, ImGui's clock.
    std::vector<bool> hub_cached;
    double hub_cached_at = -1.0;
};

void DrawOpenPanel(OpenPanelState& panel, const std::string& asset_dir, UiActions& actions);

}  // namespace vit::gui
