// Weight spans (for optimisers), the checks every backend runs before computing (a model's weight shapes
// against its config, an input's shape against the model) and the operation
// counts of the forward pass, for the GFLOP/s the benchmarks print.
#include "model/model.h"

#include <algorithm>
#include <string>

#include "base/error.h"

namespace vit {

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

// The prefix tokens, positions and the pooling head against the config's token layout.
void validate_token_shapes(const Model& m) {
    const ModelConfig& c = m.config;
    const int64_t D = c.embed_dim, K = c.num_classes;
    expect_vec("cls_token", m.cls_token, c.class_token ? D : 0);
    expect_vec("dist_token", m.dist_token, c.dist_token ? D : 0);
    expect_mat("reg_token", m.reg_token, c.reg_tokens, c.reg_tokens > 0 ? D : 0);
    expect_mat("pos_embed", m.pos_embed, c.pos_prefix() + int64_t(c.pos_grid) * c.pos_grid, D);
    expect_vec("norm_w", m.norm_w, c.fc_norm ? 0 : D);
    expect_vec("norm_b", m.norm_b, c.fc_norm ? 0 : D);
    expect_vec("fc_norm_w", m.fc_norm_w, c.fc_norm ? D : 0);
    expect_vec("fc_norm_b", m.fc_norm_b, c.fc_norm ? D : 0);
    if (c.global_pool == GlobalPool::Token && !c.class_token)
        throw Error("model config: global_pool 'token' needs a class token");
    if (c.global_pool == GlobalPool::None && K > 0)
        throw Error("model config: global_pool '' (no pooling) with a classifier head is not supported");
    if (c.dist_token && c.global_pool != GlobalPool::Token)
        throw Error("model config: a distillation token with global_pool other than 'token' is not supported");
    if (c.global_pool == GlobalPool::ClsAvg && (!c.class_token || c.fc_norm))
        throw Error("model config: the CLS row joined with the patch mean needs a class token and no fc_norm");
    if (c.dist_token && K > 0) {
        expect_mat("head_dist_w", m.head_dist_w, K, D);
        expect_vec("head_dist_b", m.head_dist_b, K, true);
    }
}

// The optional weights of timm's variants: present exactly when the config says so.
void expect_optional_vec(const std::string& key, const Vec& v, bool present, int64_t size) {
    expect_vec(key, v, present ? size : 0);
}

}  // namespace

namespace {

template <typename Span, typename M>
std::vector<Span> spans_of(M& m) {
    std::vector<Span> spans;
    auto mat = [&](auto& w) { spans.push_back({w.data(), w.size(), true}); };
    auto vec = [&](auto& v) { spans.push_back({v.data(), v.size(), false}); };
    mat(m.patch_w), vec(m.patch_b), vec(m.cls_token), vec(m.pos_embed);  // positions: not decayed
    vec(m.dist_token), vec(m.reg_token);
    vec(m.norm_pre_w), vec(m.norm_pre_b);  // empty without norm_pre
    for (auto& w : m.blocks) {
        vec(w.ln1_w), vec(w.ln1_b), mat(w.qkv_w), vec(w.qkv_b), mat(w.proj_w), vec(w.proj_b);
        vec(w.ln2_w), vec(w.ln2_b), mat(w.fc1_w), vec(w.fc1_b), mat(w.fc2_w), vec(w.fc2_b);
        vec(w.ls1), vec(w.ls2);  // empty without LayerScale
    }
    vec(m.norm_w), vec(m.norm_b), mat(m.head_w), vec(m.head_b);
    vec(m.fc_norm_w), vec(m.fc_norm_b), mat(m.head_dist_w), vec(m.head_dist_b);
    return spans;
}

}  // namespace

std::vector<WeightSpan> weight_spans(Model& m) { return spans_of<WeightSpan>(m); }
std::vector<ConstWeightSpan> weight_spans(const Model& m) { return spans_of<ConstWeightSpan>(m); }

Model zeros_like(const Model& model) {
    Model z = model;
    for (const WeightSpan& w : weight_spans(z)) std::fill(w.data, w.data + w.size, 0.0f);
    return z;
}

void validate_model_shapes(const Model& m) {
    const ModelConfig& c = m.config;
    if (c.embed_dim <= 0 || c.num_heads <= 0 || c.embed_dim % c.num_heads != 0)
        throw Error("model config: " + std::to_string(c.num_heads) + " heads do not divide the width " +
                    std::to_string(c.embed_dim));
    const int64_t D = c.embed_dim, M = c.mlp_dim, F = c.fc1_dim(), K = c.num_classes;
    expect_mat("patch_w", m.patch_w, D, c.patch_dim());
    expect_vec("patch_b", m.patch_b, D, true);
    validate_token_shapes(m);
    expect_optional_vec("norm_pre_w", m.norm_pre_w, c.norm_pre, D);
    expect_optional_vec("norm_pre_b", m.norm_pre_b, c.norm_pre, D);
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
        expect_mat(p + "fc1_w", w.fc1_w, F, D);
        expect_vec(p + "fc1_b", w.fc1_b, F, true);
        expect_mat(p + "fc2_w", w.fc2_w, D, M);
        expect_vec(p + "fc2_b", w.fc2_b, D, true);
        expect_optional_vec(p + "ls1.gamma", w.ls1, c.layer_scale, D);
        expect_optional_vec(p + "ls2.gamma", w.ls2, c.layer_scale, D);
    }
    if (K > 0) {
        expect_mat("head_w", m.head_w, K, c.pooled_dim());
        expect_vec("head_b", m.head_b, K, true);
    }
}

void check_model_input(const ModelConfig& c, const Tensor& input) {
    if (input.rank() != 3 || input.shape[0] != c.channels)
        throw Error("model input must be " + std::to_string(c.channels) + "×H×W, got " + shape_string(input.shape));
    if (input.shape[1] % c.patch_size != 0 || input.shape[2] % c.patch_size != 0 || input.shape[1] != input.shape[2])
        throw Error("model input " + shape_string(input.shape) + " is not a square multiple of the patch size " +
                    std::to_string(c.patch_size));
}

double forward_flops(const ModelConfig& c, int tokens) {
    const double T = tokens, N = tokens - 1, D = c.embed_dim, M = c.mlp_dim, F = c.fc1_dim();
    const double patch_embed = 2 * N * c.patch_dim() * D;
    const double per_block = 2 * T * D * 3 * D  // qkv
                             + 2 * T * T * D    // scores, all heads
                             + 2 * T * T * D    // attn · v
                             + 2 * T * D * D    // output projection
                             + 2 * T * D * F    // fc1
                             + 2 * T * M * D;   // fc2
    const double head = 2.0 * c.pooled_dim() * c.num_classes;
    return patch_embed + c.depth * per_block + head;
}

}  // namespace vit
