// Checkpoint folders (model_writer.h).
#include "formats/model_writer.h"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "base/error.h"
#include "base/file_io.h"
#include "base/finite.h"
#include "model/parameters.h"
#include "formats/checkpoint.h"
#include "formats/safetensors.h"

namespace vit {

namespace {

nlohmann::ordered_json timm_config(const ModelConfig& c) {
    const Preprocess& pre = c.preprocess;
    const int image_size = c.patch_size * c.pos_grid;
    nlohmann::ordered_json args = {{"img_size", image_size},
                                   {"patch_size", c.patch_size},
                                   {"in_chans", c.channels},
                                   {"embed_dim", c.embed_dim},
                                   {"depth", c.depth},
                                   {"num_heads", c.num_heads},
                                   {"mlp_ratio", static_cast<double>(c.fc1_dim()) / c.embed_dim},
                                   {"qkv_bias", true},
                                   {"num_classes", c.num_classes}};
    if (c.layer_scale) args["init_values"] = 1e-5;  // any non-zero value: the gammas are in the file
    if (c.norm_pre) args["pre_norm"] = true;
    if (c.activation == Activation::QuickGelu) args["act_layer"] = "quick_gelu";
    if (c.activation == Activation::SwiGlu) args["act_layer"] = "silu", args["mlp_layer"] = "SwiGLUPacked";
    nlohmann::ordered_json cfg = {{"custom_load", false},
                                  {"input_size", {c.channels, pre.image_size, pre.image_size}},
                                  {"fixed_input_size", true},
                                  {"interpolation", pre.interpolation},
                                  {"crop_pct", pre.crop_pct},
                                  {"crop_mode", pre.keep_aspect ? "center" : "squash"},
                                  {"mean", pre.mean},
                                  {"std", pre.std},
                                  {"num_classes", c.num_classes},
                                  {"first_conv", "patch_embed.proj"},
                                  {"classifier", "head"},
                                  {"label_names", c.labels}};
    return {{"architecture", c.name}, {"num_classes", c.num_classes}, {"num_features", c.embed_dim},
            {"global_pool", "token"}, {"model_args", args},           {"pretrained_cfg", cfg}};
}

}  // namespace

void save_checkpoint(const std::string& dir, const Model& model) {
    const std::vector<NamedTensor> weights = timm_parameters(model);
    for (const NamedTensor& w : weights) {
        if (const size_t bad = count_nonfinite(w.tensor.data.data(), w.tensor.data.size()))
            throw Error("nothing saved to '" + dir + "': " + std::to_string(bad) + " of the " +
                        std::to_string(w.tensor.data.size()) + " values of " + w.name + " are NaN or infinite");
    }
    make_folder(dir);
    const std::filesystem::path folder(dir);
    std::map<std::string, std::string> metadata;
    if (model.config.random_weights) metadata[kRandomWeightsKey] = "seeded random weights, never trained";
    write_safetensors((folder / "model.safetensors").string(), weights, metadata);
    write_whole_file((folder / "config.json").string(), timm_config(model.config).dump(2) + "\n");
}

}  // namespace vit
