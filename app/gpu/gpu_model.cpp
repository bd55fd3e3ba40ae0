// Weight checks and upload (GPU backend). Biases may be empty (no bias), as
// the core's linear() allows; everything else must match the config exactly.
#include "gpu_model.h"

#include <string>

#include "error.h"

namespace vit::gpu {

namespace {

void expect(const std::string& key, int64_t rows, int64_t cols, int64_t want_rows, int64_t want_cols) {
    if (rows != want_rows || cols != want_cols)
        throw Error("model weight '" + key + "' has shape " + shape_string({rows, cols}) + ", expected " +
                    shape_string({want_rows, want_cols}));
}

void expect_mat(const std::string& key, const Mat& m, int64_t rows, int64_t cols) {
    expect(key, m.rows(), m.cols(), rows, cols);
}

void expect_vec(const std::string& key, const Vec& v, int64_t size, bool may_be_empty = false) {
    if (may_be_empty && v.size() == 0) return;
    if (v.size() != size)
        throw Error("model weight '" + key + "' has shape " + shape_string({v.size()}) + ", expected " +
                    shape_string({size}));
}

}  // namespace

void check_model(const Model& m) {
    const ModelConfig& c = m.config;
    if (c.embed_dim <= 0 || c.num_heads <= 0 || c.embed_dim % c.num_heads != 0)
        throw Error("model config: " + std::to_string(c.num_heads) + " heads do not divide the width " +
                    std::to_string(c.embed_dim));
    const int64_t D = c.embed_dim, M = c.mlp_dim, K = c.num_classes;
    expect_mat("patch_w", m.patch_w, D, c.patch_dim());
    expect_vec("patch_b", m.patch_b, D, true);
    expect_vec("cls_token", m.cls_token, D);
    expect_mat("pos_embed", m.pos_embed, 1 + int64_t(c.pos_grid) * c.pos_grid, D);
    if (static_cast<int>(m.blocks.size()) != c.depth)
        throw Error("model has " + std::to_string(m.blocks.size()) + " blocks, its config says " +
                    std::to_string(c.depth));
    for (int b = 0; b < c.depth; ++b) {
        const BlockWeights& w = m.blocks[b];
        const std::string p = "blocks." + std::to_string(b) + ".";
        expect_vec(p + "ln1_w", w.ln1_w, D);
        expect_vec(p + "ln1_b", w.ln1_b, D);
        expect_mat(p + "qkv_w", w.qkv_w, 3 * D, D);
        expect_vec(p + "qkv_b", w.qkv_b, 3 * D, true);
        expect_mat(p + "proj_w", w.proj_w, D, D);
        expect_vec(p + "proj_b", w.proj_b, D, true);
        expect_vec(p + "ln2_w", w.ln2_w, D);
        expect_vec(p + "ln2_b", w.ln2_b, D);
        expect_mat(p + "fc1_w", w.fc1_w, M, D);
        expect_vec(p + "fc1_b", w.fc1_b, M, true);
        expect_mat(p + "fc2_w", w.fc2_w, D, M);
        expect_vec(p + "fc2_b", w.fc2_b, D, true);
    }
    expect_vec("norm_w", m.norm_w, D);
    expect_vec("norm_b", m.norm_b, D);
    if (K > 0) {
        expect_mat("head_w", m.head_w, K, D);
        expect_vec("head_b", m.head_b, K, true);
    }
}

GpuModel upload_model(const Model& m) {
    check_model(m);
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
