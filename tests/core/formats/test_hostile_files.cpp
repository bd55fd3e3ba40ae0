// Hostile files that would otherwise load as something they are not: images
// shorter than their headers say (stb_image decodes the missing pixels as
// black) or claiming sizes their bytes cannot back, numbers in a timm
// architecture name outside the config's bounds, a wrong
// preprocessor_config.json, and checkpoint tensors the model would drop.
#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "base/error.h"
#include "formats/checkpoint.h"
#include "formats/image.h"
#include "helpers_loaders.h"

using namespace vit_test;
using Catch::Matchers::Contains;

namespace {

std::string le(uint32_t value, int bytes) {
    std::string out;
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
    return out;
}

void append_bytes(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
}

// A width×height RGB image of a grey ramp as `format` ("bmp", "tga" or "tga-rle").
std::string encoded(const std::string& format, int width, int height) {
    std::vector<uint8_t> pixels(static_cast<size_t>(width) * height * 3);
    for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<uint8_t>(i * 7);
    std::string out;
    if (format == "bmp") stbi_write_bmp_to_func(append_bytes, &out, width, height, 3, pixels.data());
    if (format != "bmp") {
        stbi_write_tga_with_rle = format == "tga-rle";
        stbi_write_tga_to_func(append_bytes, &out, width, height, 3, pixels.data());
        stbi_write_tga_with_rle = 1;
    }
    return out;
}

std::string image_error(const std::string& bytes, const std::string& name) {
    try {
        vit::decode_image(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), name);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "no error";
}

// A 24-bit BMP header (BITMAPINFOHEADER) claiming width×height, with `pixel_bytes` bytes after it.
std::string bmp_header_only(int width, int height, size_t pixel_bytes) {
    const std::string info = le(40, 4) + le(static_cast<uint32_t>(width), 4) + le(static_cast<uint32_t>(height), 4) +
                             le(1, 2) + le(24, 2) + le(0, 4) + std::string(20, '\0');
    return "BM" + le(0, 4) + le(0, 4) + le(54, 4) + info + std::string(pixel_bytes, '\x40');
}

// An 18-byte TGA header (type 2 RGB, or 10: run-length encoded) claiming width×height, 24 bits a pixel.
std::string tga_header_only(int width, int height, bool run_length, size_t pixel_bytes) {
    return std::string("\0\0", 2) + static_cast<char>(run_length ? 10 : 2) + std::string(9, '\0') +
           le(static_cast<uint32_t>(width), 2) + le(static_cast<uint32_t>(height), 2) + "\x18" + std::string(1, '\0') +
           std::string(pixel_bytes, '\x40');
}

}  // namespace

TEST_CASE("a BMP or uncompressed TGA shorter than its header says is refused, not decoded with black") {
    for (const char* format : {"bmp", "tga"}) {
        INFO(format);
        const std::string whole = encoded(format, 40, 30);
        const std::string name = std::string("cut.") + format;
        CHECK(image_error(whole, name) == "no error");
        const std::string cut = whole.substr(0, whole.size() - 500);
        CHECK_THAT(image_error(cut, name), Contains(name + ": the file is truncated: the header says 40×30 pixels") &&
                                               Contains("but the file holds only " + std::to_string(40 * 30 * 3 - 500) +
                                                        " bytes of pixel data"));
    }
    // A 5-pixel row of 24 bits is padded to 16 bytes; the last row's padding holds no pixel.
    const std::string bmp = encoded("bmp", 5, 3);
    CHECK(image_error(bmp.substr(0, bmp.size() - 1), "pad.bmp") == "no error");
    CHECK_THAT(image_error(bmp.substr(0, bmp.size() - 2), "pad.bmp"), Contains("pad.bmp: the file is truncated"));
}

TEST_CASE("a small BMP, TGA or GIF claiming 8000×8000 pixels is refused before anything is allocated for them") {
    CHECK_THAT(image_error(bmp_header_only(8000, 8000, 64), "huge.bmp"),
               Contains("huge.bmp: the file is truncated: the header says 8000×8000 pixels (BMP, 24 bits per pixel") &&
                   Contains("only 64 bytes of pixel data"));
    CHECK_THAT(image_error(tga_header_only(8000, 8000, false, 64), "huge.tga"),
               Contains("huge.tga: the file is truncated: the header says 8000×8000 pixels (TGA, 24 bits per pixel"));
    CHECK_THAT(image_error(tga_header_only(8000, 8000, true, 64), "huge-rle.tga"),
               Contains("huge-rle.tga: the header says 8000×8000 pixels but the file's 64 bytes of run-length encoded "
                        "TGA data can encode at most 2048"));
    std::string gif = gif_bytes(2, 2, {0, 1, 2, 3}, {0, 0, 0, 255, 255, 255});
    gif.replace(6, 4, le(8000, 2) + le(8000, 2));  // the logical screen stb_image allocates
    CHECK_THAT(image_error(gif, "huge.gif"),
               Contains("huge.gif: the header says 8000×8000 pixels but the file's " + std::to_string(gif.size()) +
                        " bytes of GIF data can encode at most"));
    // A run-length encoded TGA (what stb_image writes by default) still decodes.
    CHECK(image_error(encoded("tga-rle", 40, 30), "ok.tga") == "no error");
}

TEST_CASE("a patch size or image size from a timm architecture name is bounded like the config's own fields") {
    const auto error_for = [](const std::string& architecture) {
        TempDir dir;
        return checkpoint_error_of(dir, tiny_timm_tensors(), R"({"architecture": ")" + architecture + R"("})");
    };
    CHECK_THAT(error_for("vit_base_patch0_224"),
               Contains("config.json's architecture 'vit_base_patch0_224' says a patch size of 0, less than the "
                        "smallest supported (1)"));
    // Within the bounds, but not the weights' patch: their shapes say so.
    CHECK_THAT(error_for("vit_x_patch99999_224"),
               Contains("patch_embed.proj.weight' has shape") && Contains("says patch_size 99999"));
    CHECK_THAT(error_for("vit_base_patch99999999999_224"),
               Contains("says a patch size of 2147483647, more than the largest supported (16777216)"));
    CHECK_THAT(error_for("vit_tiny_patch2_99999999999"),
               Contains("says an image size of 2147483647, more than the largest supported (8192)"));
}

TEST_CASE("mean and std of a wrong preprocessor_config.json are reported as that file's") {
    TempDir dir;
    write_file(dir.path("preprocessor_config.json"), R"({"image_mean": [0.5], "image_std": [0.5]})");
    CHECK_THAT(checkpoint_error_of(dir, tiny_hf_tensors(), R"({"model_type": "vit", "hidden_size": 8})"),
               Contains(dir.path("preprocessor_config.json") + ": mean and std have 1 values but the model has 3"));
}

TEST_CASE("a checkpoint tensor the model would not use is refused by its name") {
    const std::string weights = "/model.safetensors: tensor '";
    TempDir extra;
    std::vector<FakeTensor> tensors = tiny_timm_tensors();
    tensors.push_back({"blocks.0.attn.rel_pos", {8}, std::vector<float>(8, 1.0f)});
    CHECK_THAT(checkpoint_error_of(extra, tensors),
               Contains(extra.path() + weights + "blocks.0.attn.rel_pos' is not used by this model"));
    // a LayerScale gamma makes a LayerScale model (timm builds one only with init_values): its partner is missing
    TempDir half;
    std::vector<FakeTensor> one_scale = tiny_timm_tensors();
    one_scale.push_back({"blocks.0.ls1.gamma", {8}, std::vector<float>(8, 1.0f)});
    CHECK_THAT(checkpoint_error_of(half, one_scale),
               Contains(half.path("model.safetensors") + ": missing tensor 'blocks.0.ls2.gamma'"));

    // timm's global_pool 'avg' with fc_norm is read, and then the final norm is an identity: a 'norm.weight'
    // beside 'fc_norm.weight' has no place.
    TempDir avg;
    tensors = tiny_timm_tensors();
    for (const FakeTensor& t : tiny_timm_tensors())
        if (t.name.rfind("norm.", 0) == 0) tensors.push_back({"fc_" + t.name, t.shape, t.values});
    CHECK_THAT(checkpoint_error_of(avg, tensors, R"({"architecture": "vit_x_patch2_4", "global_pool": "avg"})"),
               Contains(avg.path() + weights + "norm.") && Contains("is not used by this model: it has no place"));
    // A pooling this app does not run is refused by the setting's name.
    CHECK_THAT(checkpoint_error_of(avg, tiny_timm_tensors(), R"({"global_pool": "map"})"),
               Contains("'global_pool'") && Contains("\"token\", \"avg\" or \"\""));

    // DeiT distilled needs its second head.
    TempDir distilled;
    tensors = tiny_timm_tensors();
    tensors.push_back({"dist_token", {1, 1, 8}, std::vector<float>(8, 0.0f)});
    FakeTensor& pos = tensor_named(tensors, "pos_embed");  // a row for DIST after CLS's
    pos.shape = {1, 6, 8};
    pos.values.resize(48);
    CHECK_THAT(checkpoint_error_of(distilled, tensors),
               Contains(distilled.path() + "/model.safetensors: missing tensor 'head_dist.weight'"));
}

TEST_CASE("Hugging Face ViTModel's pooler is known and deliberately left out") {
    for (const std::string prefix : {"", "vit."}) {
        INFO("prefix '" << prefix << "'");
        TempDir dir;
        std::vector<FakeTensor> tensors = tiny_hf_tensors({}, prefix);
        tensors.push_back({prefix + "pooler.dense.weight", {8, 8}, std::vector<float>(64, 0.0f)});
        tensors.push_back({prefix + "pooler.dense.bias", {8}, std::vector<float>(8, 0.0f)});
        CHECK(checkpoint_error_of(dir, tensors) == "no error");
    }
}
