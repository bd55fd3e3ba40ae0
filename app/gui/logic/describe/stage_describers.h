// The describers of the side panel's text: one per kind of stage (a few kinds share
// one), each filling a StageInfo's shapes, explanation and notebook note with the
// loaded model's real sizes. The table of logic/describe/stage_kinds.cpp says which
// describer a kind takes; describe_stage (stage_info.h) is what the panels call.
#pragma once
#include "logic/describe/stage_info.h"

namespace vit::gui {

// The sizes every description is written with.
struct StageSizes {
    int C, P, N, T, D, H, Dh, M, K, L;
    int prefix;  // the tokens before the patches (CLS, DIST, registers)
    int grid;    // side of the patch grid, 0 when N is not a square
    int side;    // side of the input image in pixels
    float eps;
};
// `tokens` = T = prefix + N; never fails, whatever the sizes.
StageSizes stage_sizes(const ModelConfig& config, int tokens);

using Describer = void (*)(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);

void describe_qkv(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_input(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_patches(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_patch_embed(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_cls(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_tokens(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_ln1(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_scores(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_attn(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_context(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_attn_out(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_res1(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_ln2(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_fc1(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_gelu(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_mlp_out(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_out(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_norm_pre(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_quick_gelu(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_swiglu(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_layer_scale(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_norm(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_pool(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_pool_norm(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_logits_part(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_logits(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_probs(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);
void describe_rollout(StageInfo& info, const StageRef& stage, const StageSizes& s, const ModelConfig& config);

}  // namespace vit::gui
