// The GPU memory of one forward pass: a buffer for every stage of the catalogue
// (q, k and v share one qkv buffer), allocated for one model and one patch grid
// and reused by every pass of that size, plus the table that says where each
// stage lives so any of them can be read back after the pass.
#pragma once
#include <string>
#include <vector>

#include "gpu_buffers.h"
#include "model/model.h"
#include "pass/stages.h"

namespace vit::gpu {

struct BlockActivations {
    GpuBuffer ln1, qkv, scores, attn, context, attn_out, res1, ln2, fc1, gelu, mlp_out, out;
    GpuBuffer head_scale;  // D: 0 on silenced heads' columns of context, 1 elsewhere
};

struct StageSlot {
    const GpuBuffer* buffer = nullptr;
    size_t offset = 0;  // floats
    std::vector<int64_t> shape;
    StageRef stage;
};

struct Activations {
    int grid = 0;                                                 // patches per side
    int tokens = 0;                                               // T = grid² + 1 − dropped tokens
    GpuBuffer input, patches, patch_embed, cls, tokens_buf, pos;  // pos: resampled, when grid ≠ pos_grid
    // Interventions (core/pass/interventions.h): the unpermuted embedding and its
    // row order; cls + pos before dropping tokens and the rows kept.
    GpuBuffer embed_unpermuted, permutation, tokens_all, kept_rows;
    std::vector<BlockActivations> blocks;
    GpuBuffer norm, logits, probs, rollout;
    GpuBuffer rollout_tmp, rollout_factor;  // ping-pong partner and one block's Â

    std::vector<StageSlot> slots;  // every stage, in catalogue order
    // Where `stage` lives; nullptr for a stage this model and grid have not.
    const StageSlot* slot(const StageRef& stage) const;
};

// Allocates everything for inputs of `grid`×`grid` patches with `dropped` patch
// tokens removed. Throws vit::Error when a stage is larger than this GPU's
// storage blocks allow.
void allocate_activations(const ModelConfig& config, int grid, int dropped, Activations& acts);

}  // namespace vit::gpu
