// GL texture upload/release, framebuffer read-back and the framebuffer saved as a PNG.
#include "services/gl_texture.h"

#include "logic/state/export.h"
#include "services/files.h"
#include "services/gl.h"

#include <algorithm>

namespace vit::gui {

uintptr_t upload_texture(const RgbaImage& img) {
    GLuint tex = 0;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, std::max(1, img.width), std::max(1, img.height), 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, img.pixels.empty() ? nullptr : img.pixels.data());
    if (img.smooth) {
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    } else {
        glGenerateMipmap(GL_TEXTURE_2D);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    return static_cast<uintptr_t>(tex);
}

void release_texture(uintptr_t id) {
    GLuint tex = static_cast<GLuint>(id);
    if (tex) glDeleteTextures(1, &tex);
}

RgbaImage read_framebuffer(int width, int height) {
    RgbaImage img;
    img.width = width;
    img.height = height;
    img.pixels.resize(static_cast<size_t>(width) * height * 4);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadBuffer(GL_BACK);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, img.pixels.data());
    // GL's rows go bottom-up; PNG's top-down.
    size_t row = static_cast<size_t>(width) * 4;
    for (int y = 0; y < height / 2; ++y)
        std::swap_ranges(img.pixels.begin() + y * row, img.pixels.begin() + (y + 1) * row,
                         img.pixels.begin() + (height - 1 - y) * row);
    for (size_t i = 3; i < img.pixels.size(); i += 4) img.pixels[i] = 255;
    return img;
}

void save_framebuffer_png(const std::string& path, int width, int height) {
    save_file(path, [&] { save_png(path, read_framebuffer(width, height)); });
}

}  // namespace vit::gui
