// Files, whichever platform the app runs on (desktop_files.cpp on the desktop):
// the folder of the shipped assets, and saving a file the user asked for (PNG
// and .npy exports, tour screenshots, a lesson, the hand-out).
#pragma once
#include <functional>
#include <string>

namespace vit::gui {

// The assets folder (the digits model, its sample digits, the photo gallery); "" when there is none.
std::string asset_folder();

// Saves the file `path`: `write()` writes it there, throwing vit::Error naming it when it
// cannot. On the desktop that is all; a browser build would then download the file
// under its name.
void save_file(const std::string& path, const std::function<void()>& write);

// Whether the platform has a file chooser of its own (the browser's: a page
// cannot type or browse the computer's paths); the desktop's Open panel types
// and browses paths instead.
bool has_file_chooser();
// Opens it: an image, or a model's files chosen together (.safetensors with
// config.json and preprocessor_config.json); what is chosen arrives later as a
// drop (App::on_drop), a model's files as one folder.
void choose_files(bool model);

// A model named hf-hub: that the platform downloads itself rather than the loader: the page,
// whose script fetches the model its link names before the app starts (app/web/hub.js), opens
// itself again on that link and returns true; false when the model is already there, or on
// the desktop, where the loader downloads it. HubLink::Keep keeps the rest of the page's link
// (a lesson and its step, which then play on the model); Keep also returns false when this
// page's download of the model failed (the model is out of reach, not tried again).
enum class HubLink { Replace, Keep };
bool open_hub_model_in_page(const std::string& model, HubLink link = HubLink::Replace);

}  // namespace vit::gui
