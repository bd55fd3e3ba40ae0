// A Model's weights on the GPU: one storage buffer per weight, in the core's
// layout (row-major, PyTorch (out, in)), checked against the config first (model.h).
#pragma once
#include <vector>

#include "gpu_buffers.h"
#include "model/model.h"

namespace vit::gpu {

struct GpuBlockWeights {
    GpuBuffer ln1_w, ln1_b, qkv_w, qkv_b, proj_w, proj_b, ln2_w, ln2_b, fc1_w, fc1_b, fc2_w, fc2_b;
    bool qkv_has_bias = false, proj_has_bias = false, fc1_has_bias = false, fc2_has_bias = false;
};

struct GpuModel {
    ModelConfig config;
    Mat pos_embed;  // kept on the CPU too, to resample it for other input sizes
    GpuBuffer patch_w, patch_b, cls_token, pos, norm_w, norm_b, head_w, head_b;
    bool patch_has_bias = false, head_has_bias = false;
    std::vector<GpuBlockWeights> blocks;
};

// Throws vit::Error when the model has a stage the shaders do not compute
// (LayerScale, norm_pre, QuickGELU: the catalogue's variant rows other than
// GELU), naming the stage: such a model runs on the CPU only, never as a
// different model on the GPU.
void require_gpu_stages(const ModelConfig& config);

// Throws vit::Error (require_gpu_stages, validate_model_shapes) when the model
// has a stage the GPU lacks or a weight's shape is not the config's.
GpuModel upload_model(const Model& model);

}  // namespace vit::gpu
