// RGBA8 pixels → GL texture and back: the upload/release pair the texture
// cache uses, and reading the framebuffer for screenshots. Needs a current GL
// context (glad loaded).
#pragma once
#include <cstdint>
#include <string>

#include "logic/describe/colormap.h"

namespace vit::gui {

// Matrices: nearest when magnified (crisp cells), mipmapped when minified (a
// 3072-column matrix averages instead of aliasing). Pictures with `smooth`: linear.
uintptr_t upload_texture(const RgbaImage& img);
void release_texture(uintptr_t id);

// The current framebuffer (width × height) as a top-down RGBA image.
RgbaImage read_framebuffer(int width, int height);
// It saved as a PNG at `path` the way every file the user asked for is (services/files.h: save_file); throws
// what fails, naming the file.
void save_framebuffer_png(const std::string& path, int width, int height);

}  // namespace vit::gui
