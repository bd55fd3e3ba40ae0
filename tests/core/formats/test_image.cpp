// Images: every format and bit depth decodes to the same floats; resizing is
// PIL's antialiased filter (checked against numbers worked out by hand); the
// whole preprocessing equals PyTorch's on the fixtures; bad files are refused.
#include <stb/stb_image_write.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "formats/checkpoint.h"
#include "base/error.h"
#include "helpers_loaders.h"
#include "formats/image.h"
#include "formats/npy.h"

using namespace vit_test;
using Catch::Matchers::Contains;

namespace {

constexpr int kW = 5, kH = 3;

// A 5×3 RGBA test pattern with distinct 8-bit values in every channel.
std::vector<uint8_t> rgba_pattern() {
    std::vector<uint8_t> p;
    for (int i = 0; i < kW * kH; ++i)
        p.insert(p.end(), {static_cast<uint8_t>(i * 17), static_cast<uint8_t>(255 - i * 13),
                           static_cast<uint8_t>((i * 71) % 256), static_cast<uint8_t>(i * 5)});
    return p;
}

// The first `components` channels of each RGBA pixel (grey: the red channel).
std::vector<uint8_t> take_components(const std::vector<uint8_t>& rgba, int components) {
    std::vector<uint8_t> out;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        if (components <= 2) out.push_back(rgba[i]);
        if (components == 2) out.push_back(rgba[i + 3]);
        for (int c = 0; c < components && components >= 3; ++c) out.push_back(rgba[i + c]);
    }
    return out;
}

void append_bytes(void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<size_t>(size));
}

std::string encode(const char* format, const std::vector<uint8_t>& pixels, int components) {
    std::string out;
    const std::string f = format;
    if (f == "png") stbi_write_png_to_func(append_bytes, &out, kW, kH, components, pixels.data(), kW * components);
    if (f == "bmp") stbi_write_bmp_to_func(append_bytes, &out, kW, kH, components, pixels.data());
    if (f == "tga") stbi_write_tga_to_func(append_bytes, &out, kW, kH, components, pixels.data());
    if (f == "jpg") stbi_write_jpg_to_func(append_bytes, &out, kW, kH, components, pixels.data(), 100);
    return out;
}

vit::Image decode(const std::string& bytes, int channels = 3) {
    return vit::decode_image(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "test image", channels);
}

// The expected C×H×W floats of interleaved 8-bit pixels: grey replicated, alpha dropped.
vit::Image expected_rgb(const std::vector<uint8_t>& pixels, int components) {
    vit::Image img{3, kH, kW, std::vector<float>(3 * kH * kW)};
    for (int i = 0; i < kH * kW; ++i)
        for (int c = 0; c < 3; ++c)
            img.data[c * kH * kW + i] = pixels[i * components + (components <= 2 ? 0 : c)] / 255.0f;
    return img;
}

vit::Image row_image(std::vector<float> values) {
    const int w = static_cast<int>(values.size());
    return vit::Image{1, 1, w, std::move(values)};
}

std::string error_of(const std::string& bytes, const std::string& name = "test image") {
    try {
        vit::decode_image(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), name, 3);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "no error";
}

}  // namespace

TEST_CASE("PNG, BMP and TGA of the same pixels decode to the same floats for grey, grey+alpha, RGB and RGBA") {
    const std::vector<uint8_t> rgba = rgba_pattern();
    for (int components : {1, 2, 3, 4}) {
        const std::vector<uint8_t> pixels = take_components(rgba, components);
        const vit::Image expected = expected_rgb(pixels, components);
        for (const char* format : {"png", "bmp", "tga"}) {
            if (std::string(format) == "bmp" && components == 2) continue;  // BMP has no grey+alpha
            INFO(format << " with " << components << " components");
            const vit::Image img = decode(encode(format, pixels, components));
            REQUIRE(img.channels == 3);
            REQUIRE(img.height == kH);
            REQUIRE(img.width == kW);
            CHECK(img.data == expected.data);
        }
    }
}

TEST_CASE("16-bit PNGs decode to the same floats as the 8-bit pixels they widen") {
    const std::vector<uint8_t> rgba = rgba_pattern();
    for (int components : {1, 2, 3, 4}) {
        INFO(components << " components");
        const std::vector<uint8_t> pixels = take_components(rgba, components);
        std::vector<uint16_t> wide;
        for (uint8_t v : pixels) wide.push_back(static_cast<uint16_t>(v * 257));
        const vit::Image img = decode(png16_bytes(kW, kH, components, wide));
        const vit::Image expected = expected_rgb(pixels, components);
        REQUIRE(img.data.size() == expected.data.size());
        for (size_t i = 0; i < img.data.size(); ++i) CHECK(img.data[i] == Approx(expected.data[i]).margin(1e-7));
    }
}

TEST_CASE("a GIF's first frame decodes to its palette colours") {
    const std::vector<uint8_t> palette = {255, 0, 0, 0, 128, 0, 0, 0, 255, 10, 20, 30};
    const std::vector<uint8_t> indices = {0, 1, 2, 3, 3, 2, 1, 0, 1, 1, 2, 2};  // 4×3
    const vit::Image img = decode(gif_bytes(4, 3, indices, palette));
    REQUIRE(img.channels == 3);
    REQUIRE(img.width == 4);
    REQUIRE(img.height == 3);
    for (int i = 0; i < 12; ++i)
        for (int c = 0; c < 3; ++c) CHECK(img.data[c * 12 + i] == palette[indices[i] * 3 + c] / 255.0f);
}

TEST_CASE("a JPEG decodes close to the pixels it was saved from") {
    const std::vector<uint8_t> pixels = take_components(rgba_pattern(), 3);
    const vit::Image img = decode(encode("jpg", pixels, 3));
    REQUIRE(img.width == kW);
    REQUIRE(img.height == kH);
    const vit::Image expected = expected_rgb(pixels, 3);
    double total = 0;
    for (size_t i = 0; i < img.data.size(); ++i) total += std::fabs(img.data[i] - expected.data[i]);
    CHECK(total / img.data.size() < 0.05);  // lossy, and chroma is subsampled
}

TEST_CASE("a 1-channel model gets PIL's 'L' luma of RGB images and grey images unchanged") {
    const std::vector<uint8_t> rgb = take_components(rgba_pattern(), 3);
    const vit::Image luma = decode(encode("png", rgb, 3), 1);
    REQUIRE(luma.channels == 1);
    for (int i = 0; i < kW * kH; ++i)
        CHECK(luma.data[i] ==
              Approx((rgb[3 * i] * 299 + rgb[3 * i + 1] * 587 + rgb[3 * i + 2] * 114) / 1000.0 / 255.0).margin(1e-6));
    const std::vector<uint8_t> grey = take_components(rgba_pattern(), 1);
    const vit::Image same = decode(encode("png", grey, 1), 1);
    for (int i = 0; i < kW * kH; ++i) CHECK(same.data[i] == grey[i] / 255.0f);
}

TEST_CASE("an RGB image turns grey by the same luma as decoding, and grey turns RGB by copying") {
    vit::Image rgb;
    rgb.channels = 3;
    rgb.height = rgb.width = 1;
    rgb.data = {0.3f, 0.6f, 0.9f};
    const vit::Image grey = vit::with_channels(rgb, 1);
    REQUIRE(grey.channels == 1);
    REQUIRE(grey.data[0] == Approx(0.3f * 0.299f + 0.6f * 0.587f + 0.9f * 0.114f));
    const vit::Image back = vit::with_channels(grey, 3);
    REQUIRE(back.channels == 3);
    REQUIRE(back.data == std::vector<float>(3, grey.data[0]));
    REQUIRE_THROWS_AS(vit::with_channels(rgb, 2), vit::Error);
}

TEST_CASE("bilinear downscaling averages with PIL's widened triangle filter (worked by hand)") {
    // 4 → 2: scale 2, support 2; output 0 centred at 1.0 reads inputs 0..2 with
    // triangle(0.25), triangle(0.25), triangle(0.75) ∝ 3, 3, 1; output 1 reads 1..3 ∝ 1, 3, 3.
    const vit::Image out = vit::resize(row_image({0, 1, 2, 3}), 1, 2, "bilinear");
    REQUIRE(out.width == 2);
    CHECK(out.data[0] == Approx(5.0 / 7.0).epsilon(1e-6));
    CHECK(out.data[1] == Approx(16.0 / 7.0).epsilon(1e-6));
}

TEST_CASE("bicubic upscaling uses PIL's a = -0.5 kernel renormalised at the borders (worked by hand)") {
    // 2 → 4: output 0 centred at 0.25 reads inputs 0, 1 with cubic(0.25) = 0.8671875 and
    // cubic(1.25) = -0.0703125; output 1 centred at 0.75: cubic(0.25), cubic(0.75) = 0.2265625.
    const double out0 = -0.0703125 / (0.8671875 - 0.0703125), out1 = 0.2265625 / (0.8671875 + 0.2265625);
    const vit::Image row = vit::resize(row_image({0, 1}), 1, 4, "bicubic");
    const std::vector<double> expected = {out0, out1, 1 - out1, 1 - out0};
    for (int i = 0; i < 4; ++i) CHECK(row.data[i] == Approx(expected[i]).epsilon(1e-6));
    // The same along the vertical axis, in every channel.
    const vit::Image column = vit::resize(vit::Image{2, 2, 1, {0, 1, 10, 20}}, 4, 1, "bicubic");
    REQUIRE(column.channels == 2);
    for (int i = 0; i < 4; ++i) {
        CHECK(column.data[i] == Approx(expected[i]).epsilon(1e-6));
        CHECK(column.data[4 + i] == Approx(10 + 10 * expected[i]).epsilon(1e-6));
    }
}

TEST_CASE("resizing keeps a constant image constant at any scale") {
    for (const char* interpolation : {"bilinear", "bicubic"})
        for (int out : {1, 3, 7, 13, 40}) {
            const vit::Image img =
                vit::resize(vit::Image{3, 9, 11, std::vector<float>(3 * 9 * 11, 0.25f)}, out, out + 2, interpolation);
            for (float v : img.data) CHECK(v == Approx(0.25f).margin(1e-6));
        }
    CHECK_THROWS_WITH(vit::resize(row_image({0, 1}), 1, 4, "lanczos"), Contains("interpolation 'lanczos'"));
}

TEST_CASE("the centre crop rounds its offset half to even, like torchvision") {
    std::vector<float> values(9 * 9);
    for (int i = 0; i < 81; ++i) values[i] = static_cast<float>(i);
    const vit::Image img{1, 9, 9, values};
    CHECK(vit::center_crop(img, 4, 4).data[0] == 2 * 9 + 2);  // (9 - 4) / 2 = 2.5 → 2
    CHECK(vit::center_crop(img, 2, 6).data[0] == 4 * 9 + 2);  // 3.5 → 4, 1.5 → 2
}

TEST_CASE("preprocessing resizes the shorter side to size / crop_pct, crops and normalises") {
    const vit::Image img{1, 20, 30, std::vector<float>(600, 0.75f)};
    vit::Preprocess pre;
    pre.image_size = 8;
    pre.crop_pct = 0.5f;
    pre.mean = {0.5f};
    pre.std = {0.25f};
    const vit::Tensor x = vit::preprocess(img, pre);
    CHECK(x.shape == std::vector<int64_t>{1, 8, 8});
    for (float v : x.data) CHECK(v == Approx(1.0f).margin(1e-5));
    CHECK(vit::preprocess(img, pre, 4).shape == std::vector<int64_t>{1, 4, 4});
    CHECK_THROWS_WITH(vit::preprocess(vit::Image{3, 4, 4, std::vector<float>(48)}, pre),
                      Contains("3 channels but the model expects 1"));
}

TEST_CASE("preprocessing as each fixture's config says equals PyTorch's (resize, crop, normalise)") {
    namespace fs = std::filesystem;
    const fs::path fixtures = VITVIZ_FIXTURES;
    if (!fs::exists(fixtures)) return;
    int compared = 0;
    for (const auto& entry : fs::directory_iterator(fixtures)) {
        const fs::path dir = entry.path();
        if (!fs::exists(dir / "expected" / "input.npy")) continue;
        INFO("fixture " << dir.filename());
        const auto meta = nlohmann::json::parse(read_file_text((dir / "expected" / "meta.json").string()));
        // A fixture without weights of its own names its model folder (digits_sample: assets/digits).
        const fs::path model_dir =
            meta.contains("model_dir") ? fixtures / ".." / ".." / meta["model_dir"].get<std::string>() : dir;
        const vit::Preprocess pre = vit::load_checkpoint(model_dir.string()).config.preprocess;
        const vit::Image img = vit::load_image((dir / "image.png").string(), meta["channels"].get<int>());
        const vit::Tensor x = vit::preprocess(img, pre, meta["image_size"].get<int>());
        const vit::Tensor expected = vit::read_npy((dir / "expected" / "input.npy").string());
        REQUIRE(x.shape == expected.shape);
        float worst = 0;
        size_t where = 0;
        for (size_t i = 0; i < x.data.size(); ++i)
            if (std::fabs(x.data[i] - expected.data[i]) > worst)
                worst = std::fabs(x.data[i] - expected.data[i]), where = i;
        INFO("max |difference| " << worst << " at flat index " << where);
        CHECK(worst <= 1e-5f);
        ++compared;
    }
    CHECK(compared >= 1);
}

TEST_CASE("a missing image file is refused with its name and the reason") {
    CHECK_THROWS_WITH(vit::load_image("/nonexistent/cat.png"),
                      Contains("cannot open '/nonexistent/cat.png': no such file or directory"));
}

TEST_CASE("a file that is not an image is refused with its name and stb_image's reason") {
    CHECK_THAT(error_of("just some text, not pixels", "notes.txt"),
               Contains("notes.txt: not an image") && Contains("unknown image type"));
    CHECK_THAT(error_of("", "empty.png"), Contains("empty.png: not an image"));
}

TEST_CASE("a truncated image is refused with its name and the reason") {
    const std::string png = encode("png", take_components(rgba_pattern(), 3), 3);
    CHECK_THAT(error_of(png.substr(0, png.size() / 2), "cut.png"),
               Contains("cut.png: PNG chunk IDAT runs past the end of the file (truncated)"));
    const std::string wide = png16_bytes(kW, kH, 3, std::vector<uint16_t>(kW * kH * 3, 1000));
    CHECK_THAT(error_of(wide.substr(0, wide.size() - 30), "cut16.png"),
               Contains("cut16.png: PNG chunk IDAT runs past"));
}

TEST_CASE("an image with a side of zero pixels is refused (a BMP stb_image accepts, found by fuzz_image)") {
    std::string bmp = encode("bmp", take_components(rgba_pattern(), 3), 3);
    bmp.replace(18, 4, std::string(4, '\0'));  // BITMAPINFOHEADER width
    CHECK_THAT(error_of(bmp, "flat.bmp"), Contains("flat.bmp: the image has no pixels (0×3)"));
}

TEST_CASE("PSD, PIC, PNM and HDR files, which stb_image also reads, are refused by their signature") {
    // A PNM header whose width overflows stb_image's int parser (found by fuzz_image).
    CHECK_THAT(error_of("P6 " + std::string(80, '2') + " 2\n255\n", "long.ppm"),
               Contains("long.ppm: PNM images are not supported (PNG, JPEG, BMP, GIF, TGA)"));
    CHECK_THAT(error_of("P5\n1 1\n255\n\x01", "grey.pgm"), Contains("grey.pgm: PNM images are not supported"));
    CHECK_THAT(error_of("8BPS\x00\x01", "layers.psd"), Contains("layers.psd: PSD images are not supported"));
    CHECK_THAT(error_of("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n\x80\x80\x80\x80", "sky.hdr"),
               Contains("sky.hdr: Radiance HDR images are not supported"));
    CHECK_THAT(error_of("\x53\x80\xF6\x34", "old.pic"), Contains("old.pic: Softimage PIC images are not supported"));
}

// The JPEGs below made Debian 12's stb_image (2.27) write past its arrays or read uninitialised memory (found
// by fuzz_image); JPEG now goes to libjpeg-turbo, and each is one message naming the file.
static const char* const kCorruptJpeg = ": cannot decode the image (truncated or corrupt): ";

TEST_CASE("a JPEG Huffman table of over 256 codes is one message (stb_image 2.27 overflowed on it)") {
    const std::string start = "\xFF\xD8\xFF\xC4";  // start of image, DHT
    const std::string table_257 = std::string("\x00\x13\x00\xFF\x02", 5) + std::string(14, '\0');  // length, id, counts
    CHECK_THAT(error_of(start + table_257 + "\xFF\xD9", "big.jpg"),
               Contains(std::string("big.jpg") + kCorruptJpeg + "Bogus Huffman table definition"));
    // stb_image skips fill bytes before the start of image, so these are JPEGs too and never reach it.
    CHECK_THAT(error_of("\xFF\xFF" + start + table_257 + "\xFF\xD9", "filled.jpg"),
               Contains(std::string("filled.jpg") + kCorruptJpeg + "Bogus Huffman table definition"));
    const std::string comment_then_junk("\xFF\xD8\xFF\xFE\x00\x02junk\xFF\xC4", 12);
    CHECK_THAT(error_of(comment_then_junk + table_257 + "\xFF\xD9", "junk.jpg"),
               Contains(std::string("junk.jpg") + kCorruptJpeg + "Bogus Huffman table definition"));
    // fuzz_image's reproducer: in the entropy-coded data, 0xFF 0xFF 0x00 is a stuffed 0xFF, and a DHT follows.
    const std::string path = std::string(VITVIZ_FIXTURES) + "/../fuzz/regressions/huffman_after_stuffed_ff.jpg";
    CHECK_THROWS_WITH(vit::load_image(path), Contains(std::string("huffman_after_stuffed_ff.jpg") + kCorruptJpeg));
    // stb_image read a table's 16 counts even past the segment's end: here the second table's run into what
    // follows. The segment: table 0 (id, counts: one code, the code), then table 1's id.
    const std::string one_code = std::string("\x00\x01", 2) + std::string(15, '\0') + std::string(2, '\0');
    CHECK_THAT(error_of(start + std::string("\x00\x15", 2) + one_code + "\xFF\xFF\xFF\xD9", "past.jpg"),
               Contains(std::string("past.jpg") + kCorruptJpeg + "Bogus marker length"));
}

// `jpeg` without its first segment of type `marker` (the segments before the first scan only).
static std::string without_segment(std::string jpeg, unsigned char marker) {
    size_t at = 2;  // after the start of image
    while (at + 4 <= jpeg.size() && static_cast<unsigned char>(jpeg[at + 1]) != marker)
        at += 2 + (static_cast<unsigned char>(jpeg[at + 2]) << 8 | static_cast<unsigned char>(jpeg[at + 3]));
    REQUIRE(at + 4 <= jpeg.size());
    const size_t length = static_cast<unsigned char>(jpeg[at + 2]) << 8 | static_cast<unsigned char>(jpeg[at + 3]);
    return jpeg.erase(at, 2 + length);
}

TEST_CASE("a JPEG scan that uses a table the file never defined (stb_image 2.27 read uninitialised memory)") {
    // fuzz_image's reproducer: a baseline scan names Huffman table AC 0 before any DHT defines it.
    const std::string path =
        std::string(VITVIZ_FIXTURES) + "/../fuzz/regressions/scan_with_undefined_huffman_table.jpg";
    CHECK_THROWS_WITH(vit::load_image(path),
                      Contains(std::string("scan_with_undefined_huffman_table.jpg") + kCorruptJpeg));
    const std::string jpeg = encode("jpg", take_components(rgba_pattern(), 3), 3);  // baseline: DQT, SOF0, DHT, SOS
    const vit::Image original = decode(jpeg);
    CHECK(original.width == kW);
    // Without quantisation tables the coefficients mean nothing: refused.
    CHECK_THAT(error_of(without_segment(jpeg, 0xDB), "no_dqt.jpg"),
               Contains(std::string("no_dqt.jpg") + kCorruptJpeg + "Quantization table 0x00 was not defined"));
    // Without Huffman tables libjpeg-turbo (and so PIL) uses the standard ones of the JPEG specification, which
    // are the ones PIL wrote: the same picture.
    CHECK(decode(without_segment(jpeg, 0xC4)).data == original.data);
    // A progressive JPEG (written by PIL) defines only the tables each scan needs. It decodes.
    const vit::Image progressive = vit::load_image(std::string(VITVIZ_FIXTURES) + "/progressive.jpg");
    CHECK((progressive.channels == 3 && progressive.width == 16 && progressive.height == 12));
}

TEST_CASE(
    "a progressive JPEG whose scan data runs into a marker is one message (stb_image 2.27 shifted its bit "
    "buffer by 32 on it, libjpeg-turbo would fill the rest with grey, which is refused)") {
    const std::string path = std::string(VITVIZ_FIXTURES) + "/../fuzz/regressions/progressive_scan_into_a_marker.jpg";
    CHECK_THROWS_WITH(vit::load_image(path), Contains(std::string("progressive_scan_into_a_marker.jpg") + kCorruptJpeg +
                                                      "Corrupt JPEG data: premature end of data segment"));
}

TEST_CASE("a JPEG cut short is refused, not filled in with grey") {
    const std::string jpeg = encode("jpg", take_components(rgba_pattern(), 3), 3);
    CHECK_THAT(error_of(jpeg.substr(0, jpeg.size() * 2 / 3), "cut.jpg"),
               Contains(std::string("cut.jpg") + kCorruptJpeg + "Premature end of JPEG file"));
}

// A JPEG of `width`×`height` pixels, 8×8 at most, with `components` components (1×1 sampling) whose one
// block each is flat, so every sample is 128. One-symbol Huffman tables make a block of a baseline scan two '0'
// bits (DC category 0, end of block) and of a progressive DC scan one. `scans` progressive DC scans repeat the
// first; `adobe` adds Adobe's APP14 marker (transform 0: inverted CMYK for 4 components).
static std::string flat_jpeg(int width, int height, int components, bool progressive, int scans = 1,
                             bool adobe = false) {
    const auto segment = [](unsigned char marker, const std::string& body) {
        const size_t length = body.size() + 2;
        return std::string{'\xFF', static_cast<char>(marker), static_cast<char>(length >> 8),
                           static_cast<char>(length & 255)} +
               body;
    };
    std::string jpeg = "\xFF\xD8";
    if (adobe) jpeg += segment(0xEE, std::string("Adobe\x00\x64\x00\x00\x00\x00\x00", 12));
    jpeg += segment(0xDB, std::string(1, '\0') + std::string(64, '\x01'));
    std::string frame{8,
                      static_cast<char>(height >> 8),
                      static_cast<char>(height & 255),
                      static_cast<char>(width >> 8),
                      static_cast<char>(width & 255),
                      static_cast<char>(components)};
    std::string scan_header(1, static_cast<char>(components));
    for (int c = 1; c <= components; ++c) {
        frame += std::string{static_cast<char>(c), '\x11', '\0'};
        scan_header += std::string{static_cast<char>(c), '\0'};
    }
    jpeg += segment(progressive ? 0xC2 : 0xC0, frame);
    const std::string one_symbol = std::string(1, '\x01') + std::string(15, '\0') + std::string(1, '\0');
    jpeg += segment(0xC4, '\0' + one_symbol) + segment(0xC4, '\x10' + one_symbol);
    scan_header += progressive ? std::string(3, '\0') : std::string("\x00\x3F\x00", 3);
    const int bits = (progressive ? 1 : 2) * components;
    for (int scan = 0; scan < (progressive ? scans : 1); ++scan)
        jpeg += segment(0xDA, scan_header) + static_cast<char>((1 << (8 - bits)) - 1);
    return jpeg + "\xFF\xD9";
}

TEST_CASE("grey and CMYK JPEGs decode as PIL reads them") {
    const vit::Image grey = decode(flat_jpeg(8, 8, 1, false), 1);
    REQUIRE((grey.channels == 1 && grey.width == 8 && grey.height == 8));
    CHECK(grey.data == std::vector<float>(64, 128 / 255.0f));
    // CMYK inks of 128 on white: (255 − 128)(255 − 128) / 255 = 63. Adobe's files store inks inverted
    // (PIL's "CMYK;I"): 128 · 128 / 255 = 64.
    const vit::Image cmyk = decode(flat_jpeg(4, 4, 4, false));
    REQUIRE((cmyk.channels == 3 && cmyk.width == 4 && cmyk.height == 4));
    CHECK(cmyk.data == std::vector<float>(48, 63 / 255.0f));
    CHECK(decode(flat_jpeg(4, 4, 4, false, 1, true)).data == std::vector<float>(48, 64 / 255.0f));
}

TEST_CASE("a JPEG header claiming 10000×10000 pixels is refused before decoding") {
    CHECK_THAT(error_of(flat_jpeg(10000, 10000, 3, false), "huge.jpg"),
               Contains("huge.jpg: header claims 10000×10000 pixels, over the limit of 64 megapixels"));
}

TEST_CASE("a progressive JPEG of more than 500 scans is refused (each scan walks the whole image again)") {
    CHECK(decode(flat_jpeg(8, 8, 1, true, 3)).data == std::vector<float>(3 * 64, 128 / 255.0f));
    CHECK(decode(flat_jpeg(8, 8, 1, true, 500)).width == 8);
    CHECK_THAT(error_of(flat_jpeg(8, 8, 1, true, 501), "scans.jpg"),
               Contains(std::string("scans.jpg") + kCorruptJpeg + "more than 500 scans"));
}

// A 1×1 PNG whose header claims `side`×`side` pixels, with no data for them.
static std::string png_claiming(const std::string& side_big_endian) {
    std::string png = png16_bytes(1, 1, 1, {0});
    png.replace(16, 4, side_big_endian);  // IHDR width
    png.replace(20, 4, side_big_endian);  // IHDR height
    return png;
}

TEST_CASE("a PNG header claiming 100000×100000 pixels is refused before decoding") {
    CHECK_THAT(error_of(png_claiming(std::string("\x00\x01\x86\xa0", 4)), "huge.png"),
               Contains("huge.png: header claims 100000×100000 pixels, over the limit of 64 megapixels"));
    CHECK_THAT(error_of(png_claiming(std::string("\x00\x00\x27\x10", 4)), "big.png"),
               Contains("big.png: header claims 10000×10000 pixels, over the limit of 64 megapixels"));
    // Sides near 2³² (found by fuzz_image): their product does not fit in 64 bits.
    CHECK_THAT(error_of(png_claiming(std::string("\xfd\xfd\xfd\xfd", 4)), "vast.png"),
               Contains("vast.png: header claims 4261281277×4261281277 pixels, over the limit of 64 megapixels"));
}

TEST_CASE("a picture a browser decoded to RGBA gives what decoding its PNG gives, and a bad size is one message") {
    const std::vector<uint8_t> rgba = rgba_pattern();
    for (int channels : {1, 3}) {
        const vit::Image ours = vit::image_from_rgba(rgba.data(), kW, kH, "chosen.webp", channels);
        const vit::Image png = decode(encode("png", rgba, 4), channels);
        CHECK(ours.data == png.data);
        CHECK((ours.channels == channels && ours.width == kW && ours.height == kH));
    }
    CHECK_THROWS_WITH(vit::image_from_rgba(rgba.data(), 0, kH, "chosen.webp"), Contains("chosen.webp: 0×"));
    CHECK_THROWS_WITH(vit::image_from_rgba(rgba.data(), 100000, 100000, "huge.png"),
                      Contains("huge.png: 100000×100000 pixels, not between 1 and 64 megapixels"));
    CHECK_THROWS_WITH(vit::image_from_rgba(rgba.data(), kW, kH, "x.png", 4), Contains("4 channels"));
}
