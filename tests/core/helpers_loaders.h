// Test helpers for the loader tests: temporary folders, raw file writing, and
// small valid safetensors files and ViT checkpoints built in C++ that the
// tests then corrupt one way at a time.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vit_test {

// A fresh folder under $TMPDIR (or /tmp), removed with its contents on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    std::string path(const std::string& name = "") const { return name.empty() ? dir_ : dir_ + "/" + name; }

private:
    std::string dir_;
};

void write_file(const std::string& path, const std::string& bytes);
std::string read_file_text(const std::string& path);

// A safetensors file from its JSON header text and data section, as written
// on disk: 8-byte little-endian length, header, data.
std::string safetensors_bytes(const std::string& header_json, const std::string& data);

struct FakeTensor {
    std::string name;
    std::vector<int64_t> shape;
    std::vector<float> values;  // numel values; exact in BF16 when written as BF16
};
// A valid file holding `tensors` as F32 or BF16 (BF16 by truncation: give exact values).
std::string safetensors_bytes(const std::vector<FakeTensor>& tensors, const std::string& dtype = "F32");

// A small timm ViT: embed_dim D, 3 channels, 2×2 patches, a 2×2 patch grid
// (8×8 images), `depth` blocks, MLP 2·D, `classes` classes (0: no head).
// Values are k/64 for small integers k (exact in F16 and BF16).
struct TinyVit {
    int D = 8, channels = 3, patch = 2, grid = 2, depth = 2, mlp = 16, classes = 3;
    bool qkv_bias = true;
};
std::vector<FakeTensor> tiny_timm_tensors(const TinyVit& v = {});
// The same weights under Hugging Face ViTForImageClassification names
// (query/key/value split from qkv), with `prefix` before the encoder keys.
std::vector<FakeTensor> tiny_hf_tensors(const TinyVit& v = {}, const std::string& prefix = "vit.");
// timm's config.json for `v` (model_args and pretrained_cfg).
std::string tiny_timm_config(const TinyVit& v = {}, int heads = 2);

FakeTensor& tensor_named(std::vector<FakeTensor>& tensors, const std::string& name);
void erase_tensor(std::vector<FakeTensor>& tensors, const std::string& name);

// Writes `dir`/model.safetensors (and config.json when `config` is not empty).
void write_checkpoint(const std::string& dir, const std::vector<FakeTensor>& tensors, const std::string& config = "");

// The vit::Error message of loading the checkpoint at `path`, or "no error".
std::string checkpoint_error(const std::string& path);
// The same for a checkpoint of `tensors` (and `config`) written into `dir`.
std::string checkpoint_error_of(const TempDir& dir, const std::vector<FakeTensor>& tensors,
                                const std::string& config = "");

// Image files built in memory: pixels interleaved, `components` per pixel.
std::string png16_bytes(int width, int height, int components, const std::vector<uint16_t>& pixels);
// An 8-bit grey PNG of `width`×`height` whose IDAT is zlib's compression of `inflated` zero bytes.
std::string png_inflating_to(int width, int height, size_t inflated);
// A GIF of indices into a palette of up to 4 RGB colours.
std::string gif_bytes(int width, int height, const std::vector<uint8_t>& indices,
                      const std::vector<uint8_t>& palette_rgb);

// Runs a shell command; returns its exit status (-1 when it did not exit normally).
int run_command(const std::string& command);

struct CliResult {
    int status;
    std::string err;
};

// vitviz-cli with `args`, stopped after `limit_s` (status 124) should it hang; the shell
// runs `shell_prefix` first (e.g. "ulimit -f 2; ").
CliResult run_cli(const TempDir& dir, const std::string& args, const std::string& shell_prefix = "", int limit_s = 20);
// Checks that vitviz-cli refuses `args` with exit status 1 and one short line holding `expected`.
void check_cli_refuses(const TempDir& dir, const std::string& args, const std::string& expected,
                       const std::string& shell_prefix = "");

}  // namespace vit_test
