// Bad checkpoints and configs: each is refused with one clear message naming
// the file and the problem (and, for tensors, the key and both shapes); the
// CLI prints that message as one line on stderr and exits non-zero.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "formats/checkpoint.h"
#include "model/config.h"
#include "base/error.h"
#include "helpers_loaders.h"

using namespace vit_test;
using Catch::Matchers::Contains;

TEST_CASE("a checkpoint path that does not exist is refused with its name") {
    CHECK(checkpoint_error("foo") == "cannot open 'foo': no such file or directory");
    CHECK_THAT(checkpoint_error("/nonexistent/model.safetensors"),
               Contains("cannot open '/nonexistent/model.safetensors': no such file or directory"));
}

TEST_CASE("a folder without a .safetensors file is refused with the folder's name") {
    TempDir dir;
    CHECK_THAT(checkpoint_error(dir.path()), Contains(dir.path() + ": no .safetensors file"));
}

TEST_CASE("a folder with several .safetensors files prefers model.safetensors") {
    TempDir dir;
    write_checkpoint(dir.path(), tiny_timm_tensors());
    write_file(dir.path("a_broken.safetensors"), "garbage");
    CHECK(vit::load_checkpoint(dir.path()).config.embed_dim == 8);
}

TEST_CASE("a tensor whose shape disagrees with the config is refused naming the key, both shapes and the config") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    tensor_named(tensors, "blocks.0.mlp.fc1.weight").shape = {8, 16};  // same bytes, transposed
    CHECK_THAT(checkpoint_error_of(dir, tensors, tiny_timm_config()),
               Contains(dir.path("model.safetensors") +
                        ": tensor 'blocks.0.mlp.fc1.weight' has shape (8, 16), expected (16, 8)") &&
                   Contains("config.json says mlp_ratio 2, so mlp_dim 16"));
}

TEST_CASE("a config whose width disagrees with the weights is refused naming both") {
    TempDir dir;
    std::string config = tiny_timm_config();
    config.replace(config.find("\"embed_dim\": 8"), 14, "\"embed_dim\": 16");
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), config),
               Contains("tensor 'cls_token' has shape (1, 1, 8), expected (1, 1, 16)") &&
                   Contains("config.json says embed_dim 16"));
}

TEST_CASE("a config with more blocks than the weights names the first missing tensor and the config") {
    TempDir dir;
    std::string config = tiny_timm_config();
    config.replace(config.find("\"depth\": 2"), 10, "\"depth\": 3");
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), config),
               Contains("missing tensor 'blocks.2.norm1.weight' (config.json says depth 3)"));
}

TEST_CASE("weights with more blocks than the config says are refused") {
    TempDir dir;
    std::string config = tiny_timm_config();
    config.replace(config.find("\"depth\": 2"), 10, "\"depth\": 1");
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), config),
               Contains("has 'blocks.1.") && Contains("config.json says depth 1"));
}

TEST_CASE("a missing tensor is refused naming its key") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    erase_tensor(tensors, "blocks.1.attn.proj.bias");
    CHECK_THAT(checkpoint_error_of(dir, tensors),
               Contains(dir.path("model.safetensors") + ": missing tensor 'blocks.1.attn.proj.bias'"));
    std::vector<FakeTensor> hf = tiny_hf_tensors();
    erase_tensor(hf, "vit.encoder.layer.0.attention.attention.key.weight");
    CHECK_THAT(checkpoint_error_of(dir, hf),
               Contains("missing tensor 'vit.encoder.layer.0.attention.attention.key.weight'"));
}

TEST_CASE("a config that promises a classifier the weights lack is refused") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    erase_tensor(tensors, "head.weight");
    erase_tensor(tensors, "head.bias");
    CHECK_THAT(checkpoint_error_of(dir, tensors, tiny_timm_config()),
               Contains("missing tensor 'head.weight' (config.json says num_classes 3)"));
}

TEST_CASE("weights without a CLS token are refused as not a ViT") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    erase_tensor(tensors, "cls_token");
    CHECK_THAT(checkpoint_error_of(dir, tensors),
               Contains("no tensor 'cls_token'") && Contains("not a ViT checkpoint"));
}

TEST_CASE("a positional embedding that is not a square grid is refused") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    FakeTensor& pos = tensor_named(tensors, "pos_embed");
    pos.shape = {1, 4, 8};
    pos.values.resize(32);
    CHECK_THAT(checkpoint_error_of(dir, tensors), Contains("tensor 'pos_embed' has shape (1, 4, 8)") &&
                                                      Contains("3 rows after the CLS row are not a square grid"));
}

TEST_CASE("heads that do not divide the width are refused naming both and where they came from") {
    TempDir dir;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), tiny_timm_config({}, 3)),
               Contains(dir.path("config.json") + ": num_heads 3 does not divide embed_dim 8") &&
                   Contains("config.json says num_heads 3"));
    // timm's "small" variant has 6 heads, which cannot split a width of 8.
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"architecture": "vit_small_patch2_4"})"),
               Contains("num_heads 6 does not divide embed_dim 8") && Contains("architecture 'vit_small_patch2_4'"));
}

TEST_CASE("an image size read from the architecture name is bounded like a stated one (found by fuzz_config)") {
    TempDir dir;
    CHECK_THAT(
        checkpoint_error_of(dir, tiny_timm_tensors(), R"({"architecture": "vit_tiny_patch2_8193"})"),
        Contains(
            "architecture 'vit_tiny_patch2_8193' says an image size of 8193, more than the largest supported (8192)"));
    // The fuzzer's own input, through the parser alone.
    const std::string found =
        R"({"architecture": "vit_all_patch1__tiny__huge___________0__ge__8193_________0____)"
        R"(________0________c_________0_______cuash",
           "cccccccccccc3ned_cfg": {"crop_m": [2, 28, 28]}})";
    CHECK_THROWS_WITH(vit::parse_config(reinterpret_cast<const uint8_t*>(found.data()), found.size(), "config.json"),
                      Contains("says an image size of 8193"));
}

TEST_CASE("a config that is not valid JSON is refused with the file name and the parser's position") {
    TempDir dir;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), "{\"architecture\": \"vit\",\n \"num_classes\": }"),
               Contains(dir.path("config.json") + ": invalid JSON: parse error at line 2"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), "[1, 2]"),
               Contains("config.json: expected a JSON object"));
}

TEST_CASE("config values of the wrong kind are refused naming the key and the value") {
    TempDir dir;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"model_args": {"depth": "two"}})"),
               Contains("config.json: 'depth' must be an integer in [1, 16777216], got \"two\""));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"model_args": {"img_size": [4, 6]}})"),
               Contains("'img_size' must be a square size"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"pretrained_cfg": {"interpolation": "lanczos"}})"),
               Contains("'interpolation' must be \"bicubic\" or \"bilinear\", got \"lanczos\""));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(),
                                   R"({"pretrained_cfg": {"mean": [0.5, 0.5, 0.5], "std": [0.5, 0, 0.5]}})"),
               Contains("'std' must be non-zero"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"pretrained_cfg": {"mean": [0.5], "std": [0.5]}})"),
               Contains("mean and std have 1 values but the model has 3 channels"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), R"({"model_type": "vit", "id2label": {"zero": "cat"}})"),
               Contains("'id2label' must be an object with class indices as keys"));
}

TEST_CASE("a corrupt weights file inside a checkpoint folder is refused with its path") {
    TempDir dir;
    write_file(dir.path("model.safetensors"), safetensors_bytes("{\"w\": ", ""));
    CHECK_THAT(checkpoint_error(dir.path()), Contains(dir.path("model.safetensors") + ": invalid JSON header"));
}

TEST_CASE("the CLI prints one line on stderr and exits non-zero for each bad input") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    TempDir dir;
    write_file(dir.path("truncated.safetensors"), safetensors_bytes("{\"w\": {}}", "").substr(0, 12));
    write_checkpoint(dir.path("badjson"), tiny_timm_tensors(), "{ not json");
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    tensor_named(tensors, "blocks.0.mlp.fc1.weight").shape = {8, 16};
    write_checkpoint(dir.path("shapes"), tensors, tiny_timm_config());
    write_checkpoint(dir.path("good"), tiny_timm_tensors());
    write_file(dir.path("notes.png"), "not an image at all");
    write_file(dir.path("cut.png"), std::string("\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR", 16));

    const std::string cli = VITVIZ_CLI, good = "--model " + dir.path("good");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--model " + dir.path("missing"), "cannot open '" + dir.path("missing") + "'"},
        {"--model " + dir.path("truncated.safetensors"), "truncated.safetensors: header length"},
        {"--model " + dir.path("badjson"), "config.json: invalid JSON"},
        {"--model " + dir.path("shapes"), "has shape (8, 16), expected (16, 8)"},
        {good + " --image " + dir.path("notes.png"), "notes.png: not an image"},
        {good + " --image " + dir.path("cut.png"), "cut.png: "},
        {good + " --image " + dir.path("nothing.png"), "cannot open '" + dir.path("nothing.png") + "'"},
    };
    for (const auto& [args, expected] : cases) {
        INFO("vitviz-cli " << args);
        const int status = run_command(cli + " " + args + " > " + dir.path("out.txt") + " 2> " + dir.path("err.txt"));
        const std::string err = read_file_text(dir.path("err.txt"));
        CHECK(status > 0);
        CHECK(std::count(err.begin(), err.end(), '\n') == 1);
        CHECK_THAT(err, Contains("vitviz-cli: ") && Contains(expected));
    }
}
