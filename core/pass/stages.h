// The stage catalogue (docs/DESIGN.md#stage-catalogue) as one table: for every stage of the forward pass
// its id, kind, group, shape rule, the stage it is computed from, its names in
// the app, its colormap family and its teaching text (formula and PyTorch line).
// The forward pass, the GPU backend, the app and the dumps all read this table;
// nothing parses id strings to learn what a stage is. Adding a stage is one row
// here (plus its forward step, shader, view and side-panel explanation).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/model.h"

namespace vit {

// One value per row of the table, in catalogue order.
enum class StageKind {
    Input,
    Patches,
    PatchEmbed,
    Cls,
    Tokens,
    NormPre,
    Ln1,
    Q,
    K,
    V,
    Scores,
    Attn,
    Context,
    AttnOut,
    Ls1,
    Res1,
    Ln2,
    Fc1,
    Gelu,
    QuickGelu,
    SwiGlu,
    MlpOut,
    Ls2,
    Out,
    Norm,
    Pool,
    FcNorm,
    LogitsCls,
    LogitsDist,
    Logits,
    Probs,
    Rollout
};

enum class StageGroup { Embedding, Block, Head };
enum class Palette { Diverging, Sequential };  // signed values / shares and probabilities
// The model variant a row exists in (timm VisionTransformer's arguments): every
// model, or only models with LayerScale, a pre-blocks norm, GELU, QuickGELU or SwiGLU,
// pooled features (avg or fc_norm), fc_norm, DeiT's two heads, or a classifier head.
enum class Variant { All, LayerScale, NormPre, Gelu, QuickGelu, SwiGlu, Pool, FcNorm, Distilled, Head };

// The model's sizes a stage shape is made of.
// T0 = prefix + N: every token (the `cls` stage; prefix = CLS, DIST and
// register tokens, ModelConfig::prefix_tokens); T = T0 − dropped tokens: the
// tokens the encoder sees (`tokens` and later; interventions.h). Pooled: the
// width of what the head reads (ModelConfig::pooled_dim, D or 2D). F: the
// width fc1 writes (ModelConfig::fc1_dim, M or 2M for SwiGLU).
enum class Dim { C, S, N, PatchDim, T0, T, D, H, Dh, M, F, Classes, Pooled };
struct ModelSizes {
    int64_t C = 0, S = 0, N = 0, PatchDim = 0, T0 = 0, T = 0, D = 0, H = 0, Dh = 0, M = 0, F = 0, Classes = 0,
            Pooled = 0;
};
// The sizes of `config` for an input of `grid`×`grid` patches with `dropped`
// patch tokens removed.
ModelSizes model_sizes(const ModelConfig& config, int grid, int dropped = 0);

struct StageDef {
    StageKind kind;
    const char* name;  // the id; inside a block it follows "block{i}."
    StageGroup group;
    std::vector<Dim> shape;
    // The stage it is computed from: `from` of the same block, or with
    // `from_stream` the residual stream entering this stage's block (the
    // previous block's `out`, `tokens` before block 0; the head's stream is the
    // last block's output). `from_none`: no single input stage.
    StageKind from;
    bool from_stream;
    bool from_none;
    Palette palette;
    const char* short_name;  // the navigator's few words
    const char* title;       // the app's title line (after "Block i: " inside a block)
    const char* formula;     // plain ASCII, the model's sizes left symbolic
    const char* pytorch;     // the matching PyTorch line(s) (timm style), '\n' between lines
    const char* backward;    // the gradient of this stage from the later ones (the backward walk)
    Variant variant = Variant::All;
};

// The whole table, in catalogue order (block rows once, for every block).
const std::vector<StageDef>& stage_table();
const StageDef& stage_def(StageKind kind);

// One stage of one model: a row and, for block rows, the block index (else -1).
struct StageRef {
    StageKind kind = StageKind::Input;
    int block = -1;
    bool operator==(const StageRef& o) const { return kind == o.kind && block == o.block; }
    bool operator!=(const StageRef& o) const { return !(*this == o); }
};

// "block3.attn" for {Attn, 3}, "tokens" for {Tokens, -1}.
std::string stage_id(StageKind kind, int block = -1);
inline std::string stage_id(const StageRef& s) { return stage_id(s.kind, s.block); }
// The row and block an id names; nothing for an id outside the catalogue.
std::optional<StageRef> parse_stage_id(const std::string& id);

// Every stage a model of `depth` blocks produces, in order; with `has_head`
// false (a headless checkpoint such as DINO) there is no logits/probs.
// That is the plain ViT's list (GELU, no LayerScale, no norm_pre); a model's
// own list, with the rows of its variant, comes from its config.
std::vector<StageRef> stage_list(int depth, bool has_head);
std::vector<std::string> stage_ids(int depth, bool has_head);
std::vector<StageRef> stage_list(const ModelConfig& config);
// Whether `config`'s model has the rows of `variant`.
bool has_variant(const ModelConfig& config, Variant variant);

// The stage's shape for these sizes.
std::vector<int64_t> stage_shape(StageKind kind, const ModelSizes& sizes);
// The stage `s` is computed from in a model of `depth` blocks; nothing when it has no single input.
// With `norm_pre` the stream entering block 0 is `norm_pre`, not `tokens`.
std::optional<StageRef> stage_input(const StageRef& s, int depth, bool norm_pre = false);
// The same in `config`'s model: its depth, its norm_pre, and its activation's
// stage where the plain model reads `gelu` (mlp_out reads quick_gelu or swiglu).
std::optional<StageRef> stage_input(const StageRef& s, const ModelConfig& config);
// The stage an MLP activation writes: gelu, quick_gelu or swiglu.
StageKind activation_stage(Activation activation);

}  // namespace vit
