// safetensors: exact F16/BF16 conversion, and every malformed file refused
// with a message naming the file, the tensor and the problem.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "base/error.h"
#include "tensor/half.h"
#include "helpers_loaders.h"
#include "formats/safetensors.h"

using namespace vit_test;
using Catch::Matchers::Contains;

TEST_CASE("F16 bit patterns convert to float32 exactly, subnormals, infinities and NaN included") {
    CHECK(vit::f16_to_f32(0x0000) == 0.0f);
    CHECK(std::signbit(vit::f16_to_f32(0x8000)));
    CHECK(vit::f16_to_f32(0x3c00) == 1.0f);
    CHECK(vit::f16_to_f32(0xc000) == -2.0f);
    CHECK(vit::f16_to_f32(0x3555) == 0.333251953125f);
    CHECK(vit::f16_to_f32(0x7bff) == 65504.0f);               // largest normal
    CHECK(vit::f16_to_f32(0x0400) == std::ldexp(1.0f, -14));  // smallest normal
    CHECK(vit::f16_to_f32(0x0001) == std::ldexp(1.0f, -24));  // smallest subnormal
    CHECK(vit::f16_to_f32(0x03ff) == std::ldexp(1023.0f, -24));
    CHECK(vit::f16_to_f32(0x8001) == -std::ldexp(1.0f, -24));
    CHECK(vit::f16_to_f32(0x7c00) == std::numeric_limits<float>::infinity());
    CHECK(vit::f16_to_f32(0xfc00) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(vit::f16_to_f32(0x7e00)));
    CHECK(std::isnan(vit::f16_to_f32(0x7c01)));
}

TEST_CASE("BF16 bit patterns convert to float32 exactly, subnormals, infinities and NaN included") {
    CHECK(vit::bf16_to_f32(0x3f80) == 1.0f);
    CHECK(vit::bf16_to_f32(0xc040) == -3.0f);
    CHECK(vit::bf16_to_f32(0x3eab) == 0.333984375f);
    CHECK(std::signbit(vit::bf16_to_f32(0x8000)));
    CHECK(vit::bf16_to_f32(0x0001) == std::ldexp(1.0f, -133));  // subnormal
    CHECK(vit::bf16_to_f32(0x7f80) == std::numeric_limits<float>::infinity());
    CHECK(vit::bf16_to_f32(0xff80) == -std::numeric_limits<float>::infinity());
    CHECK(std::isnan(vit::bf16_to_f32(0x7fc0)));
}

TEST_CASE("a valid file's F32, F16 and BF16 tensors read back as float32") {
    TempDir dir;
    const std::string header = R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                               R"("b":{"dtype":"F16","shape":[1,3],"data_offsets":[8,14]},)"
                               R"("c":{"dtype":"BF16","shape":[2],"data_offsets":[14,18]},)"
                               R"("empty":{"dtype":"F32","shape":[0,4],"data_offsets":[18,18]},)"
                               R"("__metadata__":{"format":"pt"}})";
    const std::string data = std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0", 8)  // 1, -2
                             + std::string("\x00\x3c\x01\x00\x00\x7c", 6)        // 1, 2^-24, inf
                             + std::string("\x80\x3f\x40\xc0", 4);               // 1, -3
    write_file(dir.path("m.safetensors"), safetensors_bytes(header, data));
    const vit::SafetensorsFile file(dir.path("m.safetensors"));
    REQUIRE(file.entries().size() == 4);
    float out[3];
    file.read_floats(*file.find("a"), out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -2.0f);
    file.read_floats(*file.find("b"), out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == std::ldexp(1.0f, -24));
    CHECK(out[2] == std::numeric_limits<float>::infinity());
    file.read_floats(*file.find("c"), out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -3.0f);
    CHECK(file.find("b")->shape == std::vector<int64_t>{1, 3});
    CHECK(file.find("empty")->numel() == 0);
    CHECK(file.find("__metadata__") == nullptr);
}

TEST_CASE("bytes in memory are checked and read as the same file on disk, errors naming the given name") {
    const std::string header = R"({"w":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]}})";
    const std::string bytes = safetensors_bytes(header, std::string("\x80\x3f\x40\xc0", 4));
    const auto in_memory = [](const std::string& b) {
        return vit::SafetensorsFile(reinterpret_cast<const uint8_t*>(b.data()), b.size(), "memory.safetensors");
    };
    const vit::SafetensorsFile file = in_memory(bytes);
    CHECK(file.path() == "memory.safetensors");
    float out[2];
    file.read_floats(*file.find("w"), out);
    CHECK(out[0] == 1.0f);
    CHECK(out[1] == -3.0f);
    CHECK_THROWS_WITH(in_memory(bytes.substr(0, bytes.size() - 1)),
                      Contains("memory.safetensors: tensor 'w': offsets [0, 4] run past the end of the data"));
}

// Writes `bytes` as bad.safetensors and returns the error message it gives.
static std::string error_of(const TempDir& dir, const std::string& bytes) {
    write_file(dir.path("bad.safetensors"), bytes);
    try {
        vit::SafetensorsFile file(dir.path("bad.safetensors"));
        for (const auto& e : file.entries()) {
            std::vector<float> out(static_cast<size_t>(e.numel()));
            file.read_floats(e, out.data());
        }
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "no error";
}

static std::string entry(const std::string& name, const std::string& dtype, const std::string& shape,
                         const std::string& offsets) {
    return "\"" + name + "\":{\"dtype\":\"" + dtype + "\",\"shape\":" + shape + ",\"data_offsets\":" + offsets + "}";
}

TEST_CASE("a missing safetensors file is refused with its name and the reason") {
    CHECK_THROWS_WITH(vit::SafetensorsFile("/nonexistent/model.safetensors"),
                      Contains("cannot open '/nonexistent/model.safetensors': no such file or directory"));
}

TEST_CASE("a file too short for the header length is refused with its file name") {
    TempDir dir;
    const std::string message = error_of(dir, "abc");
    CHECK_THAT(message, Contains(dir.path("bad.safetensors")) && Contains("too short") && Contains("3 bytes"));
    CHECK_THAT(error_of(dir, ""), Contains("too short") && Contains("0 bytes"));
}

TEST_CASE("a truncated safetensors header is refused with its file name") {
    TempDir dir;
    const std::string full = safetensors_bytes("{" + entry("w", "F32", "[1]", "[0,4]") + "}", std::string(4, '\0'));
    const std::string message = error_of(dir, full.substr(0, 20));
    CHECK_THAT(message, Contains(dir.path("bad.safetensors")) && Contains("header length") &&
                            Contains("runs past the end of the file (20 bytes)") && Contains("truncated"));
}

TEST_CASE("an absurd safetensors header length is refused before anything is allocated") {
    TempDir dir;
    std::string bytes = safetensors_bytes("{}", "");
    for (int i = 0; i < 8; ++i) bytes[i] = '\xff';
    CHECK_THAT(error_of(dir, bytes), Contains(dir.path("bad.safetensors")) &&
                                         Contains("not a safetensors file (its first 8 bytes give a header length of "
                                                  "18446744073709551615 bytes, over the "
                                                  "limit of 100 MB)"));
}

TEST_CASE("a safetensors header that is not valid JSON is refused with the parser's position") {
    TempDir dir;
    CHECK_THAT(error_of(dir, safetensors_bytes("{\"w\": {\"dtype\": ", "")),
               Contains(dir.path("bad.safetensors")) && Contains("invalid JSON header") && Contains("line 1"));
    CHECK_THAT(error_of(dir, safetensors_bytes("[1, 2]", "")), Contains("not a JSON object"));
}

TEST_CASE("safetensors header entries that are not tensor descriptions are refused with the tensor's name") {
    TempDir dir;
    CHECK_THAT(error_of(dir, safetensors_bytes(R"({"w": 3})", "")),
               Contains("tensor 'w': header entry is not an object"));
    CHECK_THAT(error_of(dir, safetensors_bytes(R"({"w": {"shape": [1], "data_offsets": [0, 4]}})", std::string(4, 0))),
               Contains("tensor 'w': has no dtype"));
    CHECK_THAT(error_of(dir, safetensors_bytes("{" + entry("w", "F32", "[-1]", "[0,4]") + "}", std::string(4, 0))),
               Contains("tensor 'w': shape must be a list of non-negative integers"));
    CHECK_THAT(error_of(dir, safetensors_bytes("{" + entry("w", "F32", "[1]", "[-4,0]") + "}", std::string(4, 0))),
               Contains("tensor 'w': data_offsets must be two non-negative integers"));
    CHECK_THAT(error_of(dir, safetensors_bytes("{" + entry("w", "F32", "[1]", "[0]") + "}", std::string(4, 0))),
               Contains("data_offsets must be two non-negative integers"));
}

TEST_CASE("an unknown dtype is refused naming the dtype and the tensor") {
    TempDir dir;
    CHECK_THAT(
        error_of(dir, safetensors_bytes("{" + entry("blocks.0.attn.qkv.weight", "F128", "[1]", "[0,16]") + "}",
                                        std::string(16, 0))),
        Contains(dir.path("bad.safetensors")) && Contains("tensor 'blocks.0.attn.qkv.weight': unknown dtype 'F128'"));
}

TEST_CASE("an integer tensor is listed but refused when read as weights, naming its dtype") {
    TempDir dir;
    CHECK_THAT(error_of(dir, safetensors_bytes("{" + entry("ids", "I64", "[2]", "[0,16]") + "}", std::string(16, 0))),
               Contains("tensor 'ids' has dtype I64, which cannot be read as weights"));
}

TEST_CASE("offsets past the end of the data are refused with the offsets and the data size") {
    TempDir dir;
    const std::string bytes = safetensors_bytes(
        "{" + entry("blocks.0.attn.qkv.weight", "F32", "[300]", "[0,1200]") + "}", std::string(1024, 0));
    CHECK_THAT(error_of(dir, bytes),
               Contains(dir.path("bad.safetensors") + ": tensor 'blocks.0.attn.qkv.weight': offsets [0, 1200] run past "
                                                      "the end of the data (1024 bytes)"));
}

TEST_CASE("a shape that disagrees with the bytes its offsets hold is refused with both") {
    TempDir dir;
    const std::string bytes = safetensors_bytes("{" + entry("w", "F16", "[2,3]", "[0,8]") + "}", std::string(8, 0));
    CHECK_THAT(error_of(dir, bytes),
               Contains("tensor 'w': shape (2, 3) of F16 needs 12 bytes but offsets [0, 8] hold 8"));
}

TEST_CASE("offsets that run backwards or overlap another tensor are refused naming both tensors") {
    TempDir dir;
    CHECK_THAT(error_of(dir, safetensors_bytes("{" + entry("w", "F32", "[0]", "[8,4]") + "}", std::string(8, 0))),
               Contains("tensor 'w': offsets [8, 4] run backwards"));
    const std::string overlap =
        "{" + entry("a", "F32", "[2]", "[0,8]") + "," + entry("b", "F32", "[2]", "[4,12]") + "}";
    CHECK_THAT(error_of(dir, safetensors_bytes(overlap, std::string(12, 0))),
               Contains("tensors 'a' [0, 8] and 'b' [4, 12] overlap"));
}

TEST_CASE("a shape whose product overflows is refused instead of wrapping around") {
    TempDir dir;
    const std::string bytes = safetensors_bytes("{" + entry("w", "F32", "[4611686018427387904,4]", "[0,0]") + "}", "");
    CHECK_THAT(error_of(dir, bytes), Contains("tensor 'w': shape (4611686018427387904, 4) is too large"));
    const std::string huge_dim =
        safetensors_bytes("{" + entry("w", "F32", "[18446744073709551615]", "[0,0]") + "}", "");
    CHECK_THAT(error_of(dir, huge_dim), Contains("tensor 'w': shape") && Contains("is too large"));
}

TEST_CASE("a tensor named twice in the header is refused") {
    TempDir dir;
    const std::string twice = "{" + entry("w", "F32", "[1]", "[0,4]") + "," + entry("w", "F32", "[1]", "[4,8]") + "}";
    CHECK_THAT(error_of(dir, safetensors_bytes(twice, std::string(8, 0))),
               Contains(dir.path("bad.safetensors")) && Contains("tensor 'w' appears twice"));
    // One entry naming its dtype twice: the JSON library would keep the last, F16, and read 8 bytes as 4 halves.
    const std::string dtype_twice = R"({"w": {"dtype": "F32", "shape": [2], "dtype": "F16", "data_offsets": [0, 8]}})";
    CHECK_THAT(error_of(dir, safetensors_bytes(dtype_twice, std::string(8, 0))),
               Contains("tensor 'w' names its 'dtype' twice in the header"));
}

TEST_CASE("a folder given as a safetensors file is refused with its name") {
    TempDir dir;
    CHECK_THROWS_WITH(vit::SafetensorsFile(dir.path()),
                      Contains("cannot open '" + dir.path() + "': not a regular file (a folder)"));
}
