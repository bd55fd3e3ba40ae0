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

}  // namespace vit::gui
