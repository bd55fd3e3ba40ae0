// What the file browser, the gallery and drag-and-drop need to know about
// paths: which are images, which are checkpoints (a .safetensors file or a
// folder holding config.json and weights), folder listings with folders
// first, which image a newly chosen model opens on, and the gallery's list of models: every built-in model of
// core/loading/builtin.h, then the checkpoints that ship under assets/. No
// window; the panel that draws them is panels/open_panel.cpp.
#pragma once
#include <string>
#include <vector>

namespace vit::gui {

enum class FileKind { Folder, ModelFolder, Checkpoint, Image, Other };

struct FileEntry {
    std::string name;  // file name shown in the list
    std::string path;  // full path
    FileKind kind = FileKind::Other;
};

bool is_image_path(const std::string& path);  // .png .jpg .jpeg .bmp .gif .tga (any case)
FileKind classify_path(const std::string& path);

// Folders (model folders marked) then images and checkpoints, each sorted by
// name; hidden entries and other files are left out. Throws vit::Error when the
// folder cannot be read.
std::vector<FileEntry> list_folder(const std::string& dir);
// The image a model chosen now opens on ("" = the model's default) when `image` is on screen
// under model `current`: a model that brings its own image (the digits) opens on it unless the
// one on screen brings its own too (a digit picture chosen there stays); a photo model keeps the
// photo on screen and takes its default photo after the digits. So ViT-B's astronaut never stays
// behind on the digits.
std::string image_for_new_model(const std::string& model, const std::string& current, const std::string& image);
// Image files under `dir`, recursively, sorted by path, at most `limit`.
std::vector<FileEntry> find_images(const std::string& dir, size_t limit);
// Checkpoints under `dir` (model folders and .safetensors files), at most `limit`.
std::vector<FileEntry> find_models(const std::string& dir, size_t limit);

struct GalleryModel {
    std::string label;   // "toy-4x4   (built in: the notebook's 4×4 toy, 1 block)", or a path under assets/
    std::string choice;  // what choosing it opens: the built-in name or the checkpoint's path
};

// The built-in models in registry order, then at most `limit` checkpoints
// found under `asset_dir` (a built-in model's own folder there, assets/digits,
// is listed once, as the built-in).
std::vector<GalleryModel> gallery_models(const std::string& asset_dir, size_t limit);

}  // namespace vit::gui
