// Where the built-in assets (the digits model and its sample digits, the photo
// gallery) are at run time: the folder `share/vitviz/assets` nearest above the
// running executable — the build tree's copy (build/share/vitviz/assets, made
// at build time by core/CMakeLists.txt) or an installed one
// (PREFIX/share/vitviz/assets beside PREFIX/bin). No path of the source
// checkout is compiled in, so a moved or installed build still finds them.
#pragma once
#include <string>

namespace vit {

// The assets folder; "" when there is none above the executable (in a
// WebAssembly build, above the working folder: core/base/assets.cpp).
std::string asset_dir();

// `relative` inside the assets folder; throws vit::Error saying where it
// looked when there is no assets folder.
std::string asset_path(const std::string& relative);

}  // namespace vit
