// PNG export (stb_image_write encodes, core/base/file_io.h writes) and .npy export (core/formats/npy.h).
#include "logic/state/export.h"

#include <stb/stb_image_write.h>

#include <algorithm>
#include <filesystem>

#include "base/error.h"
#include "base/file_io.h"
#include "formats/npy.h"

namespace vit::gui {

void save_png(const std::string& path, const RgbaImage& img) {
    std::string png;
    const auto append = [](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size); };
    if (img.width <= 0 || img.height <= 0 ||
        !stbi_write_png_to_func(append, &png, img.width, img.height, 4, img.pixels.data(), img.width * 4))
        throw Error("cannot write the PNG '" + path + "': cannot encode the picture");
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

}  // namespace vit::gui
