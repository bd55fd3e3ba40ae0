// Claims about the forward pass that need no PyTorch: the toy notebook's
// printed numbers, patch embedding as a convolution, softmax rows, rollout,
// positional-embedding interpolation, the stage catalogue, and the pass walked
// a piece at a time (ForwardWalk).
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "base/error.h"
#include "pass/forward.h"
#include "formats/image.h"
#include "model/random_model.h"
#include "pass/rollout.h"
#include "loading/toy_model.h"
#include "tensor/threads.h"

namespace {

vit::Tensor random_input(int channels, int size, uint32_t seed) {
    vit::Tensor t({channels, size, size});
    uint32_t state = seed;
    for (float& x : t.data) {
        state = state * 1664525u + 1013904223u;
        x = static_cast<float>(state >> 8) / static_cast<float>(1 << 24) * 2.0f - 1.0f;
    }
    return t;
}

vit::ModelConfig small_config() {
    vit::ModelConfig c;
    c.name = "small";
    c.channels = 3;
    c.patch_size = 4;
    c.embed_dim = 24;
    c.num_heads = 3;
    c.mlp_dim = 40;
    c.depth = 3;
    c.num_classes = 7;
    c.pos_grid = 3;
    return c;
}

}  // namespace

TEST_CASE("the toy model reproduces the notebook's patches and embeddings", "[toy]") {
    const vit::Model model = vit::make_toy_model();
    const vit::Trace trace = vit::forward(model, vit::preprocess(vit::toy_image(), model.config.preprocess));

    // The toy notebook: patches = img.unfold(0,2,2).unfold(1,2,2).contiguous().view(-1, 4)
    const float patches[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};
    const vit::Tensor& p = trace.at("patches");
    REQUIRE(p.shape == std::vector<int64_t>{4, 4});
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) CHECK(p.mat()(r, c) == patches[r][c]);

    // The toy notebook: embedded = linear(patches), printed to 4 decimals from 4-decimal weights.
    // The print alone is ±5e-5; the sums reach 19, and float32's order of summation
    // (the bias first or last) moves the largest difference across 5e-4.
    const float embedded[4][8] = {{-2.3452f, -1.7857f, 3.0163f, -1.2413f, 0.2759f, -2.3244f, 3.0924f, -0.2377f},
                                  {-3.3043f, -3.2541f, 6.2068f, -1.6844f, 0.7843f, -2.8811f, 3.2565f, 0.3049f},
                                  {-6.1814f, -7.6593f, 15.7786f, -3.0138f, 2.3094f, -4.5511f, 3.7487f, 1.9329f},
                                  {-7.1404f, -9.1278f, 18.9691f, -3.4569f, 2.8178f, -5.1077f, 3.9128f, 2.4755f}};
    const vit::Tensor& e = trace.at("patch_embed");
    REQUIRE(e.shape == std::vector<int64_t>{4, 8});
    float max_diff = 0;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 8; ++c) max_diff = std::max(max_diff, std::abs(e.mat()(r, c) - embedded[r][c]));
    INFO("largest difference from the notebook: " << max_diff);
    CHECK(max_diff <= 1e-3f);

    // Zero CLS token and zero positional embedding: tokens = [0; embedded].
    CHECK(trace.at("tokens").mat().row(0).isZero());
    CHECK(trace.at("tokens").mat().bottomRows(4).isApprox(e.mat()));
}

TEST_CASE("every stage of the catalogue is produced, in order, with its shape", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 1);
    const vit::Trace trace = vit::forward(model, random_input(3, 12, 2));
    const std::vector<std::string> ids = vit::stage_ids(3, true);
    REQUIRE(trace.size() == ids.size());
    for (size_t i = 0; i < ids.size(); ++i) CHECK(trace.stages()[i].id == ids[i]);
    CHECK(trace.at("block2.q").shape == std::vector<int64_t>{3, 10, 8});
    CHECK(trace.at("block1.attn").shape == std::vector<int64_t>{3, 10, 10});
    CHECK(trace.at("block0.gelu").shape == std::vector<int64_t>{10, 40});
    CHECK(trace.at("probs").shape == std::vector<int64_t>{7});
    CHECK(trace.at("rollout").shape == std::vector<int64_t>{10, 10});
    CHECK(trace.find("block2.out")->block == 2);
}

TEST_CASE("patch embedding equals the stride-P convolution", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 3);
    const vit::Tensor input = random_input(3, 12, 4);
    const vit::Trace trace = vit::forward(model, input);
    const vit::Tensor& embed = trace.at("patch_embed");
    const int P = 4, grid = 3, D = 24;
    float max_diff = 0;
    for (int d = 0; d < D; ++d)
        for (int gy = 0; gy < grid; ++gy)
            for (int gx = 0; gx < grid; ++gx) {
                double sum = model.patch_b(d);  // Conv2d(3, D, kernel_size=P, stride=P), weight (D, C, P, P)
                for (int c = 0; c < 3; ++c)
                    for (int y = 0; y < P; ++y)
                        for (int x = 0; x < P; ++x)
                            sum += double(model.patch_w(d, (c * P + y) * P + x)) *
                                   input.data[(c * 12 + gy * P + y) * 12 + gx * P + x];
                max_diff = std::max(max_diff, std::abs(float(sum) - embed.mat()(gy * grid + gx, d)));
            }
    INFO("largest difference from the convolution: " << max_diff);
    CHECK(max_diff < 1e-5f);
}

TEST_CASE("every row of every attention matrix sums to 1", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 5);
    const vit::Trace trace = vit::forward(model, random_input(3, 12, 6));
    for (int b = 0; b < 3; ++b) {
        const vit::Tensor& attn = trace.at(("block" + std::to_string(b) + ".attn"));
        const Eigen::VectorXf sums = attn.mat().rowwise().sum();
        INFO("block " << b << ": largest |row sum - 1| = " << (sums.array() - 1.0f).abs().maxCoeff());
        CHECK((sums.array() - 1.0f).abs().maxCoeff() < 1e-6f);
        CHECK(attn.mat().minCoeff() >= 0.0f);
    }
}

// The rollout by its definition, in double: per block the head mean plus I, rows
// renormalised, multiplied from the first block on (attns: H×T×T each).
static std::vector<double> rollout_by_definition(const std::vector<const vit::Tensor*>& attns) {
    const int64_t H = attns.front()->shape[0], T = attns.front()->shape[1];
    std::vector<double> rollout;
    for (const vit::Tensor* attn : attns) {
        std::vector<double> a(T * T);
        for (int64_t i = 0; i < T; ++i) {
            double row_sum = 0;
            for (int64_t j = 0; j < T; ++j) {
                double mean = 0;
                for (int64_t h = 0; h < H; ++h) mean += attn->data[(h * T + i) * T + j];
                a[i * T + j] = mean / H + (i == j ? 1.0 : 0.0);
                row_sum += a[i * T + j];
            }
            for (int64_t j = 0; j < T; ++j) a[i * T + j] /= row_sum;
        }
        if (rollout.empty()) {
            rollout = a;
            continue;
        }
        std::vector<double> next(T * T, 0.0);
        for (int64_t i = 0; i < T; ++i)
            for (int64_t k = 0; k < T; ++k)
                for (int64_t j = 0; j < T; ++j) next[i * T + j] += a[i * T + k] * rollout[k * T + j];
        rollout = next;
    }
    return rollout;
}

static double largest_difference(const std::vector<double>& want, const vit::Tensor& got) {
    double max_diff = 0;
    for (size_t i = 0; i < want.size(); ++i) max_diff = std::max(max_diff, std::abs(want[i] - got.data[i]));
    return max_diff;
}

TEST_CASE("rollout is the product of head-averaged, residual-added, renormalised attention", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 7);
    const vit::Trace trace = vit::forward(model, random_input(3, 12, 8));
    std::vector<const vit::Tensor*> attns;
    for (int b = 0; b < 3; ++b) attns.push_back(&trace.at(("block" + std::to_string(b) + ".attn")));
    const double max_diff = largest_difference(rollout_by_definition(attns), trace.at("rollout"));
    INFO("largest difference from the definition: " << max_diff);
    CHECK(max_diff < 1e-6);
}

TEST_CASE("the rollout of ViT-B's 197 tokens, its rows split over the threads, is the definition's", "[forward]") {
    const int64_t H = 3, T = 197;
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> weight(0.0f, 1.0f);
    std::vector<vit::Tensor> blocks(4, vit::Tensor({H, T, T}));
    for (vit::Tensor& attn : blocks)
        for (int64_t row = 0; row < H * T; ++row) {  // rows of positive weights summing to 1, as softmax gives
            float* r = attn.data.data() + row * T;
            float sum = 0;
            for (int64_t j = 0; j < T; ++j) sum += r[j] = weight(rng);
            for (int64_t j = 0; j < T; ++j) r[j] /= sum;
        }
    std::vector<const vit::Tensor*> attns;
    for (const vit::Tensor& attn : blocks) attns.push_back(&attn);
    vit::Tensor got({T, T});
    vit::attention_rollout(attns, got);
    const double max_diff = largest_difference(rollout_by_definition(attns), got);
    INFO("threads " << vit::machine_threads() << ", largest difference from the definition: " << max_diff);
    CHECK(max_diff < 1e-6);
}

TEST_CASE("a larger input interpolates the positional embedding and keeps the CLS row", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 9);     // trained grid 3×3
    const vit::Trace trace = vit::forward(model, random_input(3, 20, 10));  // grid 5×5
    const vit::Tensor& tokens = trace.at("tokens");
    REQUIRE(tokens.shape == std::vector<int64_t>{26, 24});
    const vit::Mat cls_row = tokens.mat().row(0) - trace.at("cls").mat().row(0);
    CHECK(cls_row.isApprox(model.pos_embed.row(0)));
    // The centre of a 5×5 grid resampled from 3×3 sits on the old centre.
    const vit::Mat centre = tokens.mat().row(1 + 12) - trace.at("cls").mat().row(1 + 12);
    CHECK(centre.isApprox(model.pos_embed.row(1 + 4), 1e-5f));
}

// Not bit for bit: Eigen's vectorised reductions peel by the address alignment
// of each allocation, so sums are taken in a different order.
TEST_CASE("a reused trace gives the same numbers as a fresh one", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 11);
    const vit::Tensor input = random_input(3, 12, 12);
    vit::Trace reused = vit::forward(model, random_input(3, 16, 13));
    vit::forward_into(model, input, reused);
    // forward_into leaves the rollout out (the old pass's with it) until it is asked for.
    CHECK(reused.find(vit::StageRef{vit::StageKind::Rollout}) == nullptr);
    CHECK(vit::add_rollout(reused).shape == std::vector<int64_t>{10, 10});
    const vit::Trace fresh = vit::forward(model, input);
    REQUIRE(reused.size() == fresh.size());
    for (size_t i = 0; i < fresh.size(); ++i) {
        INFO("stage " << fresh.stages()[i].id);
        CHECK(reused.stages()[i].id == fresh.stages()[i].id);
        REQUIRE(reused.stages()[i].tensor.shape == fresh.stages()[i].tensor.shape);
        CHECK(reused.stages()[i].tensor.mat().isApprox(fresh.stages()[i].tensor.mat(), 1e-5f));
    }
}

TEST_CASE("a pass with the weights packed beforehand is the same pass, stage for stage", "[forward]") {
    // ViT-Ti's layers span several panels and, in fc2, two blocks of depth;
    // the small model's are narrower than one panel.
    for (const vit::ModelConfig& config : {small_config(), vit::vit_tiny_config()}) {
        const vit::Model model = vit::make_random_model(config, 5);
        const vit::Tensor input = random_input(3, config.pos_grid * config.patch_size, 21);
        vit::Trace packed_pass, plain_pass;
        const vit::PackedWeights packed(model);
        vit::forward_into(model, input, packed_pass, {}, &packed);
        vit::forward_into(model, input, plain_pass);
        REQUIRE(packed_pass.size() == plain_pass.size());
        for (size_t i = 0; i < plain_pass.size(); ++i) {
            INFO(config.name << " stage " << plain_pass.stages()[i].id);
            CHECK(packed_pass.stages()[i].tensor.data == plain_pass.stages()[i].tensor.data);
        }
        vit::LeanPass lean;
        CHECK(lean.probs(model, input, {}, false, &packed).data ==
              plain_pass.at(vit::StageRef{vit::StageKind::Probs}).data);
    }
    // Packed from another model's weights: refused, not silently used.
    const vit::Model model = vit::make_random_model(small_config(), 5);
    const vit::PackedWeights others(vit::make_random_model(small_config(), 6));
    vit::Trace trace;
    CHECK_THROWS_AS(vit::forward_into(model, random_input(3, 12, 1), trace, {}, &others), vit::Error);
}

TEST_CASE("the pass walked a piece at a time is forward() bit for bit, a block a piece", "[forward]") {
    const vit::Model model = vit::make_random_model(small_config(), 8);
    const vit::Tensor input = random_input(3, 12, 4);
    vit::Interventions iv;
    iv.mask_patches = {2};
    iv.temperature = 0.5f;
    vit::ForwardWalk walk(model, input, iv);
    int pieces = 1;
    while (walk.step()) ++pieces;
    CHECK(pieces == model.config.depth + 3);  // the embedding, each block, the head, the rollout
    CHECK_FALSE(walk.step());
    const vit::Trace walked = walk.take(), whole = vit::forward(model, input, iv);
    REQUIRE(walked.size() == whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
        INFO("stage " << whole.stages()[i].id);
        CHECK(walked.stages()[i].id == whole.stages()[i].id);
        CHECK(walked.stages()[i].tensor.data == whole.stages()[i].tensor.data);
    }
    CHECK(walked.token_patches() == whole.token_patches());
}

TEST_CASE("a weight whose shape is not the config's, or an input of the wrong size, is an error naming it",
          "[forward]") {
    vit::Model model = vit::make_random_model(small_config(), 3);
    const vit::Tensor input = random_input(3, 12, 4);
    REQUIRE_NOTHROW(vit::forward(model, input));
    try {
        vit::forward(model, random_input(3, 13, 4));
        FAIL("an input that is not a multiple of the patch size ran");
    } catch (const vit::Error& e) {
        CHECK(std::string(e.what()).find("patch size 4") != std::string::npos);
    }
    model.blocks[1].fc1_w.resize(39, 24);
    try {
        vit::forward(model, input);
        FAIL("a model with a wrong weight shape ran");
    } catch (const vit::Error& e) {
        CHECK(std::string(e.what()) == "model weight 'blocks.1.fc1_w' has shape (39, 24), expected (40, 24)");
    }
}
