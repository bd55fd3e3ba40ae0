// The backward pass equals PyTorch's autograd on the committed fixtures of
// tests/make_fixtures.py: the gradient of logit[top class] with respect to
// every stage and every parameter (timm names), and Chefer et al.'s relevance;
// timm and Hugging Face layouts, F16 without qkv bias, interpolated positions.
// Also a finite-difference check that needs no PyTorch, and the CLI's
// --grad / --relevance dumps and their errors.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "explain/backward.h"
#include "loading/load_model.h"
#include "explain/compare.h"
#include "pass/forward.h"
#include "helpers_loaders.h"
#include "formats/image.h"
#include "formats/npy.h"
#include "model/parameters.h"
#include "model/random_model.h"
#include "explain/relevance.h"

namespace {

namespace fs = std::filesystem;

// The largest relative difference over many tensors, and where.
struct Worst {
    std::string name;
    vit::Difference diff;
    void check(const std::string& fixture, const std::string& what, const vit::Tensor& got, const fs::path& npy) {
        const vit::Tensor want = vit::read_npy(npy.string());
        INFO(fixture << " " << what);
        REQUIRE(got.shape == want.shape);
        const vit::Difference e = vit::compare(got, want);
        INFO("largest difference " << e.max_abs << " (relative " << e.relative() << ") at "
                                   << vit::index_string(e.where) << ": got " << e.got << ", PyTorch " << e.want);
        CHECK(e.relative() <= 1e-4);
        if (e.relative() >= diff.relative()) diff = e, name = what;
    }
};

void check_gradients(const std::string& fixture) {
    const fs::path dir = fs::path(VITVIZ_FIXTURES) / fixture;
    const fs::path expected = dir / "expected";
    std::ifstream meta_file(expected / "meta.json");
    REQUIRE(meta_file);
    const nlohmann::json meta = nlohmann::json::parse(meta_file);

    const vit::Model model = vit::load_model(dir.string());
    const vit::Image image = vit::load_image((dir / "image.png").string(), model.config.channels);
    const vit::Tensor input = vit::preprocess(image, model.config.preprocess, meta.at("image_size").get<int>());
    const vit::Trace trace = vit::forward(model, input);
    const int cls = meta.at("grad_class").get<int>();
    const vit::Gradients grads = vit::logit_gradients(model, trace, cls);

    Worst stages, params;
    std::vector<std::string> ids;
    for (const vit::Stage& s : grads.stages.stages()) {
        ids.push_back(s.id);
        stages.check(fixture, "grad." + s.id, s.tensor, expected / ("grad." + s.id + ".npy"));
    }
    CHECK(ids == meta.at("grad_stages").get<std::vector<std::string>>());

    std::map<std::string, vit::Tensor> ours;
    for (vit::NamedTensor& p : vit::timm_parameters(grads.params)) ours[p.name] = std::move(p.tensor);
    for (const std::string& name : meta.at("grad_params").get<std::vector<std::string>>()) {
        INFO(fixture << ": no gradient for parameter " << name);
        REQUIRE(ours.count(name) == 1);
        params.check(fixture, "grad.param." + name, ours[name], expected / ("grad.param." + name + ".npy"));
        ours.erase(name);
    }
    // Left over: only the zero qkv bias the loader gives a checkpoint without one.
    for (const auto& extra : ours) CHECK(extra.first.find(".attn.qkv.bias") != std::string::npos);

    Worst rel;
    rel.check(fixture, "relevance", vit::relevance(trace, grads.stages, model.config.depth),
              expected / "relevance.npy");
    std::cout << "gradients " << fixture << " (logit " << cls << "): largest relative difference: stages "
              << stages.diff.relative() << " in " << stages.name << ", parameters " << params.diff.relative() << " in "
              << params.name << ", relevance " << rel.diff.relative() << "\n";
}

}  // namespace

TEST_CASE("every stage and parameter gradient equals autograd: timm naming, F32", "[backward]") {
    check_gradients("timm_f32");
}

TEST_CASE("every stage and parameter gradient equals autograd: Hugging Face naming, BF16", "[backward]") {
    check_gradients("hf_bf16");
}

TEST_CASE("every stage and parameter gradient equals autograd: F16 without qkv bias", "[backward]") {
    check_gradients("timm_f16_noqkvbias");
}

TEST_CASE("every stage and parameter gradient equals autograd: interpolated positional embedding", "[backward]") {
    check_gradients("timm_posinterp");
}

TEST_CASE("every stage and parameter gradient equals autograd: DINOv2's LayerScale", "[backward]") {
    check_gradients("timm_dinov2");
}

TEST_CASE("every stage and parameter gradient equals autograd: CLIP's norm_pre, exact GELU", "[backward]") {
    check_gradients("timm_clip");
}

TEST_CASE("every stage and parameter gradient equals autograd: CLIP's QuickGELU", "[backward]") {
    check_gradients("timm_clip_quickgelu");
}

TEST_CASE("every stage and parameter gradient equals autograd: DINOv2 ViT-g's SwiGLU", "[backward]") {
    check_gradients("timm_dinov2_swiglu");
}

TEST_CASE("a model without a head has no logit gradient, a class out of range is refused", "[backward]") {
    const vit::Model headless = vit::load_model((fs::path(VITVIZ_FIXTURES) / "headless").string());
    const vit::Tensor input({3, 32, 32});
    const vit::Trace trace = vit::forward(headless, input);
    CHECK_THROWS_WITH(vit::logit_gradients(headless, trace, 0), Catch::Contains("no classifier head"));

    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "timm_f32").string());
    const vit::Trace t = vit::forward(model, input);
    CHECK_THROWS_WITH(vit::logit_gradients(model, t, 10), Catch::Contains("has 10 classes (0..9)"));
    CHECK_THROWS_WITH(vit::logit_gradients(model, t, -1), Catch::Contains("out of range"));
}

TEST_CASE("parameter gradients match central finite differences (random model, interpolated positions)", "[backward]") {
    vit::ModelConfig c;
    c.name = "fd";
    c.channels = 2, c.patch_size = 2, c.embed_dim = 8, c.depth = 2, c.num_heads = 2, c.mlp_dim = 16;
    c.num_classes = 3, c.pos_grid = 2;
    vit::Model model = vit::make_random_model(c, 7);
    vit::Tensor input({2, 6, 6});  // a 3×3 grid: positions resampled from 2×2
    for (size_t i = 0; i < input.data.size(); ++i) input.data[i] = static_cast<float>((i * 37 % 23) / 11.0 - 1.0);
    const int cls = 1;
    const vit::Gradients grads = vit::logit_gradients(model, vit::forward(model, input), cls);

    auto logit = [&] { return static_cast<double>(vit::forward(model, input).at({vit::StageKind::Logits}).data[cls]); };
    struct Probe {
        const char* name;
        float* weight;
        float grad;
    };
    const Probe probes[] = {
        {"pos_embed[3, 5]", &model.pos_embed(3, 5), grads.params.pos_embed(3, 5)},
        {"patch_w[4, 6]", &model.patch_w(4, 6), grads.params.patch_w(4, 6)},
        {"blocks.0.qkv_w[2, 3] (a query row)", &model.blocks[0].qkv_w(2, 3), grads.params.blocks[0].qkv_w(2, 3)},
        {"blocks.0.qkv_w[9, 1] (a key row)", &model.blocks[0].qkv_w(9, 1), grads.params.blocks[0].qkv_w(9, 1)},
        {"blocks.1.ln1_w[0]", &model.blocks[1].ln1_w(0), grads.params.blocks[1].ln1_w(0)},
        {"blocks.1.fc1_b[5]", &model.blocks[1].fc1_b(5), grads.params.blocks[1].fc1_b(5)},
        {"cls_token[2]", &model.cls_token(2), grads.params.cls_token(2)},
        {"norm_w[4]", &model.norm_w(4), grads.params.norm_w(4)},
    };
    const float step = 1e-2f;
    for (const Probe& p : probes) {
        const float original = *p.weight;
        *p.weight = original + step;
        const double up = logit();
        *p.weight = original - step;
        const double down = logit();
        *p.weight = original;
        const double numeric = (up - down) / (2 * step);
        INFO(p.name << ": backward " << p.grad << ", finite difference " << numeric);
        CHECK(std::abs(p.grad - numeric) <= 2e-3 * std::max(1.0, std::abs(numeric)));
    }
}

TEST_CASE("backward_into sums a batch's weight gradients and rewrites each stage gradient whole", "[backward]") {
    const vit::Model model = vit::load_model((fs::path(VITVIZ_FIXTURES) / "timm_f32").string());
    vit::Tensor first({3, 32, 32}), second({3, 32, 32});
    for (size_t i = 0; i < first.data.size(); ++i) {
        first.data[i] = static_cast<float>((i * 37 % 23) / 11.0 - 1.0);
        second.data[i] = static_cast<float>((i * 53 % 19) / 9.0 - 1.0);
    }
    const vit::Trace first_trace = vit::forward(model, first), second_trace = vit::forward(model, second);
    vit::Tensor seed({model.config.num_classes});
    seed.data[1] = 1.0f;
    const vit::Gradients alone_first = vit::backward(model, first_trace, seed);
    const vit::Gradients alone_second = vit::backward(model, second_trace, seed);

    vit::Gradients batch;
    batch.params = vit::zeros_like(model);
    vit::backward_into(model, first_trace, seed, batch);
    vit::backward_into(model, second_trace, seed, batch);
    // The stages are the second sample's alone: nothing of the first is left in the reused storage.
    REQUIRE(batch.stages.stages().size() == alone_second.stages.stages().size());
    for (size_t i = 0; i < batch.stages.stages().size(); ++i) {
        INFO(batch.stages.stages()[i].id);
        CHECK(batch.stages.stages()[i].tensor.data == alone_second.stages.stages()[i].tensor.data);
    }
    // The weights' gradients are the sum of the two.
    const std::vector<vit::NamedTensor> sum = vit::timm_parameters(batch.params),
                                        a = vit::timm_parameters(alone_first.params),
                                        b = vit::timm_parameters(alone_second.params);
    REQUIRE(sum.size() == a.size());
    double worst = 0;
    for (size_t p = 0; p < sum.size(); ++p)
        for (size_t i = 0; i < sum[p].tensor.data.size(); ++i) {
            const double want = double(a[p].tensor.data[i]) + b[p].tensor.data[i];
            worst = std::max(worst, std::abs(sum[p].tensor.data[i] - want) / std::max(1.0, std::abs(want)));
        }
    std::cout << "backward_into: largest difference of a 2-sample sum from the two gradients added: " << worst << "\n";
    CHECK(worst <= 1e-6);
}

TEST_CASE("the CLI dumps every stage and parameter gradient and the relevance, named as in timm", "[backward]") {
    if (!fs::exists(VITVIZ_CLI)) return;  // not built in this configuration
    vit_test::TempDir dir;
    const fs::path fixture = fs::path(VITVIZ_FIXTURES) / "timm_f32";
    const std::string cli = std::string(VITVIZ_CLI) + " ", model = "--model " + fixture.string() + " --image " +
                                                                   (fixture / "image.png").string() + " --top 0";
    const std::string quiet = " > " + dir.path("out.txt") + " 2> " + dir.path("err.txt");
    REQUIRE(vit_test::run_command(cli + model + " --grad top --relevance top --dump " + dir.path("dump") + quiet) == 0);
    const vit::Tensor qkv = vit::read_npy(dir.path("dump/grad.param.blocks.0.attn.qkv.weight.npy"));
    CHECK(qkv.shape == std::vector<int64_t>{144, 48});
    CHECK(vit::read_npy(dir.path("dump/grad.param.patch_embed.proj.weight.npy")).shape ==
          std::vector<int64_t>{48, 3, 8, 8});
    CHECK(vit::read_npy(dir.path("dump/grad.block1.attn.npy")).shape == std::vector<int64_t>{3, 17, 17});
    CHECK(vit::read_npy(dir.path("dump/grad.input.npy")).shape == std::vector<int64_t>{3, 32, 32});
    CHECK(vit::read_npy(dir.path("dump/relevance.npy")).shape == std::vector<int64_t>{17, 17});
    CHECK_FALSE(fs::exists(dir.path("dump/grad.probs.npy")));
    // `top` is the fixture's top class: the same gradient as PyTorch's.
    CHECK(vit::compare(qkv, vit::read_npy((fixture / "expected/grad.param.blocks.0.attn.qkv.weight.npy").string()))
              .relative() <= 1e-4);

    const std::string headless = (fs::path(VITVIZ_FIXTURES) / "headless").string();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {model + " --grad 10 --dump " + dir.path("e"), "--grad needs 'top' or a class index 0..9"},
        {model + " --relevance cat --dump " + dir.path("e"), "--relevance needs 'top' or a class index"},
        {model + " --grad top", "give the folder with --dump DIR"},
        {"--model " + headless + " --image " + headless + "/image.png --grad 0 --dump " + dir.path("e"),
         "has no classifier head (num_classes 0)"},
    };
    for (const auto& [args, expected] : cases) {
        INFO("vitviz-cli " << args);
        CHECK(vit_test::run_command(cli + args + quiet) == 1);
        CHECK_THAT(vit_test::read_file_text(dir.path("err.txt")), Catch::Contains(expected));
    }
}
