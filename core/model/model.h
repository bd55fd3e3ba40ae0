// A Vision Transformer as timm's `VisionTransformer` holds it: its config
// (sizes, preprocessing, labels) and its weights in PyTorch's (out, in)
// orientation. Loaders fill it (checkpoint.h, toy_model.h); forward.h runs it.
// Left out of the reference: distillation tokens, register tokens, global
// average pooling (the head always reads the CLS row).
#pragma once
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace vit {

// How an image becomes the model's input (timm's eval transform).
struct Preprocess {
    int image_size = 224;                // square crop fed to the model
    float crop_pct = 0.875f;             // resize shorter side to image_size / crop_pct, then centre crop
    std::string interpolation = "bicubic";  // "bicubic" or "bilinear"
    bool keep_aspect = true;             // false: resize both sides to image_size / crop_pct (HF image
                                         // processors, timm crop_mode 'squash') instead of the shorter one
    std::vector<float> mean = {0.485f, 0.456f, 0.406f};  // one per channel
    std::vector<float> std = {0.229f, 0.224f, 0.225f};
};

// The MLP's activation: nn.GELU() (erf form) or OpenAI CLIP's QuickGELU, x·sigmoid(1.702x).
enum class Activation { Gelu, QuickGelu };

struct ModelConfig {
    std::string name;          // shown in the UI and CLI
    int channels = 3;          // C
    int patch_size = 16;       // P
    int embed_dim = 768;       // D
    int depth = 12;            // number of blocks
    int num_heads = 12;        // H, D % H == 0
    int mlp_dim = 3072;        // M
    int num_classes = 1000;    // 0: no classifier head (DINO)
    int pos_grid = 14;         // side of the patch grid the positional embedding was trained on
    float ln_eps = 1e-6f;      // LayerNorm epsilon (timm 1e-6, Hugging Face 1e-12)
    // Block and stem variants (timm VisionTransformer's arguments):
    bool layer_scale = false;  // init_values: ls1/ls2.gamma scale each branch before its residual add (DINOv2)
    bool norm_pre = false;     // pre_norm: a LayerNorm on the tokens before the blocks (CLIP image towers)
    Activation activation = Activation::Gelu;  // act_layer
    Preprocess preprocess;
    std::vector<std::string> labels;  // num_classes names

    int head_dim() const { return embed_dim / num_heads; }
    int patch_dim() const { return channels * patch_size * patch_size; }
};

struct BlockWeights {
    Vec ln1_w, ln1_b;    // D
    Mat qkv_w;           // 3D × D, rows [0:D) q, [D:2D) k, [2D:3D) v
    Vec qkv_b;           // 3D (zeros when the checkpoint has no qkv bias)
    Mat proj_w;          // D × D
    Vec proj_b;          // D
    Vec ln2_w, ln2_b;    // D
    Mat fc1_w;           // M × D
    Vec fc1_b;           // M
    Mat fc2_w;           // D × M
    Vec fc2_b;           // D
    Vec ls1, ls2;        // D each: LayerScale gammas (config.layer_scale), empty otherwise
};

struct Model {
    ModelConfig config;
    Mat patch_w;         // D × (C·P·P), Conv2d weight (D, C, P, P) flattened in (c, y, x) order
    Vec patch_b;         // D
    Vec cls_token;       // D
    Mat pos_embed;       // (1 + pos_grid²) × D, row 0 for the CLS token
    Vec norm_pre_w, norm_pre_b;  // D each with config.norm_pre, empty otherwise
    std::vector<BlockWeights> blocks;
    Vec norm_w, norm_b;  // D
    Mat head_w;          // num_classes × D (empty when num_classes == 0)
    Vec head_b;          // num_classes
    std::string nonfinite_weights;  // the loader's report of tensors holding NaN or Inf; empty when none do
};

// Every weight has the shape the config gives it (biases may be empty: no
// bias, as linear() allows) and the heads divide the width; throws vit::Error
// naming the weight, the shape expected and the shape found.
void validate_model_shapes(const Model& model);
// The input is C×S×S with S a multiple of the patch size; throws vit::Error.
void check_model_input(const ModelConfig& config, const Tensor& input);

// One weight's storage, for code that treats all weights alike (optimisers,
// gradient sums). `matrix`: a Linear or patch-projection weight (rank 2, the
// ones weight decay applies to); false for biases, LayerNorm, CLS and positions.
template <typename T>
struct WeightSpanOf {
    T* data;
    int64_t size;
    bool matrix;
};
using WeightSpan = WeightSpanOf<float>;
using ConstWeightSpan = WeightSpanOf<const float>;
// Every weight of `model`, in the same order for every model of one config.
std::vector<WeightSpan> weight_spans(Model& model);
std::vector<ConstWeightSpan> weight_spans(const Model& model);
// Every weight of `model` as zeros of the same shape (config copied).
Model zeros_like(const Model& model);

// Floating-point operations of one forward pass on `tokens` tokens (multiply-add = 2).
double forward_flops(const ModelConfig& config, int tokens);

}  // namespace vit
