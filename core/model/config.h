// What a checkpoint's config says about the model: config.json in timm form
// (`architecture`, `model_args`, `pretrained_cfg`, as timm's push_to_hub
// writes it) or Hugging Face form (`hidden_size`, `num_attention_heads`, ...,
// `id2label`, plus preprocessor_config.json; `model_type` "vit", "dinov2" or
// "dinov2_with_registers", as transformers' AutoConfig reads it). Every size is optional: the
// checkpoint loader takes what the config leaves out from the weights and
// checks what it states against them. Left out: HF image processors other than
// ViT/DeiT/ConvNeXt-style resize and centre crop; timm's 'border' crop mode.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "base/bounds.h"
#include "model/model.h"

namespace vit {

// A size a config states, with the words that explain it in error messages:
// {12, "config.json says num_heads 12"}.
struct StatedSize {
    int value = 0;
    std::string why;
};

// The Hugging Face model a config's `model_type` names: ViTModel /
// ViTForImageClassification, Dinov2Model / Dinov2ForImageClassification, or
// Dinov2WithRegistersModel / Dinov2WithRegistersForImageClassification.
enum class HfModel { Vit, Dinov2, Dinov2WithRegisters };

struct ConfigSpec {
    std::string path;                 // config.json as given; empty when there was none
    std::string name;                 // timm `architecture`, or HF `_name_or_path` / `architectures[0]`
    bool huggingface = false;         // HF form (or, with no config, HF key names)
    HfModel hf_model = HfModel::Vit;  // HF form: model_type
    std::optional<StatedSize> channels, patch_size, embed_dim, depth, num_heads, mlp_dim, num_classes;
    std::optional<StatedSize> img_size;  // the model's own image size: pos_grid = img_size / patch_size
    // timm: fc1's width = embed_dim × mlp_ratio (mlp_dim its half for SwiGLU) when mlp_dim is not stated;
    // HF DINOv2: the MLP's ratio before SwiGLU's 2/3 (Dinov2SwiGLUFFN)
    std::optional<double> mlp_ratio;
    float ln_eps = 1e-6f;  // timm 1e-6 (1e-5 for CLIP towers); HF `layer_norm_eps`, default 1e-12 (DINOv2 1e-6)
    // timm's block and stem variants, from model_args or the architecture name:
    bool layer_scale = false;         // init_values (DINOv2; HF model_type "dinov2")
    bool layer_scale_stated = false;  // model_args states init_values: the weights must agree
    std::optional<bool> qkv_bias;     // timm model_args / HF qkv_bias, when stated: the weights must agree
    bool norm_pre = false;            // pre_norm (CLIP: also no patch-embedding bias)
    bool norm_pre_stated = false;     // model_args states pre_norm: the weights must agree
    // act_layer ('quick_gelu' for the _quickgelu_ CLIP towers); SwiGlu: timm's
    // mlp_layer SwiGLUPacked, HF's use_swiglu_ffn
    Activation activation = Activation::Gelu;
    std::optional<StatedSize> input_size;  // the square crop the preprocessing produces, and who says so
    Preprocess preprocess;                 // image_size is set by the loader (input_size, else img_size)
    std::string mean_std_path;             // the file stating mean/std; empty: the defaults for 3 channels
    std::map<int, std::string> labels;     // class index → name (`id2label`, `label_names`)
    // timm's token and pooling settings where the config states them (top-level
    // `global_pool`, `model_args`; HF `num_register_tokens`, default 4 for
    // Dinov2WithRegisters); the loader checks them against the weights.
    std::optional<GlobalPool> global_pool;
    std::optional<bool> class_token, no_embed_class, fc_norm;
    std::optional<int> reg_tokens;
};

// The defaults when a checkpoint has no config.json: timm's generic eval
// transform, or HF's ViTImageProcessor (bilinear straight resize, mean/std 0.5).
ConfigSpec default_config(bool huggingface);

// Reads config.json; `preprocessor_path` (HF form only) is read when the file exists.
ConfigSpec read_config(const std::string& config_path, const std::string& preprocessor_path);

// What read_config does, on files already in memory (the paths name them in
// messages): config.json alone, then an HF preprocessor_config.json on top.
ConfigSpec parse_config(const uint8_t* bytes, size_t size, const std::string& config_path);
void apply_preprocessor_config(const uint8_t* bytes, size_t size, const std::string& path, ConfigSpec& spec);

// What a timm model name says: "vit_base_patch16_224.augreg_in1k" → patch 16,
// image 224, 12 heads (timm's tiny 3, small 6, base 12, large 16, huge 16).
// Numbers are as the name spells them, unbounded (an overflowing one as
// INT_MAX): read_config bounds them like the config's own fields.
// A "vit_" name also says its family's variant, as timm's model functions set
// it: "dinov2" → init_values (LayerScale); "clip" → pre_norm and nn.LayerNorm's
// eps 1e-5; "quickgelu" → act_layer 'quick_gelu'; "giant" with "dinov2" →
// mlp_layer SwiGLUPacked (vit_giant_patch14_dinov2 and its reg4 twin).
struct TimmName {
    std::optional<int> patch_size, img_size, num_heads;
    bool dinov2 = false, clip = false, quickgelu = false, giant = false;
};
TimmName parse_timm_name(const std::string& architecture);

}  // namespace vit
