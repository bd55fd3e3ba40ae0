// Weight upload (GPU backend), after the checks that the shaders compute the
// model's stages and that its shapes are right (model.h).
#include "gpu_model.h"

#include "base/error.h"
#include "pass/stages.h"

namespace vit::gpu {

void require_gpu_stages(const ModelConfig& c) {
    for (const StageDef& def : stage_table()) {
        const bool on_gpu = def.variant == Variant::All || def.variant == Variant::Gelu || def.variant == Variant::Head;
        if (on_gpu || !has_variant(c, def.variant)) continue;
        throw Error("GPU backend: " + c.name + " has the stage '" + def.name + "' (" + def.title +
                    "), which the GPU backend does not compute: run this model on the CPU");
    }
}

GpuModel upload_model(const Model& m) {
    require_gpu_stages(m.config);
    validate_model_shapes(m);
    if (!m.config.plain_tokens())
        throw Error(m.config.name +
                    ": the GPU backend runs only one CLS token with the head on its row; this model's "
                    "registers, distillation token or pooling run on the CPU");
    GpuModel g;
    g.config = m.config;
    g.pos_embed = m.pos_embed;
    g.patch_w = upload_static(m.patch_w);
    g.patch_b = upload_static(m.patch_b);
    g.patch_has_bias = m.patch_b.size() > 0;
    g.cls_token = upload_static(m.cls_token);
    g.pos = upload_static(m.pos_embed);
    g.norm_w = upload_static(m.norm_w);
    g.norm_b = upload_static(m.norm_b);
    if (m.config.num_classes > 0) {
        g.head_w = upload_static(m.head_w);
        g.head_b = upload_static(m.head_b);
        g.head_has_bias = m.head_b.size() > 0;
    }
    for (const BlockWeights& w : m.blocks) {
        GpuBlockWeights& gb = g.blocks.emplace_back();
        gb.ln1_w = upload_static(w.ln1_w);
        gb.ln1_b = upload_static(w.ln1_b);
        gb.qkv_w = upload_static(w.qkv_w);
        gb.qkv_b = upload_static(w.qkv_b);
        gb.qkv_has_bias = w.qkv_b.size() > 0;
        gb.proj_w = upload_static(w.proj_w);
        gb.proj_b = upload_static(w.proj_b);
        gb.proj_has_bias = w.proj_b.size() > 0;
        gb.ln2_w = upload_static(w.ln2_w);
        gb.ln2_b = upload_static(w.ln2_b);
        gb.fc1_w = upload_static(w.fc1_w);
        gb.fc1_b = upload_static(w.fc1_b);
        gb.fc1_has_bias = w.fc1_b.size() > 0;
        gb.fc2_w = upload_static(w.fc2_w);
        gb.fc2_b = upload_static(w.fc2_b);
        gb.fc2_has_bias = w.fc2_b.size() > 0;
    }
    return g;
}

}  // namespace vit::gpu
