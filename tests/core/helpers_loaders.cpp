// Test helpers for the loader tests (see helpers_loaders.h): files are built
// byte by byte here so each test can break exactly one thing.
#include "helpers_loaders.h"

#include <sys/wait.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "formats/checkpoint.h"
#include "base/error.h"

namespace vit_test {

namespace fs = std::filesystem;

TempDir::TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/vitviz-test-XXXXXX";
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
}

TempDir::~TempDir() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
}

void write_file(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path);
}

std::string read_file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

static std::string le_bytes(uint64_t value, int count) {
    std::string bytes;
    for (int i = 0; i < count; ++i) bytes += static_cast<char>((value >> (8 * i)) & 0xff);
    return bytes;
}

static std::string be_bytes(uint64_t value, int count) {
    std::string bytes;
    for (int i = count - 1; i >= 0; --i) bytes += static_cast<char>((value >> (8 * i)) & 0xff);
    return bytes;
}

std::string safetensors_bytes(const std::string& header_json, const std::string& data) {
    return le_bytes(header_json.size(), 8) + header_json + data;
}

std::string safetensors_bytes(const std::vector<FakeTensor>& tensors, const std::string& dtype) {
    nlohmann::json header = nlohmann::json::object();
    std::string data;
    for (const FakeTensor& t : tensors) {
        const size_t begin = data.size();
        for (float v : t.values) {
            uint32_t bits;
            std::memcpy(&bits, &v, 4);
            data += dtype == "BF16" ? le_bytes(bits >> 16, 2) : le_bytes(bits, 4);
        }
        header[t.name] = {{"dtype", dtype}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
    }
    header["__metadata__"] = {{"format", "pt"}};
    return safetensors_bytes(header.dump(), data);
}

static FakeTensor make_tensor(const std::string& name, std::vector<int64_t> shape, int seed) {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;
    FakeTensor t{name, std::move(shape), {}};
    for (int64_t i = 0; i < n; ++i) t.values.push_back(static_cast<float>((i * 37 + seed * 11) % 61 - 30) / 64.0f);
    return t;
}

std::vector<FakeTensor> tiny_timm_tensors(const TinyVit& v) {
    const int64_t D = v.D, M = v.mlp, T = 1 + v.grid * v.grid;
    std::vector<FakeTensor> ts;
    auto add = [&](const std::string& name, std::vector<int64_t> shape) {
        ts.push_back(make_tensor(name, std::move(shape), static_cast<int>(ts.size())));
    };
    add("cls_token", {1, 1, D});
    add("pos_embed", {1, T, D});
    add("patch_embed.proj.weight", {D, v.channels, v.patch, v.patch});
    add("patch_embed.proj.bias", {D});
    for (int i = 0; i < v.depth; ++i) {
        const std::string b = "blocks." + std::to_string(i) + ".";
        add(b + "norm1.weight", {D});
        add(b + "norm1.bias", {D});
        add(b + "attn.qkv.weight", {3 * D, D});
        if (v.qkv_bias) add(b + "attn.qkv.bias", {3 * D});
        add(b + "attn.proj.weight", {D, D});
        add(b + "attn.proj.bias", {D});
        add(b + "norm2.weight", {D});
        add(b + "norm2.bias", {D});
        add(b + "mlp.fc1.weight", {M, D});
        add(b + "mlp.fc1.bias", {M});
        add(b + "mlp.fc2.weight", {D, M});
        add(b + "mlp.fc2.bias", {D});
    }
    add("norm.weight", {D});
    add("norm.bias", {D});
    if (v.classes > 0) {
        add("head.weight", {v.classes, D});
        add("head.bias", {v.classes});
    }
    return ts;
}

// Rows [part·rows, (part+1)·rows) of a row-major tensor.
static FakeTensor rows_of(const FakeTensor& t, const std::string& name, int part, int64_t rows) {
    const int64_t cols = t.shape.size() == 2 ? t.shape[1] : 1;
    FakeTensor out{name, t.shape, {}};
    out.shape[0] = rows;
    out.values.assign(t.values.begin() + part * rows * cols, t.values.begin() + (part + 1) * rows * cols);
    return out;
}

std::vector<FakeTensor> tiny_hf_tensors(const TinyVit& v, const std::string& prefix) {
    static const std::vector<std::pair<std::string, std::string>> renames = {
        {"cls_token", "embeddings.cls_token"},
        {"pos_embed", "embeddings.position_embeddings"},
        {"patch_embed.proj.", "embeddings.patch_embeddings.projection."},
        {"norm1.", "layernorm_before."},
        {"attn.proj.", "attention.output.dense."},
        {"norm2.", "layernorm_after."},
        {"mlp.fc1.", "intermediate.dense."},
        {"mlp.fc2.", "output.dense."},
        {"norm.", "layernorm."}};
    std::vector<FakeTensor> out;
    for (const FakeTensor& t : tiny_timm_tensors(v)) {
        std::string name = t.name;
        if (name.rfind("head.", 0) == 0) {
            out.push_back({"classifier." + name.substr(5), t.shape, t.values});
            continue;
        }
        if (name.rfind("blocks.", 0) == 0) name = "encoder.layer." + name.substr(7);
        if (const size_t qkv = name.find("attn.qkv."); qkv != std::string::npos) {
            const char* parts[] = {"query", "key", "value"};
            for (int p = 0; p < 3; ++p)
                out.push_back(rows_of(
                    t, prefix + name.substr(0, qkv) + "attention.attention." + parts[p] + "." + name.substr(qkv + 9), p,
                    v.D));
            continue;
        }
        for (const auto& [from, to] : renames)
            if (const size_t at = name.find(from); at != std::string::npos && (at == 0 || name[at - 1] == '.')) {
                name.replace(at, from.size(), to);
                break;
            }
        out.push_back({prefix + name, t.shape, t.values});
    }
    return out;
}

std::string tiny_timm_config(const TinyVit& v, int heads) {
    const int size = v.grid * v.patch;
    nlohmann::json config = {{"architecture", "vit_test_patch" + std::to_string(v.patch) + "_" + std::to_string(size)},
                             {"num_classes", v.classes},
                             {"model_args",
                              {{"img_size", size},
                               {"patch_size", v.patch},
                               {"in_chans", v.channels},
                               {"embed_dim", v.D},
                               {"depth", v.depth},
                               {"num_heads", heads},
                               {"mlp_ratio", static_cast<double>(v.mlp) / v.D},
                               {"qkv_bias", v.qkv_bias},
                               {"num_classes", v.classes}}},
                             {"pretrained_cfg",
                              {{"input_size", {v.channels, size, size}},
                               {"interpolation", "bicubic"},
                               {"crop_pct", 0.875},
                               {"crop_mode", "center"},
                               {"mean", std::vector<double>(v.channels, 0.5)},
                               {"std", std::vector<double>(v.channels, 0.25)}}}};
    return config.dump(2);
}

FakeTensor& tensor_named(std::vector<FakeTensor>& tensors, const std::string& name) {
    for (FakeTensor& t : tensors)
        if (t.name == name) return t;
    throw std::runtime_error("no tensor " + name);
}

void erase_tensor(std::vector<FakeTensor>& tensors, const std::string& name) {
    tensors.erase(&tensor_named(tensors, name) - tensors.data() + tensors.begin());
}

void write_checkpoint(const std::string& dir, const std::vector<FakeTensor>& tensors, const std::string& config) {
    fs::create_directories(dir);
    write_file(dir + "/model.safetensors", safetensors_bytes(tensors));
    if (!config.empty()) write_file(dir + "/config.json", config);
}

static uint32_t crc32(const std::string& bytes) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    uint32_t c = 0xffffffffu;
    for (unsigned char b : bytes) c = table[(c ^ b) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

static std::string png_chunk(const std::string& type, const std::string& data) {
    return be_bytes(data.size(), 4) + type + data + be_bytes(crc32(type + data), 4);
}

// zlib stream of stored (uncompressed) deflate blocks.
static std::string zlib_stored(const std::string& raw) {
    std::string out = "\x78\x01";
    uint32_t a = 1, b = 0;
    for (unsigned char c : raw) a = (a + c) % 65521, b = (b + a) % 65521;
    size_t pos = 0;
    do {
        const size_t n = std::min<size_t>(raw.size() - pos, 65535);
        out += static_cast<char>(pos + n == raw.size() ? 1 : 0);
        out += le_bytes(n, 2) + le_bytes(~n & 0xffff, 2) + raw.substr(pos, n);
        pos += n;
    } while (pos < raw.size());
    return out + be_bytes((b << 16) | a, 4);
}

std::string png16_bytes(int width, int height, int components, const std::vector<uint16_t>& pixels) {
    static const int colour_type[] = {0, 0, 4, 2, 6};  // by component count: grey, grey+alpha, RGB, RGBA
    std::string raw;
    for (int y = 0; y < height; ++y) {
        raw += '\0';  // filter: none
        for (int i = 0; i < width * components; ++i) raw += be_bytes(pixels[y * width * components + i], 2);
    }
    const std::string header = be_bytes(width, 4) + be_bytes(height, 4) + static_cast<char>(16) +
                               static_cast<char>(colour_type[components]) + std::string(3, '\0');
    return "\x89PNG\r\n\x1a\n" + png_chunk("IHDR", header) + png_chunk("IDAT", zlib_stored(raw)) +
           png_chunk("IEND", "");
}

std::string png_inflating_to(int width, int height, size_t inflated) {
    const std::vector<Bytef> zeros(inflated, 0);
    std::vector<Bytef> packed(compressBound(static_cast<uLong>(inflated)));
    uLongf packed_size = static_cast<uLongf>(packed.size());
    compress2(packed.data(), &packed_size, zeros.data(), static_cast<uLong>(inflated), 9);
    const std::string header = be_bytes(width, 4) + be_bytes(height, 4) + std::string(1, '\x08') + std::string(4, '\0');
    return "\x89PNG\r\n\x1a\n" + png_chunk("IHDR", header) +
           png_chunk("IDAT", std::string(reinterpret_cast<const char*>(packed.data()), packed_size)) +
           png_chunk("IEND", "");
}

std::string gif_bytes(int width, int height, const std::vector<uint8_t>& indices,
                      const std::vector<uint8_t>& palette_rgb) {
    std::string palette = std::string(palette_rgb.begin(), palette_rgb.end());
    palette.resize(12, '\0');  // 4 colours
    std::string out = "GIF89a" + le_bytes(width, 2) + le_bytes(height, 2) + "\x91" + std::string(2, '\0') + palette;
    out += "\x2c" + le_bytes(0, 4) + le_bytes(width, 2) + le_bytes(height, 2) + std::string(1, '\0');
    // LZW with 3-bit codes: a clear code (4) before every two pixels keeps the
    // code size from growing; 5 ends the stream.
    std::vector<int> codes;
    for (size_t i = 0; i < indices.size(); ++i) {
        if (i % 2 == 0) codes.push_back(4);
        codes.push_back(indices[i]);
    }
    codes.push_back(5);
    std::string packed;
    uint32_t bits = 0;
    int count = 0;
    for (int code : codes) {
        bits |= static_cast<uint32_t>(code) << count;
        count += 3;
        while (count >= 8) packed += static_cast<char>(bits & 0xff), bits >>= 8, count -= 8;
    }
    if (count > 0) packed += static_cast<char>(bits & 0xff);
    out += '\x02';  // minimum code size
    for (size_t pos = 0; pos < packed.size(); pos += 255) {
        const std::string block = packed.substr(pos, 255);
        out += static_cast<char>(block.size()) + block;
    }
    return out + std::string(1, '\0') + "\x3b";
}

std::string checkpoint_error(const std::string& path) {
    try {
        vit::load_checkpoint(path);
    } catch (const vit::Error& e) {
        return e.what();
    }
    return "no error";
}

std::string checkpoint_error_of(const TempDir& dir, const std::vector<FakeTensor>& tensors, const std::string& config) {
    write_checkpoint(dir.path(), tensors, config);
    return checkpoint_error(dir.path());
}

int run_command(const std::string& command) {
    const int status = std::system(command.c_str());
    return status != -1 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

CliResult run_cli(const TempDir& dir, const std::string& args, const std::string& shell_prefix, int limit_s) {
    const int status = run_command(shell_prefix + "timeout " + std::to_string(limit_s) + " " + std::string(VITVIZ_CLI) +
                                   " " + args + " > " + dir.path("out.txt") + " 2> " + dir.path("err.txt"));
    return {status, read_file_text(dir.path("err.txt"))};
}

void check_cli_refuses(const TempDir& dir, const std::string& args, const std::string& expected,
                       const std::string& shell_prefix) {
    INFO("vitviz-cli " << args);
    const CliResult r = run_cli(dir, args, shell_prefix);
    CHECK(r.status == 1);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.size() < 500);
    CHECK_THAT(r.err, Catch::Matchers::Contains("vitviz-cli: ") && Catch::Matchers::Contains(expected));
}

}  // namespace vit_test
