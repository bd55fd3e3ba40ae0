// Default images of the built-in models (see builtin.h).
#include "model/builtin.h"

#include <algorithm>
#include <filesystem>
#include <vector>

#include "base/assets.h"
#include "base/error.h"
#include "model/toy_model.h"

namespace vit {

static Image first_sample_digit() {
    const std::filesystem::path dir = asset_path("digits/samples");
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".png") files.push_back(entry.path());
    if (files.empty()) throw Error(dir.string() + ": no sample digits found");
    std::sort(files.begin(), files.end());
    return load_image(files.front().string(), 1);
}

Image default_image(const std::string& model_name) {
    if (model_name == "toy-4x4") return toy_image();
    if (model_name == "digits") return first_sample_digit();
    throw Error("no image given: pass --image PATH (only the built-in models have a default image)");
}

Image model_image(const std::string& model_name, const std::string& path, int channels) {
    if (!path.empty()) return load_image(path, channels);
    return with_channels(default_image(model_name), channels);
}

}  // namespace vit
