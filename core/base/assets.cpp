// Finding the assets folder from the executable's own path (see assets.h).
#include "base/assets.h"

#include <filesystem>

#include "base/error.h"

namespace vit {

namespace fs = std::filesystem;

static const fs::path kAssetsBelowPrefix = fs::path("share") / "vitviz" / "assets";

static fs::path executable_dir() {
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

// The assets folder in `dir` or a folder above it; "" when none holds one.
static std::string assets_above(fs::path dir) {
    std::error_code ec;
    for (; !dir.empty(); dir = dir.parent_path()) {
        if (fs::is_directory(dir / kAssetsBelowPrefix, ec)) return (dir / kAssetsBelowPrefix).string();
        if (dir == dir.root_path()) break;
    }
    return "";
}

// Above the executable; a WebAssembly build, whose executable is the browser or node, looks
// above its working folder (the page's file system root, where app/web preloads them).
std::string asset_dir() {
    const std::string beside_executable = assets_above(executable_dir());
    if (!beside_executable.empty()) return beside_executable;
#ifdef __EMSCRIPTEN__
    std::error_code ec;
    return assets_above(fs::current_path(ec));
#else
    return "";
#endif
}

std::string asset_path(const std::string& relative) {
    const std::string dir = asset_dir();
    if (dir.empty())
        throw Error("the built-in assets are missing: no " + kAssetsBelowPrefix.string() + " above " +
                    executable_dir().string() + " (install vitviz, or keep the build folder whole)");
    return (fs::path(dir) / relative).string();
}

}  // namespace vit
