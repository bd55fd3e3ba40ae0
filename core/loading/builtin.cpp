// The registry of built-in models and their images (see builtin.h).
#include "loading/builtin.h"

#include <algorithm>
#include <filesystem>

#include "base/assets.h"
#include "base/error.h"
#include "hub/hub_name.h"
#include "model/random_model.h"
#include "loading/toy_model.h"

namespace vit {

namespace {

Image first_sample_digit() {
    const std::filesystem::path dir = asset_path("digits/samples");
    std::error_code ec;
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".png") files.push_back(entry.path());
    if (files.empty()) throw Error(dir.string() + ": no sample digits found");
    std::sort(files.begin(), files.end());
    return load_image(files.front().string(), 1);
}

Model load_toy(const LoadProgress&) { return make_toy_model(); }
Model load_digits(const LoadProgress& progress) { return load_checkpoint(asset_path(kDigitsModel), progress); }
Model load_random_vit_b(const LoadProgress&) { return make_random_model(vit_base_config(), 1); }
Model load_random_reg4(const LoadProgress&) { return make_random_model(vit_small_reg4_config(), 1); }
Model load_random_distilled(const LoadProgress&) { return make_random_model(deit_small_distilled_config(), 1); }
Model load_random_gap(const LoadProgress&) { return make_random_model(vit_medium_gap_config(), 1, false); }
Model load_random_clip(const LoadProgress&) { return make_random_model(vit_base_clip_config(), 1); }

}  // namespace

const std::vector<BuiltinModel>& builtin_models() {
    static const std::vector<BuiltinModel> models = {
        {kToyModel, "the notebook's 4×4 toy, 1 block", "toy 4×4 image (0…15)", toy_image, load_toy},
        {kDigitsModel, "trained on MNIST digits", "built-in sample", first_sample_digit, load_digits},
        {kRandomVitB, "ViT-B/16's sizes with random weights, for benchmarks", nullptr, nullptr, load_random_vit_b},
        {kRandomReg4, "DINOv2 ViT-S/14 with LayerScale and 4 registers (CLS, REG0…REG3, patches), random weights",
         nullptr, nullptr, load_random_reg4},
        {kRandomDistilled, "DeiT-S distilled (CLS and DIST tokens, two heads), random weights", nullptr, nullptr,
         load_random_distilled},
        {kRandomGap, "ViT-M/16 without a class token, the head on the patches' mean, random weights", nullptr, nullptr,
         load_random_gap},
        {kRandomClip, "CLIP's ViT-B/16 image tower (norm_pre, no patch bias, no head), random weights", nullptr,
         nullptr, load_random_clip},
    };
    return models;
}

const BuiltinModel* find_builtin_model(const std::string& name) {
    for (const BuiltinModel& m : builtin_models())
        if (name == m.name) return &m;
    return nullptr;
}

bool is_builtin_model(const std::string& name) { return find_builtin_model(name) != nullptr; }

bool is_named_model(const std::string& name) { return is_builtin_model(name) || is_hub_name(name); }

bool brings_own_image(const std::string& name) {
    const BuiltinModel* m = find_builtin_model(name);
    return m && m->image;
}

std::string builtin_model_names(const std::string& separator) {
    std::string names;
    for (const BuiltinModel& m : builtin_models()) names += (names.empty() ? "" : separator) + m.name;
    return names;
}

std::string builtin_model_lines(const std::string& indent) {
    std::string lines;
    for (const BuiltinModel& m : builtin_models()) lines += indent + m.name + ": " + m.description + "\n";
    return lines;
}

Image model_image(const std::string& model_name, const std::string& path, int channels) {
    if (!path.empty()) return load_image(path, channels);
    if (!brings_own_image(model_name)) {
        std::string own;  // the models that bring their own image
        for (const BuiltinModel& m : builtin_models())
            if (m.image) own += (own.empty() ? "" : ", ") + std::string(m.name);
        throw Error("no image given: pass --image PATH (only the built-in models " + own + " have a default image)");
    }
    return with_channels(find_builtin_model(model_name)->image(), channels);
}

}  // namespace vit
