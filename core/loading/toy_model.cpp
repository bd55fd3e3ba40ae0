// The built-in `toy-4x4` model, built from the toy notebook the project started from:
// its printed nn.Linear(4, 8) weight and bias are the patch projection, its
// zero positional embedding is ours, and the CLS token is zero too. The one
// encoder block (2 heads of 4, MLP 16) and the 3-class head have fixed
// weights from a smooth formula, so the numbers are the same on every machine.
#include "loading/toy_model.h"

#include <cmath>

#include "loading/builtin.h"

namespace vit {

namespace {

// Deterministic weights in [-scale, scale]: a fixed formula, no RNG.
Mat fixed_matrix(int rows, int cols, float phase, float scale) {
    Mat m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) m(r, c) = scale * std::sin(1.37f * r + 2.11f * c + phase);
    return m;
}

Vec fixed_vector(int size, float phase, float scale) { return fixed_matrix(size, 1, phase, scale).col(0); }

BlockWeights toy_block(int dim, int mlp) {
    BlockWeights w;
    w.ln1_w = Vec::Ones(dim);
    w.ln1_b = Vec::Zero(dim);
    w.qkv_w = fixed_matrix(3 * dim, dim, 0.3f, 0.6f);
    w.qkv_b = fixed_vector(3 * dim, 1.1f, 0.1f);
    w.proj_w = fixed_matrix(dim, dim, 0.7f, 0.5f);
    w.proj_b = fixed_vector(dim, 1.9f, 0.1f);
    w.ln2_w = Vec::Ones(dim);
    w.ln2_b = Vec::Zero(dim);
    w.fc1_w = fixed_matrix(mlp, dim, 2.3f, 0.5f);
    w.fc1_b = fixed_vector(mlp, 0.4f, 0.1f);
    w.fc2_w = fixed_matrix(dim, mlp, 1.3f, 0.3f);
    w.fc2_b = fixed_vector(dim, 2.9f, 0.1f);
    return w;
}

}  // namespace

Model make_toy_model() {
    Model m;
    ModelConfig& c = m.config;
    c.name = kToyModel;
    c.channels = 1;
    c.patch_size = 2;
    c.embed_dim = 8;
    c.depth = 1;
    c.num_heads = 2;
    c.mlp_dim = 16;
    c.num_classes = 3;
    c.pos_grid = 2;
    c.ln_eps = 1e-6f;
    c.preprocess.image_size = 4;
    c.preprocess.crop_pct = 1.0f;
    c.preprocess.interpolation = "bilinear";
    c.preprocess.mean = {0.0f};
    c.preprocess.std = {1.0f};
    c.labels = {"class 0", "class 1", "class 2"};

    // The toy notebook: print(linear.weight) and print(linear.bias) of nn.Linear(4, 8).
    m.patch_w.resize(8, 4);
    m.patch_w << -0.0786f, 0.0531f, -0.0895f, -0.3645f,  //
        -0.0107f, -0.4378f, -0.0383f, -0.2474f,          //
        0.4826f, 0.4910f, 0.1220f, 0.4997f,              //
        0.3217f, -0.4536f, 0.2054f, -0.2951f,            //
        0.3103f, 0.0790f, -0.4601f, 0.3250f,             //
        0.1173f, 0.1120f, -0.4532f, -0.0544f,            //
        -0.4349f, -0.1241f, 0.3976f, 0.2434f,            //
        0.4765f, -0.1958f, 0.4708f, -0.4802f;
    m.patch_b.resize(8);
    m.patch_b << -0.2175f, 0.0424f, -0.4613f, -0.1339f, 0.4123f, -0.3515f, 0.4091f, 0.4758f;

    m.cls_token = Vec::Zero(c.embed_dim);
    m.pos_embed = Mat::Zero(1 + c.pos_grid * c.pos_grid, c.embed_dim);  // nn.Parameter(torch.zeros(4, 8))
    m.blocks.push_back(toy_block(c.embed_dim, c.mlp_dim));
    m.norm_w = Vec::Ones(c.embed_dim);
    m.norm_b = Vec::Zero(c.embed_dim);
    m.head_w = fixed_matrix(c.num_classes, c.embed_dim, 0.9f, 0.8f);
    m.head_b = Vec::Zero(c.num_classes);
    return m;
}

Image toy_image() {
    Image img;
    img.channels = 1;
    img.height = img.width = 4;
    for (int i = 0; i < 16; ++i) img.data.push_back(static_cast<float>(i));  // torch.arange(16).reshape(4, 4)
    return img;
}

}  // namespace vit
