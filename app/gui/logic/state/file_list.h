// What the file browser, the gallery and drag-and-drop need to know about
// paths: which are images, which are checkpoints (a .safetensors file or a
// folder holding config.json and weights), and folder listings with folders
// first. std::filesystem only; the panel that draws it is open_panel.cpp.
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
// Image files under `dir`, recursively, sorted by path, at most `limit`.
std::vector<FileEntry> find_images(const std::string& dir, size_t limit);
// Checkpoints under `dir` (model folders and .safetensors files), at most `limit`.
std::vector<FileEntry> find_models(const std::string& dir, size_t limit);

}  // namespace vit::gui
