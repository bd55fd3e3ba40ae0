// Random-weight ViTs (see random_model.h). Weight scales are chosen so that
// attention is far from uniform and activations stay O(1) through the blocks.
#include "model/random_model.h"

#include <cmath>
#include <random>

namespace vit {

namespace {

class WeightSource {
public:
    explicit WeightSource(uint32_t seed) : rng_(seed) {}
    Mat matrix(int rows, int cols, float scale) {
        Mat m(rows, cols);
        for (float& x : m.reshaped()) x = scale * normal_(rng_);
        return m;
    }
    Vec vector(int size, float scale, float mean = 0.0f) {
        Vec v(size);
        for (float& x : v) x = mean + scale * normal_(rng_);
        return v;
    }

private:
    std::mt19937 rng_;
    std::normal_distribution<float> normal_{0.0f, 1.0f};
};

ModelConfig standard_vit(const char* name, int dim, int heads) {
    ModelConfig c;
    c.name = name;
    c.embed_dim = dim;
    c.num_heads = heads;
    c.mlp_dim = 4 * dim;
    c.depth = 12;
    c.patch_size = 16;
    c.pos_grid = 14;
    c.num_classes = 1000;
    for (int i = 0; i < c.num_classes; ++i) c.labels.push_back("class " + std::to_string(i));
    return c;
}

}  // namespace

ModelConfig vit_tiny_config() { return standard_vit("vit_tiny_patch16_224 (random weights)", 192, 3); }

ModelConfig vit_base_config() { return standard_vit("vit_base_patch16_224 (random weights)", 768, 12); }

ModelConfig vit_small_reg4_config() {
    ModelConfig c = standard_vit("vit_small_patch14_reg4_dinov2 (random weights)", 384, 6);
    c.patch_size = 14;
    c.pos_grid = 16;
    c.preprocess.image_size = 224;
    c.preprocess.crop_pct = 1.0f;  // timm's lvd142m pretrained_cfg
    c.reg_tokens = 4;
    c.pos_on_prefix = false;  // timm no_embed_class
    c.layer_scale = true;     // timm init_values=1e-5: ls1/ls2 scale each branch
    c.num_classes = 0;        // DINOv2 is self-supervised: features, no classifier
    c.labels.clear();
    return c;
}

ModelConfig deit_small_distilled_config() {
    ModelConfig c = standard_vit("deit_small_distilled_patch16_224 (random weights)", 384, 6);
    c.dist_token = true;
    return c;
}

ModelConfig vit_medium_gap_config() {
    ModelConfig c = standard_vit("vit_medium_patch16_gap_256 (random weights)", 512, 8);
    c.pos_grid = 16;
    c.preprocess.image_size = 256;
    c.preprocess.crop_pct = 0.95f;  // timm's sw_in12k_ft_in1k pretrained_cfg
    c.class_token = false;
    c.global_pool = GlobalPool::Avg;
    c.layer_scale = true;  // timm init_values=1e-6
    return c;
}

ModelConfig vit_base_clip_config() {
    ModelConfig c = standard_vit("vit_base_patch16_clip_224 (random weights)", 768, 12);
    c.norm_pre = true;  // timm pre_norm=True: a LayerNorm before the blocks, no patch-embedding bias
    c.ln_eps = 1e-5f;   // nn.LayerNorm's default eps
    c.num_classes = 0;  // the image tower: features, no classifier
    c.labels.clear();
    c.preprocess.mean = {0.48145466f, 0.4578275f, 0.40821073f};  // OPENAI_CLIP_MEAN, STD
    c.preprocess.std = {0.26862954f, 0.26130258f, 0.27577711f};
    return c;
}

Model make_random_model(const ModelConfig& config, uint32_t seed, bool qkv_bias) {
    const ModelConfig& c = config;
    const int D = c.embed_dim, M = c.mlp_dim, F = c.fc1_dim();
    const float in_scale = 1.0f / std::sqrt(static_cast<float>(D));
    WeightSource w(seed);
    Model m;
    m.config = c;
    m.config.random_weights = true;
    if (static_cast<int>(m.config.labels.size()) != c.num_classes) {
        m.config.labels.clear();
        for (int i = 0; i < c.num_classes; ++i) m.config.labels.push_back("class " + std::to_string(i));
    }
    m.patch_w = w.matrix(D, c.patch_dim(), 1.0f / std::sqrt(static_cast<float>(c.patch_dim())));
    if (!c.norm_pre) m.patch_b = w.vector(D, 0.1f);
    if (c.class_token) m.cls_token = w.vector(D, 0.5f);
    m.pos_embed = w.matrix(c.pos_prefix() + c.pos_grid * c.pos_grid, D, 0.5f);
    for (int b = 0; b < c.depth; ++b) {
        BlockWeights bw;
        bw.ln1_w = w.vector(D, 0.1f, 1.0f);
        bw.ln1_b = w.vector(D, 0.1f);
        bw.qkv_w = w.matrix(3 * D, D, 2.0f * in_scale);
        if (qkv_bias) bw.qkv_b = w.vector(3 * D, 0.1f);
        bw.proj_w = w.matrix(D, D, in_scale);
        bw.proj_b = w.vector(D, 0.1f);
        bw.ln2_w = w.vector(D, 0.1f, 1.0f);
        bw.ln2_b = w.vector(D, 0.1f);
        bw.fc1_w = w.matrix(F, D, in_scale);
        bw.fc1_b = w.vector(F, 0.1f);
        bw.fc2_w = w.matrix(D, M, 1.0f / std::sqrt(static_cast<float>(M)));
        bw.fc2_b = w.vector(D, 0.1f);
        m.blocks.push_back(std::move(bw));
    }
    Vec& norm_w = c.fc_norm ? m.fc_norm_w : m.norm_w;  // fc_norm: the final norm is an identity
    Vec& norm_b = c.fc_norm ? m.fc_norm_b : m.norm_b;
    norm_w = w.vector(D, 0.1f, 1.0f);
    norm_b = w.vector(D, 0.1f);
    m.head_w = w.matrix(c.num_classes, D, in_scale);
    m.head_b = w.vector(c.num_classes, 0.1f);
    // The other prefix tokens after every plain weight, so vit-b-random's numbers stay as they were.
    if (c.dist_token) m.dist_token = w.vector(D, 0.5f);
    if (c.reg_tokens > 0) m.reg_token = w.matrix(c.reg_tokens, D, 0.5f);
    if (c.dist_token) {
        m.head_dist_w = w.matrix(c.num_classes, D, in_scale);
        m.head_dist_b = w.vector(c.num_classes, 0.1f);
    }
    if (c.norm_pre) m.norm_pre_w = w.vector(D, 0.1f, 1.0f), m.norm_pre_b = w.vector(D, 0.1f);
    for (BlockWeights& bw : m.blocks)
        if (c.layer_scale)
            bw.ls1 = w.vector(D, 0.1f, 0.3f), bw.ls2 = w.vector(D, 0.1f, 0.3f);  // learned scales below 1
    return m;
}

}  // namespace vit
