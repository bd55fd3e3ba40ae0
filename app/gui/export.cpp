// PNG and .npy export. The .npy writer is core/npy.h's when the core has it.
#include "export.h"

#include <stb/stb_image_write.h>

#include <filesystem>
#include <fstream>

#include "error.h"
#if __has_include("npy.h")
#include "npy.h"
#define VITVIZ_HAVE_CORE_NPY 1
#endif

namespace vit::gui {

void save_png(const std::string& path, const RgbaImage& img) {
    if (img.width <= 0 || img.height <= 0 ||
        !stbi_write_png(path.c_str(), img.width, img.height, 4, img.pixels.data(), img.width * 4))
        throw Error(path + ": cannot write PNG");
}

void save_npy(const std::string& path, const Tensor& t) {
#ifdef VITVIZ_HAVE_CORE_NPY
    write_npy(path, t);
#else
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_string(t.shape) + ", }";
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream f(path, std::ios::binary);
    if (!f) throw Error(path + ": cannot open for writing");
    f.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = static_cast<uint16_t>(header.size());
    char le[2] = {static_cast<char>(len & 0xff), static_cast<char>(len >> 8)};
    f.write(le, 2);
    f.write(header.data(), static_cast<std::streamsize>(header.size()));
    f.write(reinterpret_cast<const char*>(t.data.data()), static_cast<std::streamsize>(t.data.size() * sizeof(float)));
    if (!f) throw Error(path + ": write failed");
#endif
}

std::string unique_export_path(const std::string& dir, const std::string& stem, const std::string& ext) {
    namespace fs = std::filesystem;
    fs::path base = fs::path(dir.empty() ? "." : dir);
    fs::path p = base / (stem + ext);
    for (int i = 2; fs::exists(p); ++i) p = base / (stem + "-" + std::to_string(i) + ext);
    return p.string();
}

}  // namespace vit::gui
