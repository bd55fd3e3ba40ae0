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

std::string asset_dir() {
    std::error_code ec;
    for (fs::path dir = executable_dir(); !dir.empty(); dir = dir.parent_path()) {
        if (fs::is_directory(dir / kAssetsBelowPrefix, ec)) return (dir / kAssetsBelowPrefix).string();
        if (dir == dir.root_path()) break;
    }
    return "";
}

std::string asset_path(const std::string& relative) {
    const std::string dir = asset_dir();
    if (dir.empty())
        throw Error("the built-in assets are missing: no " + kAssetsBelowPrefix.string() + " above " +
                    executable_dir().string() + " (install vitviz, or keep the build folder whole)");
    return (fs::path(dir) / relative).string();
}

}  // namespace vit
