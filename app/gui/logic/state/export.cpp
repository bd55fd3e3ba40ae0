// PNG export (stb_image_write encodes, core/base/file_io.h writes) and .npy export (core/formats/npy.h).
#include "logic/state/export.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "base/error.h"
#include "base/file_io.h"
#include "formats/npy.h"

namespace vit::gui {

std::string encode_png(const RgbaImage& img) {
    std::string png;
    if (img.width <= 0 || img.height <= 0 || img.pixels.size() != size_t(img.width) * img.height * 4) return png;
    stbi_write_png_compression_level = 9;  // the smallest files stb writes
    const auto append = [](void* out, void* data, int size) {
        static_cast<std::string*>(out)->append(static_cast<char*>(data), size);
    };
    // An opaque picture (every screenshot) is written as RGB: a quarter fewer bytes to compress.
    bool opaque = true;
    for (size_t i = 3; i < img.pixels.size() && opaque; i += 4) opaque = img.pixels[i] == 255;
    std::vector<uint8_t> rgb;
    if (opaque)
        for (size_t i = 0; i < img.pixels.size(); i += 4) rgb.insert(rgb.end(), &img.pixels[i], &img.pixels[i] + 3);
    const int channels = opaque ? 3 : 4;
    if (!stbi_write_png_to_func(append, &png, img.width, img.height, channels, opaque ? rgb.data() : img.pixels.data(),
                                img.width * channels))
        png.clear();
    return png;
}

void save_png(const std::string& path, const RgbaImage& img) {
    const std::string png = encode_png(img);
    if (png.empty()) throw Error("cannot write the PNG '" + path + "': cannot encode the picture");
    write_whole_file(path, png, "the PNG");
}

void save_npy(const std::string& path, const Tensor& t) { write_npy(path, t); }

std::string unique_export_path(const std::string& dir, const std::string& stem, const std::string& ext) {
    namespace fs = std::filesystem;
    fs::path base = fs::path(dir.empty() ? "." : dir);
    fs::path p = base / (stem + ext);
    for (int i = 2; fs::exists(p); ++i) p = base / (stem + "-" + std::to_string(i) + ext);
    return p.string();
}

std::string view_export_stem(const AppState& s, const Pipeline& p) {
    if (p.ids.empty()) return "vitviz";
    if (s.screen != Screen::Stage) return std::string("vitviz-") + screen_name(s.screen);
    return "vitviz-" + p.ids[static_cast<size_t>(std::clamp(s.stage, 0, p.size() - 1))];
}

std::string handout_picture_dir(const std::string& html_path) {
    const std::filesystem::path p(html_path);
    return (p.parent_path() / (p.stem().string() + "-steps")).string();
}

}  // namespace vit::gui
