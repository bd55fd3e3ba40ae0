// Hostile files and options: files built to crash, hang, exhaust
// memory or mislead the loaders. Each is refused with one short message
// naming the file and the problem; the CLI prints it as one line and exits 1
// (run under `timeout`, so a regression that hangs fails instead of waiting).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include "formats/checkpoint.h"
#include "base/error.h"
#include "pass/forward.h"
#include "helpers_loaders.h"
#include "formats/image.h"
#include "loading/toy_model.h"
#include "pass/trace_budget.h"

using namespace vit_test;
using Catch::Matchers::Contains;

namespace {

// A message short enough to read: one line, not an echo of a huge value.
bool is_short_line(const std::string& message) {
    return message.size() < 400 && message.find('\n') == std::string::npos;
}

std::string png_bytes(int width, int height) {
    return png16_bytes(width, height, 1, std::vector<uint16_t>(static_cast<size_t>(width) * height, 1000));
}

}  // namespace

TEST_CASE("JSON nested 100000 deep is refused while parsing without echoing it") {
    TempDir dir;
    const std::string deep = std::string(100000, '[') + "1" + std::string(100000, ']');
    const std::string error =
        checkpoint_error_of(dir, tiny_timm_tensors(), "{\"model_args\": {\"embed_dim\": " + deep + "}}");
    CHECK_THAT(error, Contains(dir.path("config.json") + ": invalid JSON: nested deeper than 64 levels"));
    CHECK(is_short_line(error));
    // The same in a safetensors header.
    write_file(dir.path("deep.safetensors"), safetensors_bytes("{\"w\": " + deep + "}", ""));
    CHECK_THAT(checkpoint_error(dir.path("deep.safetensors")), Contains("invalid JSON header: nested deeper than 64"));
}

namespace {

constexpr double kLinearSeconds = 10.0;

// Seconds of processor time `run` takes (not wall time: a loaded test machine does not count).
template <typename Run>
double seconds_of(Run run) {
    const std::clock_t start = std::clock();
    run();
    return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
}

// `count` sibling objects: "\"k0\": {VALUE}, \"k1\": {VALUE}, …".
std::string siblings(int count, const std::string& value) {
    std::string members;
    for (int i = 0; i < count; ++i) members += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": " + value;
    return members;
}

}  // namespace

// JSON is read in time linear in its length (nlohmann's parse callback made
// 300,000 siblings quadratic: minutes). A Release build takes a fraction of a
// second; tools/test.sh runs this in a Debug sanitizer build (-O0: seconds),
// hence the generous bound.
TEST_CASE("300,000 sibling objects in a safetensors header or a config.json are read in linear time") {
    TempDir dir;
    // Empty entries: the whole header is parsed before its first entry is refused.
    write_file(dir.path("wide.safetensors"), safetensors_bytes("{" + siblings(300000, "{}") + "}", ""));
    std::string error;
    CHECK(seconds_of([&] { error = checkpoint_error(dir.path("wide.safetensors")); }) < kLinearSeconds);
    CHECK_THAT(error, Contains("wide.safetensors: tensor 'k") && Contains("has no dtype"));
    CHECK(is_short_line(error));
    // Unknown keys of model_args are left alone: the checkpoint loads or is refused by name, in time.
    CHECK(seconds_of([&] {
              error =
                  checkpoint_error_of(dir, tiny_timm_tensors(), "{\"model_args\": {" + siblings(300000, "{}") + "}}");
          }) < kLinearSeconds);
    CHECK(is_short_line(error));
    const std::string entry = R"({"dtype": "F32", "shape": [0], "data_offsets": [0, 0]})";
    // Nesting too deep is still refused naming the file, also after many siblings.
    const std::string deep = std::string(65, '[') + std::string(65, ']');
    error = checkpoint_error_of(dir, tiny_timm_tensors(), "{" + siblings(1000, "{}") + ", \"deep\": " + deep + "}");
    CHECK_THAT(error, Contains(dir.path("config.json") + ": invalid JSON: nested deeper than 64 levels"));
    write_file(dir.path("deep.safetensors"),
               safetensors_bytes("{" + siblings(1000, entry) + ", \"w\": " + deep + "}", ""));
    CHECK_THAT(checkpoint_error(dir.path("deep.safetensors")),
               Contains("deep.safetensors: invalid JSON header: nested deeper than 64 levels"));
}

TEST_CASE("a bad value of a megabyte is quoted shortened and not whole") {
    TempDir dir;
    const std::string huge(1 << 20, 'x');
    const std::string error =
        checkpoint_error_of(dir, tiny_timm_tensors(), "{\"model_args\": {\"embed_dim\": \"" + huge + "\"}}");
    CHECK_THAT(error, Contains("'embed_dim' must be an integer") && Contains("\"xxxx") && Contains("…"));
    CHECK(is_short_line(error));
    const std::string name_error =
        checkpoint_error_of(dir, tiny_timm_tensors(), "{\"architecture\": \"vit_small_" + huge + "\"}");
    CHECK_THAT(name_error, Contains("num_heads 6 does not divide embed_dim 8") && Contains("…"));
    CHECK(is_short_line(name_error));
    write_checkpoint(dir.path(), tiny_timm_tensors(), "{\"architecture\": \"vit_" + huge + "\"}");
    CHECK(vit::load_checkpoint(dir.path()).config.name.size() < 100);  // shown in titles and messages
}

TEST_CASE("a tensor name of a megabyte is quoted shortened") {
    TempDir dir;
    const std::string name(1 << 20, 'w');
    const std::string header = "{\"" + name + R"(": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}})";
    write_file(dir.path("long.safetensors"), safetensors_bytes(header, "1234"));
    const std::string error = checkpoint_error(dir.path("long.safetensors"));
    CHECK_THAT(error,
               Contains("tensor 'wwww") && Contains("…': offsets [0, 8] run past the end of the data (4 bytes)"));
    CHECK(is_short_line(error));
}

TEST_CASE("a config.json that is a folder or a link to a device is refused by name") {
    TempDir dir;
    write_checkpoint(dir.path(), tiny_timm_tensors());
    std::filesystem::create_directory(dir.path("config.json"));
    CHECK(checkpoint_error(dir.path()) ==
          "cannot open '" + dir.path("config.json") + "': not a regular file (a folder)");
    std::filesystem::remove(dir.path("config.json"));
    std::filesystem::create_symlink("/dev/zero", dir.path("config.json"));
    CHECK(checkpoint_error(dir.path()) ==
          "cannot open '" + dir.path("config.json") + "': not a regular file (a device)");
}

TEST_CASE("shortened() cuts at a character boundary") {
    CHECK(vit::shortened("short") == "short");
    const std::string cut = vit::shortened(std::string(200, 'a'));
    CHECK(cut == std::string(vit::kMaxQuotedChars - 1, 'a') + "…");
    std::string accents;
    for (int i = 0; i < 100; ++i) accents += "é";  // two bytes each
    const std::string cut_accents = vit::shortened(accents);
    CHECK(cut_accents.size() % 2 == 1);  // whole "é"s, then the three-byte "…"
    CHECK(cut_accents.substr(cut_accents.size() - 3) == "…");
}

TEST_CASE("FIFOs devices and folders are refused before they are opened") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    TempDir dir;
    write_checkpoint(dir.path("good"), tiny_timm_tensors(), tiny_timm_config());
    write_file(dir.path("image.png"), png_bytes(8, 8));
    REQUIRE(mkfifo(dir.path("fifo.safetensors").c_str(), 0600) == 0);
    REQUIRE(mkfifo(dir.path("fifo.png").c_str(), 0600) == 0);
    write_checkpoint(dir.path("fifo_config"), tiny_timm_tensors());
    REQUIRE(mkfifo(dir.path("fifo_config/config.json").c_str(), 0600) == 0);
    write_checkpoint(dir.path("fifo_pre"), tiny_hf_tensors(), R"({"model_type": "vit"})");
    REQUIRE(mkfifo(dir.path("fifo_pre/preprocessor_config.json").c_str(), 0600) == 0);
    std::filesystem::create_directories(dir.path("folder/model.safetensors"));

    const std::string image = " --image " + dir.path("image.png");
    check_cli_refuses(dir, "--model " + dir.path("fifo.safetensors") + image,
                      "cannot open '" + dir.path("fifo.safetensors") + "': not a regular file (a FIFO)");
    check_cli_refuses(dir, "--model " + dir.path("fifo_config") + image,
                      "cannot open '" + dir.path("fifo_config/config.json") + "': not a regular file (a FIFO)");
    check_cli_refuses(dir, "--model " + dir.path("fifo_pre") + image,
                      "'" + dir.path("fifo_pre/preprocessor_config.json") + "': not a regular file (a FIFO)");
    check_cli_refuses(dir, "--model " + dir.path("good") + " --image " + dir.path("fifo.png"),
                      "cannot open '" + dir.path("fifo.png") + "': not a regular file (a FIFO)");
    check_cli_refuses(dir, "--model /dev/null" + image, "cannot open '/dev/null': not a regular file (a device)");
    check_cli_refuses(dir, "--model " + dir.path("good") + " --image " + dir.path("folder"),
                      "cannot open '" + dir.path("folder") + "': not a regular file (a folder)");
    check_cli_refuses(dir, "--model " + dir.path("folder") + image,
                      "'" + dir.path("folder/model.safetensors") + "': not a regular file (a folder)");
}

TEST_CASE("a symlink loop is reported as one") {
    TempDir dir;
    std::filesystem::create_symlink(dir.path("b"), dir.path("a"));
    std::filesystem::create_symlink(dir.path("a"), dir.path("b"));
    CHECK_THAT(checkpoint_error(dir.path("a")), Contains("cannot open '" + dir.path("a") + "': symlink loop"));
    CHECK_THROWS_WITH(vit::load_image(dir.path("a")), Contains("cannot open '" + dir.path("a") + "': symlink loop"));
}

TEST_CASE("a positional embedding without a patch grid is refused with or without a config") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    FakeTensor& pos = tensor_named(tensors, "pos_embed");
    pos.shape = {1, 1, 8};  // the CLS row only: a 0×0 grid
    pos.values.resize(8);
    CHECK_THAT(checkpoint_error_of(dir, tensors), Contains("tensor 'pos_embed' has shape (1, 1, 8)") &&
                                                      Contains("0 rows after the CLS row are not a square grid"));
    CHECK_THAT(checkpoint_error_of(dir, tensors, R"({"pretrained_cfg": {"input_size": [3, 4, 4]}})"),
               Contains("0 rows after the CLS row are not a square grid"));
    pos.shape = {1, 4, 8};
    pos.values.resize(32);
    CHECK_THAT(checkpoint_error_of(dir, tensors, R"({"pretrained_cfg": {"input_size": [3, 4, 4]}})"),
               Contains("3 rows after the CLS row are not a square grid"));
}

TEST_CASE("a small checkpoint claiming a huge width is refused before its weights are allocated") {
    // embed_dim 65536 on every tensor read before block 0's qkv (3·D² floats = 51 GB), which is tiny.
    TempDir dir;
    constexpr int64_t D = 65536;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    for (const char* name : {"head.weight", "head.bias"}) erase_tensor(tensors, name);
    const std::vector<std::pair<const char*, std::vector<int64_t>>> wide = {{"cls_token", {1, 1, D}},
                                                                            {"pos_embed", {1, 2, D}},
                                                                            {"patch_embed.proj.weight", {D, 1, 1, 1}},
                                                                            {"patch_embed.proj.bias", {D}},
                                                                            {"blocks.0.mlp.fc1.weight", {1, D}},
                                                                            {"blocks.0.norm1.weight", {D}},
                                                                            {"blocks.0.norm1.bias", {D}}};
    for (const auto& [name, shape] : wide) {
        FakeTensor& t = tensor_named(tensors, name);
        t.shape = shape;
        int64_t numel = 1;
        for (int64_t d : shape) numel *= d;
        t.values.assign(static_cast<size_t>(numel), 0.0f);
    }
    const std::string config =
        R"({"num_classes": 0, "model_args": {"embed_dim": 65536, "num_heads": 1, "depth": 2, "patch_size": 1,
            "in_chans": 1, "img_size": 1}})";
    CHECK_THAT(checkpoint_error_of(dir, tensors, config),
               Contains("tensor 'blocks.0.attn.qkv.weight' has shape (24, 8), expected (196608, 65536)"));
}

TEST_CASE("trace_bytes is the size of every stage forward() writes") {
    TempDir dir;
    write_checkpoint(dir.path(), tiny_timm_tensors(), tiny_timm_config());
    const vit::Model model = vit::load_checkpoint(dir.path());
    for (const int size : {8, 12, 20}) {
        INFO("image size " << size);
        const vit::Trace trace = vit::forward(model, vit::Tensor({3, size, size}));
        int64_t bytes = 0;
        for (const vit::Stage& s : trace.stages()) bytes += s.tensor.numel() * static_cast<int64_t>(sizeof(float));
        CHECK(vit::trace_bytes(model.config, size) == bytes);
        // A Stream pass: what it keeps, and the one block's other stages it writes over block after block.
        const vit::Trace stream = vit::forward(model, vit::Tensor({3, size, size}), {}, vit::TraceKeep::Stream);
        int64_t held = 0;
        for (const vit::Stage& s : stream.stages()) held += s.tensor.numel() * static_cast<int64_t>(sizeof(float));
        const vit::Trace block = vit::recompute_block(model, stream, 0);
        for (const vit::Stage& s : block.stages())
            if (!vit::keeps(vit::TraceKeep::Stream, s.kind))
                held += s.tensor.numel() * static_cast<int64_t>(sizeof(float));
        CHECK(vit::trace_bytes(model.config, size, vit::TraceKeep::Stream) == held);
        CHECK(held < bytes);
    }
}

TEST_CASE("an input whose trace would not fit is refused with the size it needs and the largest that fits") {
    const vit::Model model = vit::make_toy_model();
    const int64_t budget = vit::trace_bytes(model.config, 40);
    CHECK(vit::largest_fitting_image_size(model.config, budget) == 40);
    CHECK_NOTHROW(vit::check_input_fits(model.config, 40, budget));
    try {
        vit::check_input_fits(model.config, 42, budget);
        FAIL("no error");
    } catch (const vit::InputTooLarge& e) {
        CHECK(e.largest_fitting == 40);
        CHECK_THAT(e.what(), Contains("an input of 42×42 pixels (442 tokens) needs") &&
                                 Contains("for its trace, over the") && Contains(" allowed (50% of ") &&
                                 Contains("--image-size 40"));
    }
    try {
        vit::check_input_fits(model.config, 100000, budget);
        FAIL("no error");
    } catch (const vit::InputTooLarge& e) {
        CHECK_THAT(e.what(), Contains("an input of 100000×100000 pixels is over the limit of 8192 pixels a side"));
    }
    // A program holding four traces at once (the app) gives each a quarter of the budget, and says so.
    CHECK_NOTHROW(vit::check_input_fits(model.config, 40, 4 * budget, 4));
    try {
        vit::check_input_fits(model.config, 40, 3 * budget, 4);
        FAIL("no error");
    } catch (const vit::InputTooLarge& e) {
        CHECK(e.largest_fitting == vit::largest_fitting_image_size(model.config, 3 * budget / 4));
        CHECK_THAT(e.what(), Contains(", shared by the 4 passes the app holds at once)"));
    }
}

// No machine holds the toy's trace at 1024 px (262,145 tokens: T × T attention of hundreds of
// GB): the pass itself, with no budget check before it, runs out of memory at once.
TEST_CASE("a pass whose trace cannot be allocated says so naming the model, the size and the memory") {
    const vit::Model model = vit::make_toy_model();
    const vit::Tensor input({model.config.channels, 1024, 1024});
    const std::string said = model.config.name + " at 1024×1024 pixels (262145 tokens): out of memory; its trace needs";
    CHECK_THROWS_WITH(vit::forward(model, input), Contains(said) && Contains(" GB beside its weights"));
    vit::ForwardWalk walk(model, input);
    CHECK_THROWS_WITH(walk.take(), Contains(said) && Contains(" GB beside its weights"));
}

TEST_CASE("a config whose settings the weights contradict is refused naming the setting and the tensor") {
    TempDir dir;
    TinyVit no_bias;
    no_bias.qkv_bias = false;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), tiny_timm_config(no_bias)),
               Contains(dir.path("config.json") + ": 'qkv_bias' is false, but " + dir.path("model.safetensors") +
                        " holds 'blocks.0.attn.qkv.bias'"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(no_bias), tiny_timm_config()),
               Contains("'qkv_bias' is true, but") && Contains("has no 'blocks.0.attn.qkv.bias'"));
    CHECK_THAT(
        checkpoint_error_of(dir, tiny_hf_tensors(), R"({"model_type": "vit", "qkv_bias": false})"),
        Contains("'qkv_bias' is false, but") && Contains("holds 'vit.encoder.layer.0.attention.attention.query.bias'"));
    // LayerScale: weights with gammas and a config that says init_values 0 (no LayerScale).
    std::vector<FakeTensor> gammas = tiny_timm_tensors();
    for (const char* ls : {"ls1", "ls2"})
        for (int b = 0; b < 2; ++b)
            gammas.push_back({"blocks." + std::to_string(b) + "." + ls + ".gamma", {8}, std::vector<float>(8, 0.5f)});
    nlohmann::json zero = nlohmann::json::parse(tiny_timm_config());
    zero["model_args"]["init_values"] = 0;
    CHECK_THAT(checkpoint_error_of(dir, gammas, zero.dump()),
               Contains("model_args.init_values is 0 (no LayerScale), but") && Contains("holds 'blocks.0.ls1.gamma'"));
    zero["model_args"]["init_values"] = 1e-5;  // stated and agreeing
    write_checkpoint(dir.path(), gammas, zero.dump());
    CHECK(vit::load_checkpoint(dir.path()).config.layer_scale);
}

TEST_CASE("a position table that reads two ways takes the one the input size names, or is refused") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    tensors.push_back({"reg_token", {1, 4, 8}, std::vector<float>(32, 0.25f)});  // CLS + 4 registers: 5 prefix rows
    FakeTensor& pos = tensor_named(tensors, "pos_embed");
    pos.shape = {1, 9, 8};  // 3×3 patches (no_embed_class), or 2×2 after the 5 prefix rows
    pos.values.assign(72, 0.125f);
    CHECK_THAT(checkpoint_error_of(dir, tensors),
               Contains(dir.path("model.safetensors") + ": tensor 'pos_embed' has 9 rows: 3×3 patches, or 2×2 patches "
                                                        "after 5 prefix rows; the config must say which"));
    auto loaded = [&](int input_size) {
        write_checkpoint(dir.path(), tensors,
                         R"({"pretrained_cfg": {"input_size": [3, )" + std::to_string(input_size) + ", " +
                             std::to_string(input_size) + "]}}");
        return vit::load_checkpoint(dir.path()).config;
    };
    CHECK(loaded(6).pos_grid == 3);
    CHECK_FALSE(loaded(6).pos_on_prefix);
    CHECK(loaded(4).pos_grid == 2);
    CHECK(loaded(4).pos_on_prefix);
}

TEST_CASE("a pooling or input size the weights cannot take is refused naming the file that says it") {
    TempDir dir;
    nlohmann::json no_pool = nlohmann::json::parse(tiny_timm_config());
    no_pool["model_args"]["global_pool"] = "";
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(), no_pool.dump()),
               Contains(dir.path("config.json") + ": says global_pool '' (no pooling), but the weights have a "
                                                  "classifier head ('head.weight')"));
    write_file(dir.path("preprocessor_config.json"),
               R"({"size": 10, "do_center_crop": true, "crop_size": 7, "image_mean": [0.5, 0.5, 0.5],
                   "image_std": [0.5, 0.5, 0.5]})");
    CHECK_THAT(checkpoint_error_of(dir, tiny_hf_tensors(), R"({"model_type": "vit", "patch_size": 2})"),
               Contains("preprocessor_config.json says crop_size 7, which does not divide into patches of 2 pixels "
                        "(config.json says patch_size 2)"));
}

TEST_CASE("weights holding NaN or Inf are reported naming the tensors and the counts") {
    TempDir dir;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    tensor_named(tensors, "blocks.1.attn.qkv.weight").values[5] = std::numeric_limits<float>::quiet_NaN();
    tensor_named(tensors, "head.bias").values[0] = std::numeric_limits<float>::infinity();
    tensor_named(tensors, "head.bias").values[2] = -std::numeric_limits<float>::infinity();
    write_checkpoint(dir.path(), tensors, tiny_timm_config());
    const vit::Model model = vit::load_checkpoint(dir.path());
    CHECK(model.nonfinite_weights == dir.path("model.safetensors") +
                                         ": 2 tensors hold NaN or Inf values: 'blocks.1.attn.qkv.weight' (1 of 192), "
                                         "'head.bias' (2 of 3)");
    write_checkpoint(dir.path(), tiny_timm_tensors(), tiny_timm_config());
    CHECK(vit::load_checkpoint(dir.path()).nonfinite_weights.empty());
}

TEST_CASE("preprocessing numbers that overflow float or a zero std are refused") {
    TempDir dir;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(),
                                   R"({"pretrained_cfg": {"mean": [0.5, 0.5, 0.5], "std": [1e39, 1, 1]}})"),
               Contains("config.json: 'std' must be a list of 1 to 4 numbers within float range, got [1e+39,1,1]"));
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(),
                                   R"({"pretrained_cfg": {"mean": [1e400, 0.5, 0.5], "std": [1, 1, 1]}})"),
               Contains("config.json: invalid JSON: number overflow parsing '1e400'"));
    write_file(dir.path("preprocessor_config.json"), R"({"image_mean": [0.5, 0.5, 0.5], "image_std": [0, 1, 1]})");
    CHECK_THAT(checkpoint_error_of(dir, tiny_hf_tensors(), R"({"model_type": "vit"})"),
               Contains("preprocessor_config.json: 'image_std' must be non-zero"));
    write_file(dir.path("preprocessor_config.json"), R"({"image_mean": [0.5, 0.5, 0.5], "image_std": [1e39, 1, 1]})");
    CHECK_THAT(checkpoint_error_of(dir, tiny_hf_tensors(), R"({"model_type": "vit"})"),
               Contains("preprocessor_config.json: 'image_std' must be a list of 1 to 4 numbers within float range"));
}

// 16×16 grey needs 16 rows of 1 + 16 bytes; this IDAT inflates to 64 MB of zeros from ~64 kB.
TEST_CASE("a PNG whose image data inflates past its header's size is refused before it is decoded") {
    const std::string bomb = png_inflating_to(16, 16, 64u << 20);
    CHECK(bomb.size() < 200000);
    CHECK_THROWS_WITH(vit::decode_image(reinterpret_cast<const uint8_t*>(bomb.data()), bomb.size(), "bomb.png"),
                      "bomb.png: the PNG's image data inflates to more than the 272 bytes its header's size needs "
                      "(not decoded)");
    const std::string exact =
        png_inflating_to(16, 16, 272);  // every row's filter byte and pixels: zeros, a black image
    CHECK(vit::decode_image(reinterpret_cast<const uint8_t*>(exact.data()), exact.size(), "exact.png", 1).data.size() ==
          256);
    // Adam7's seven passes have rows of their own (filter bytes and rounding): the same pixels either way.
    const vit::Image interlaced = vit::load_image(std::string(VITVIZ_FIXTURES) + "/interlaced_13x7.png", 3);
    const vit::Image plain = vit::load_image(std::string(VITVIZ_FIXTURES) + "/plain_13x7.png", 3);
    CHECK(interlaced.width == 13);
    CHECK(interlaced.data == plain.data);
}

TEST_CASE("a PNG chunk with a bad CRC is refused naming the chunk") {
    TempDir dir;
    std::string png = png_bytes(4, 4);
    CHECK_NOTHROW(vit::decode_image(reinterpret_cast<const uint8_t*>(png.data()), png.size(), "ok.png"));
    png[29] = static_cast<char>(png[29] ^ 1);  // IHDR's CRC: signature 8 + length 4 + type 4 + data 13
    CHECK_THROWS_WITH(vit::decode_image(reinterpret_cast<const uint8_t*>(png.data()), png.size(), "bad.png"),
                      "bad.png: PNG chunk IHDR has a bad CRC (the file is corrupt)");
    std::string idat = png_bytes(4, 4);
    idat[45] = static_cast<char>(idat[45] ^ 0x10);  // a byte of IDAT's data (its type is bytes 37 to 40)
    CHECK_THROWS_WITH(vit::decode_image(reinterpret_cast<const uint8_t*>(idat.data()), idat.size(), "bad.png"),
                      "bad.png: PNG chunk IDAT has a bad CRC (the file is corrupt)");
    const std::string cut = png_bytes(4, 4).substr(0, 45);
    CHECK_THROWS_WITH(vit::decode_image(reinterpret_cast<const uint8_t*>(cut.data()), cut.size(), "cut.png"),
                      Contains("cut.png: PNG chunk IDAT runs past the end of the file"));
}

TEST_CASE("a 4-channel checkpoint without a config names its file") {
    TempDir dir;
    TinyVit four;
    four.channels = 4;
    CHECK_THAT(checkpoint_error_of(dir, tiny_timm_tensors(four)),
               Contains(dir.path("model.safetensors") + ": the model has 4 channels (channels 4 from "
                                                        "'patch_embed.proj.weight') but no mean and std are given"));
}

TEST_CASE("a text file given as a checkpoint is not a safetensors file") {
    TempDir dir;
    write_file(dir.path("notes.safetensors"), "Hello there, these are notes and not weights.\n");
    CHECK_THAT(checkpoint_error(dir.path("notes.safetensors")),
               Contains(dir.path("notes.safetensors") + ": not a safetensors file"));
    write_file(dir.path("short.safetensors"), std::string("\x05\0\0\0\0\0\0\0hello", 13));
    CHECK_THAT(checkpoint_error(dir.path("short.safetensors")), Contains("not a safetensors file"));
}

TEST_CASE("the CLI refuses hostile inputs and sizes with one line and exit 1") {
    if (!std::filesystem::exists(VITVIZ_CLI)) return;  // not built in this configuration
    TempDir dir;
    write_checkpoint(dir.path("good"), tiny_timm_tensors(), tiny_timm_config());
    write_file(dir.path("image.png"), png_bytes(10, 12));
    std::string bad_crc = png_bytes(10, 12);
    bad_crc[29] = static_cast<char>(bad_crc[29] ^ 1);
    write_file(dir.path("bad_crc.png"), bad_crc);
    write_file(dir.path("empty.png"), "");
    write_file(dir.path("wide.png"), png_bytes(100000, 1));
    std::vector<FakeTensor> nan = tiny_timm_tensors();
    tensor_named(nan, "head.bias").values[1] = std::numeric_limits<float>::quiet_NaN();
    write_checkpoint(dir.path("nan"), nan, tiny_timm_config());
    const std::string input_8192 =
        R"({"pretrained_cfg": {"input_size": [3, 8192, 8192], "mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]}})";
    write_checkpoint(dir.path("input8192"), tiny_timm_tensors(), input_8192);
    // ViT-B/16's preprocessing (its shorter side resized to 256, then cropped to 224) on tiny weights.
    const std::string input_224 = R"({"pretrained_cfg": {"input_size": [3, 224, 224], "crop_pct": 0.875, )"
                                  R"("mean": [0.5, 0.5, 0.5], "std": [0.5, 0.5, 0.5]}})";
    write_checkpoint(dir.path("input224"), tiny_timm_tensors(), input_224);

    const std::string good = "--model " + dir.path("good"), image = " --image " + dir.path("image.png");
    check_cli_refuses(
        dir, good + image + " --image-size 100000",
        "an input of 100000×100000 pixels is over the limit of 8192 pixels a side; the largest image size "
        "that fits is ");
    check_cli_refuses(dir, "--model " + dir.path("input8192") + image,
                      "an input of 8192×8192 pixels (16777217 tokens) needs ");
    check_cli_refuses(dir, "--model digits --image-size 2048", "(--image-size ");
    check_cli_refuses(dir, "--model digits --image-size 30",
                      "--image-size 30: not a whole number of vit_digits_patch7_28's 7-pixel patches (28 or 35 is)");
    write_file(dir.path("long.png"), png_bytes(30000, 2));
    check_cli_refuses(dir, "--model " + dir.path("input224") + " --image " + dir.path("long.png"),
                      dir.path("long.png") + ": an image of 30000×2 pixels is too elongated to resize");
    check_cli_refuses(dir, good + " --image " + dir.path("bad_crc.png"), "bad_crc.png: PNG chunk IHDR has a bad CRC");
    check_cli_refuses(dir, good + " --image " + dir.path("empty.png"), "empty.png: not an image");
    check_cli_refuses(dir, "--model " + dir.path("nan") + image,
                      "'head.bias' (1 of 3) (--allow-nonfinite runs it anyway)");

    const CliResult allowed = run_cli(dir, "--model " + dir.path("nan") + image + " --allow-nonfinite");
    CHECK(allowed.status == 0);
    CHECK_THAT(allowed.err, Contains("vitviz-cli: warning: ") && Contains("'head.bias' (1 of 3)"));
    CHECK(run_cli(dir, good + image).status == 0);
    CHECK(run_cli(dir, good + " --image " + dir.path("wide.png")).status == 0);  // 100000×1 pixels: resized to 9×90000
}
