// Training (core/train/training.h) against PyTorch's fixtures (tests/make_training_fixture.py):
// three AdamW steps equal torch.optim.AdamW's, the batch-mean cross-entropy and
// its gradient equal F.cross_entropy's; a seed repeats its run; a few steps
// lower the loss; the held-out accuracy counted in pieces; the digit set's
// split and its errors; a saved checkpoint
// loads back; the CLI's --train errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

#include "base/assets.h"
#include "formats/checkpoint.h"
#include "explain/compare.h"
#include "train/digit_set.h"
#include "pass/forward.h"
#include "helpers_loaders.h"
#include "formats/model_writer.h"
#include "formats/npy.h"
#include "model/random_model.h"
#include "train/training.h"

namespace {

namespace fs = std::filesystem;

vit::Tensor fixture(const std::string& name) {
    return vit::read_npy((fs::path(VITVIZ_FIXTURES) / "training" / (name + ".npy")).string());
}

// The largest |a − b| over all weights.
double max_weight_difference(const vit::Model& a, const vit::Model& b) {
    const auto x = vit::weight_spans(a), y = vit::weight_spans(b);
    double most = 0.0;
    for (size_t w = 0; w < x.size(); ++w)
        for (int64_t i = 0; i < x[w].size; ++i) most = std::max(most, std::abs(double(x[w].data[i]) - y[w].data[i]));
    return most;
}

const vit::DigitSplit& shipped_digits() {
    static const vit::DigitSplit digits = vit::load_shipped_digits();
    return digits;
}

}  // namespace

TEST_CASE("three AdamW steps equal torch.optim.AdamW's, decay on the matrix only", "[training]") {
    vit::AdamWSettings settings;  // betas (0.9, 0.999), eps 1e-8 as the fixture
    for (const auto& [name, decay] : {std::pair<std::string, double>{"matrix", 0.05}, {"vector", 0.0}}) {
        vit::Tensor p = fixture("adamw_start_" + name);
        std::vector<float> m(p.data.size()), v(p.data.size());
        for (int step = 1; step <= 3; ++step) {
            const vit::Tensor g = fixture("adamw_grad" + std::to_string(step) + "_" + name);
            vit::adamw_update(p.data.data(), g.data.data(), m.data(), v.data(), p.numel(), 0.01, decay, settings, step);
        }
        const vit::Difference d = vit::compare(p, fixture("adamw_after_" + name));
        INFO(name << ": max relative difference " << d.relative());
        CHECK(d.relative() <= 1e-6);
    }
}

TEST_CASE("AdamW decays the model's matrices and nothing else", "[training]") {
    vit::Model model = vit::init_model(vit::digits_config(), 3);
    const vit::Model before = model;
    vit::AdamWSettings settings;
    settings.weight_decay = 0.5;
    vit::AdamW optimizer(model, settings);
    optimizer.step(model, vit::zeros_like(model), 0.1);  // no gradient: only the decay moves weights
    const float shrink = static_cast<float>(1.0 - 0.1 * 0.5);
    CHECK(model.blocks[2].fc1_w(3, 4) == before.blocks[2].fc1_w(3, 4) * shrink);
    CHECK(model.patch_w(1, 2) == before.patch_w(1, 2) * shrink);
    CHECK(model.pos_embed == before.pos_embed);
    CHECK(model.cls_token == before.cls_token);
    CHECK(model.blocks[0].ln1_w == before.blocks[0].ln1_w);
    CHECK(optimizer.steps() == 1);
}

TEST_CASE("the batch-mean cross-entropy and its gradient equal F.cross_entropy's", "[training]") {
    const vit::Tensor logits = fixture("ce_logits"), labels = fixture("ce_labels");
    const int batch = static_cast<int>(logits.shape[0]), classes = static_cast<int>(logits.shape[1]);
    vit::Tensor grad({batch, classes});
    double loss = 0.0;
    for (int i = 0; i < batch; ++i)
        loss += vit::cross_entropy(logits.data.data() + i * classes, classes, static_cast<int>(labels.data[i]),
                                   1.0f / batch, grad.data.data() + i * classes);
    const float want = fixture("ce_loss").data[0];
    INFO("loss " << loss / batch << ", PyTorch " << want);
    CHECK(std::abs(loss / batch - want) <= 1e-6 * std::abs(want));
    const vit::Difference d = vit::compare(grad, fixture("ce_grad"));
    INFO("gradient: max relative difference " << d.relative());
    CHECK(d.relative() <= 1e-6);
}

TEST_CASE("the schedule warms up linearly, then falls as a cosine to 0", "[training]") {
    CHECK(vit::scheduled_lr(1.0f, 0, 4, 14) == Approx(0.25f));
    CHECK(vit::scheduled_lr(1.0f, 3, 4, 14) == Approx(1.0f));
    CHECK(vit::scheduled_lr(1.0f, 9, 4, 14) == Approx(0.5f));
    CHECK(vit::scheduled_lr(1.0f, 14, 4, 14) == 0.0f);
}

TEST_CASE("the shipped digits split 80/20 per class as the digits model was trained", "[training]") {
    const vit::DigitSplit& d = shipped_digits();
    CHECK(d.train.size() == 7996);  // assets/digits/TRAINING.md
    CHECK(d.held_out.size() == 2004);
    CHECK(d.train.labels.front() == 0);
    CHECK(d.held_out.labels.back() == 9);
    const auto [lo, hi] = std::minmax_element(d.train.pixels.begin(), d.train.pixels.end());
    CHECK(*lo == 0.0f);
    CHECK(*hi == 1.0f);
}

TEST_CASE("a digit set that is not 28-pixel strips is one error naming the file", "[training]") {
    vit_test::TempDir dir;
    const fs::path shipped = vit::asset_path("digits/mnist");
    for (int d = 0; d < 10; ++d)
        fs::copy_file(shipped / (std::to_string(d) + ".png"), dir.path(std::to_string(d) + ".png"));
    fs::copy_file(fs::path(VITVIZ_FIXTURES) / "timm_f32" / "image.png", dir.path("3.png"),
                  fs::copy_options::overwrite_existing);
    CHECK_THROWS_WITH(vit::load_digit_split(dir.path("")), Catch::Contains("3.png: expected a strip of 28×28 digits"));
    vit_test::write_file(dir.path("3.png"), "not a png");
    CHECK_THROWS_WITH(vit::load_digit_split(dir.path("")), Catch::Contains("3.png"));
    fs::remove(dir.path("7.png"));
    CHECK_THROWS_WITH(vit::load_digit_split(dir.path("")), Catch::Contains("3.png"));
}

TEST_CASE("training repeats for a seed bit for bit, another seed differs", "[training]") {
    vit::TrainOptions options;
    options.batch = 16;
    options.warmup_epochs = 0;  // full steps from the start
    auto three_steps = [&](uint32_t seed) {
        options.seed = seed;
        vit::Trainer trainer(vit::init_model(vit::digits_config(), seed), shipped_digits(), options);
        for (int i = 0; i < 3; ++i) trainer.step();
        return trainer.model();
    };
    const vit::Model a = three_steps(1), b = three_steps(1), c = three_steps(2);
    const double same = max_weight_difference(a, b), other = max_weight_difference(a, c);
    const double moved = max_weight_difference(a, vit::init_model(vit::digits_config(), 1));
    INFO("same seed " << same << ", other seed " << other << ", moved " << moved);
    CHECK(same == 0.0);  // bit for bit (aligned Tensor storage, tensor.h)
    CHECK(other > 1e-2);
    CHECK(moved > 1e-3);
}

TEST_CASE("the held-out digits counted in pieces give the accuracy counted at once", "[training]") {
    vit::TrainOptions options;
    vit::Trainer trainer(vit::init_model(vit::digits_config(), 3), shipped_digits(), options);
    trainer.step();
    const int total = shipped_digits().held_out.size(), half = total / 2;
    const int correct = trainer.held_out_correct(0, half) + trainer.held_out_correct(half, total);
    CHECK(correct > 0);
    CHECK(static_cast<float>(correct) / total == trainer.held_out_accuracy());
}

TEST_CASE("a few steps on one small batch lower its loss", "[training]") {
    const vit::DigitSplit& d = shipped_digits();
    vit::Model model = vit::init_model(vit::digits_config(), 0);
    std::vector<vit::Tensor> inputs;
    std::vector<int> labels;
    for (int i = 0; i < 8; ++i) {
        const int k = i * 997 % d.train.size();
        vit::Tensor t({1, vit::kDigitSide, vit::kDigitSide});
        for (int p = 0; p < vit::kDigitPixels; ++p) t.data[p] = (d.train.image(k)[p] - 0.1307f) / 0.3081f;
        inputs.push_back(std::move(t));
        labels.push_back(d.train.labels[k]);
    }
    vit::AdamW optimizer(model, {});
    const float first = vit::train_step(model, optimizer, inputs, labels, 1e-3f);
    float last = first;
    for (int s = 0; s < 15; ++s) last = vit::train_step(model, optimizer, inputs, labels, 1e-3f);
    INFO("loss " << first << " → " << last);
    CHECK(first > 2.0f);  // ln 10 ≈ 2.30 from a random start
    CHECK(last < 0.5f * first);
}

TEST_CASE("a saved checkpoint loads back with the same weights and predictions", "[training]") {
    vit_test::TempDir dir;
    const vit::Model model = vit::init_model(vit::digits_config(), 5);
    vit::save_checkpoint(dir.path("out"), model);
    const vit::Model loaded = vit::load_checkpoint(dir.path("out"));
    CHECK(max_weight_difference(model, loaded) == 0.0);
    CHECK(loaded.config.labels == model.config.labels);
    CHECK(loaded.config.preprocess.mean == model.config.preprocess.mean);
    CHECK(loaded.config.pos_grid == 4);
    vit::Tensor input({1, 28, 28});
    for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>(i % 17) / 17.0f;
    CHECK(vit::compare(vit::forward(model, input).at({vit::StageKind::Logits}),
                       vit::forward(loaded, input).at({vit::StageKind::Logits}))
              .relative() <= 1e-6);
    CHECK_THROWS_WITH(vit::save_checkpoint("/proc/no/such", model), Catch::Contains("/proc/no/such"));
    CHECK_FALSE(loaded.config.random_weights);
}

TEST_CASE("a model of random weights is saved marked so, and loads back saying so", "[training]") {
    vit_test::TempDir dir;
    vit::Model model = vit::make_random_model(vit::digits_config(), 3);
    REQUIRE(model.config.random_weights);
    vit::save_checkpoint(dir.path("random"), model);
    CHECK(vit::load_checkpoint(dir.path("random")).config.random_weights);
    vit::AdamW optimizer(model, {});
    vit::Tensor input({1, 28, 28});
    vit::train_step(model, optimizer, {input}, {3}, 1e-3f);
    CHECK_FALSE(model.config.random_weights);  // trained: no longer random
    vit::save_checkpoint(dir.path("trained"), model);
    CHECK_FALSE(vit::load_checkpoint(dir.path("trained")).config.random_weights);
}

TEST_CASE("a step whose loss or gradients are not finite is refused and leaves the weights alone", "[training]") {
    vit::Model model = vit::init_model(vit::digits_config(), 0);
    std::vector<vit::Tensor> inputs(2, vit::Tensor({1, vit::kDigitSide, vit::kDigitSide}));
    inputs[1].data[3] = std::numeric_limits<float>::infinity();
    const vit::Model before = model;
    vit::AdamW optimizer(model, {});
    CHECK_THROWS_WITH(vit::train_step(model, optimizer, inputs, {1, 2}, 1e-3f),
                      Catch::StartsWith("training stopped at step 1: the loss is no longer finite (the learning rate "
                                        "0.001 is too large)"));
    CHECK(optimizer.steps() == 0);
    CHECK(max_weight_difference(model, before) == 0.0);
}

TEST_CASE("a checkpoint with a NaN weight is not saved", "[training]") {
    vit_test::TempDir dir;
    vit::Model model = vit::init_model(vit::digits_config(), 5);
    model.blocks[1].fc1_b[2] = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_WITH(vit::save_checkpoint(dir.path("out"), model),
                      Catch::Equals("nothing saved to '" + dir.path("out") +
                                    "': 1 of the 128 values of blocks.1.mlp.fc1.bias are NaN or infinite"));
    CHECK(!fs::exists(dir.path("out")));
}

TEST_CASE("the CLI's --train refuses bad values with one error and exit 1", "[training]") {
    if (!fs::exists(VITVIZ_CLI)) return;  // not built in this configuration
    vit_test::TempDir dir;
    const std::string cli = std::string(VITVIZ_CLI) + " --train ", out = " --out " + dir.path("out");
    const std::string quiet = " > " + dir.path("out.txt") + " 2> " + dir.path("err.txt");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"mnist" + out, "--train can only train 'digits'"},
        {"digits" + out + " --epochs 0", "--epochs: expected a whole number from 1 to 1000, got '0'"},
        {"digits" + out + " --batch -2", "--batch: expected a whole number from 1 to 4096"},
        {"digits" + out + " --lr 0", "--lr: expected a number above 0, got '0'"},
        {"digits" + out + " --lr fast", "--lr: expected a number above 0, got 'fast'"},
        {"digits" + out + " --epochs 2x", "--epochs: expected a whole number"},
        {"digits", "--train needs --out DIR"},
        {"digits --out /proc/no/such", "cannot write to the output folder '/proc/no/such'"},
        {"digits" + out + " --colour red", "unknown option '--colour'"},
        {"digits" + out + " --epochs 1 --lr 1e30", "training stopped at step 2: the loss is no longer finite"},
    };
    for (const auto& [args, expected] : cases) {
        INFO("vitviz-cli --train " << args);
        CHECK(vit_test::run_command(cli + args + quiet) == 1);
        CHECK_THAT(vit_test::read_file_text(dir.path("err.txt")), Catch::Contains(expected));
        CHECK(!fs::exists(dir.path("out/model.safetensors")));
    }
}
