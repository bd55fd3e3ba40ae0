// A Vision Transformer as timm's `VisionTransformer` holds it: its config
// (sizes, preprocessing, labels) and its weights in PyTorch's (out, in)
// orientation. Loaders fill it (checkpoint.h, toy_model.h); forward.h runs it.
// Token kinds as timm builds them: CLS, DeiT's distillation token, registers,
// then the patches; the head reads the CLS row or the mean of the patch rows.
// Block variants: LayerScale (DINOv2), a norm before the blocks and QuickGELU (CLIP).
#pragma once
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace vit {

// How an image becomes the model's input (timm's eval transform).
struct Preprocess {
    int image_size = 224;                   // square crop fed to the model
    float crop_pct = 0.875f;                // resize shorter side to image_size / crop_pct, then centre crop
    std::string interpolation = "bicubic";  // "bicubic" or "bilinear"
    bool keep_aspect = true;                // false: resize both sides to image_size / crop_pct (HF image
                                            // processors, timm crop_mode 'squash') instead of the shorter one
    std::vector<float> mean = {0.485f, 0.456f, 0.406f};  // one per channel
    std::vector<float> std = {0.229f, 0.224f, 0.225f};
};

// What the head reads (timm's global_pool): the CLS row, the mean of the patch
// rows (prefix tokens left out), nothing pooled ('': headless models only), or
// the CLS row joined with the mean of the patch rows, 2D values (Hugging Face's
// Dinov2ForImageClassification).
enum class GlobalPool { Token, Avg, None, ClsAvg };

// How the positions are resized to another patch grid: timm's
// resample_abs_pos_embed (bicubic, antialiased) or transformers' DINOv2
// interpolate_pos_encoding (F.interpolate bicubic without antialias, a = -0.75).
enum class PosResample { Antialiased, Bicubic };

// The MLP's activation: nn.GELU() (erf form), OpenAI CLIP's QuickGELU,
// x·sigmoid(1.702x), or DINOv2 ViT-g's SwiGLU, SiLU(h₁)·h₂ on the two halves of
// a fc1 twice as wide (timm's SwiGLUPacked, transformers' Dinov2SwiGLUFFN).
enum class Activation { Gelu, QuickGelu, SwiGlu };

// timm's token layout and pooling: the tokens before the patches in timm's
// order (CLS, DIST, REG0…), which of them the positions cover, and what the
// head reads. The loader resolves them (checkpoint.h) and ModelConfig carries them.
struct TokenSettings {
    bool class_token = true;    // timm class_token
    bool dist_token = false;    // DeiT distilled: a DIST token and a second head (head_dist)
    int reg_tokens = 0;         // timm reg_tokens
    bool pos_on_prefix = true;  // false: timm no_embed_class, positions cover only the patch grid
    // false: the registers take no position though CLS does (transformers'
    // Dinov2WithRegisters adds the positions to [CLS; patches], then inserts the registers)
    bool pos_on_registers = true;
    GlobalPool global_pool = GlobalPool::Token;
    bool fc_norm = false;  // LayerNorm after pooling; the final norm is then an identity (timm use_fc_norm)

    // timm's num_prefix_tokens: the rows before patch 0.
    int prefix_tokens() const { return int(class_token) + int(dist_token) + reg_tokens; }
    // The prefix rows the positional embedding has, for the first prefix tokens
    // (0 under no_embed_class; CLS and DIST's without the registers').
    int pos_prefix() const { return pos_on_prefix ? prefix_tokens() - (pos_on_registers ? 0 : reg_tokens) : 0; }
    // The row of the positional embedding token `t` takes; -1 for a prefix token without one.
    int pos_row(int t) const {
        const int placed = pos_prefix(), prefix = prefix_tokens();
        return t < placed ? t : t < prefix ? -1 : t - prefix + placed;
    }
    // The width of what the head reads from tokens of `embed_dim`: twice it for GlobalPool::ClsAvg.
    int pooled_width(int embed_dim) const { return global_pool == GlobalPool::ClsAvg ? 2 * embed_dim : embed_dim; }
};

struct ModelConfig : TokenSettings {
    std::string name;        // shown in the UI and CLI
    int channels = 3;        // C
    int patch_size = 16;     // P
    int embed_dim = 768;     // D
    int depth = 12;          // number of blocks
    int num_heads = 12;      // H, D % H == 0
    int mlp_dim = 3072;      // M, the hidden width fc2 reads (fc1 writes 2M for SwiGLU)
    int num_classes = 1000;  // 0: no classifier head (DINO)
    int pos_grid = 14;       // side of the patch grid the positional embedding was trained on
    float ln_eps = 1e-6f;    // LayerNorm epsilon (timm 1e-6, Hugging Face 1e-12)
    // Block and stem variants (timm VisionTransformer's arguments):
    bool layer_scale = false;  // init_values: ls1/ls2.gamma scale each branch before its residual add (DINOv2)
    bool norm_pre = false;     // pre_norm: a LayerNorm on the tokens before the blocks (CLIP image towers)
    Activation activation = Activation::Gelu;  // act_layer
    Preprocess preprocess;
    std::vector<std::string> labels;  // num_classes names
    PosResample pos_resample = PosResample::Antialiased;
    bool random_weights = false;  // seeded random weights, never trained (random_model.h): the views say so

    int head_dim() const { return embed_dim / num_heads; }
    // The width fc1 writes: M, or 2M for SwiGLU (gate and value side by side).
    int fc1_dim() const { return activation == Activation::SwiGlu ? 2 * mlp_dim : mlp_dim; }
    int patch_dim() const { return channels * patch_size * patch_size; }
    // The width of what the head reads: 2D for GlobalPool::ClsAvg, else D.
    int pooled_dim() const { return pooled_width(embed_dim); }
    // True for the plain layout the backward pass and the GPU backend follow:
    // one CLS token, positions on it, the head on its row.
    bool plain_tokens() const {
        return class_token && !dist_token && reg_tokens == 0 && pos_on_prefix && global_pool == GlobalPool::Token &&
               !fc_norm;
    }
};

struct BlockWeights {
    Vec ln1_w, ln1_b;  // D
    Mat qkv_w;         // 3D × D, rows [0:D) q, [D:2D) k, [2D:3D) v
    Vec qkv_b;         // 3D (zeros when the checkpoint has no qkv bias)
    Mat proj_w;        // D × D
    Vec proj_b;        // D
    Vec ln2_w, ln2_b;  // D
    Mat fc1_w;         // fc1_dim × D (M × D; 2M × D for SwiGLU, the gate rows first)
    Vec fc1_b;         // fc1_dim
    Mat fc2_w;         // D × M
    Vec fc2_b;         // D
    Vec ls1, ls2;      // D each: LayerScale gammas (config.layer_scale), empty otherwise
};

struct Model {
    ModelConfig config;
    Mat patch_w;                 // D × (C·P·P), Conv2d weight (D, C, P, P) flattened in (c, y, x) order
    Vec patch_b;                 // D
    Vec cls_token;               // D (empty without a class token)
    Vec dist_token;              // D (DeiT distilled; else empty)
    Mat reg_token;               // reg_tokens × D
    Mat pos_embed;               // (pos_prefix + pos_grid²) × D, the prefix rows first
    Vec norm_pre_w, norm_pre_b;  // D each with config.norm_pre, empty otherwise
    std::vector<BlockWeights> blocks;
    Vec norm_w, norm_b;        // D (empty when fc_norm: the final norm is an identity)
    Vec fc_norm_w, fc_norm_b;  // D when fc_norm
    Mat head_w;                // num_classes × pooled_dim (empty when num_classes == 0)
    Vec head_b;                // num_classes
    Mat head_dist_w;           // DeiT's distillation head, as head_w (empty unless dist_token)
    Vec head_dist_b;
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
