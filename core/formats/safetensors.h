// Reading safetensors files (https://github.com/huggingface/safetensors): an
// 8-byte little-endian header length, a JSON header {name: {dtype, shape,
// data_offsets}}, then the raw tensor bytes. The file is memory-mapped and
// validated as a whole before anything is allocated from its numbers; each
// tensor is then converted (F32, F16, BF16 → float32) straight into the
// caller's storage, the only copy; the header's `__metadata__` (text to text);
// and writing F32 files. Left out: reading integer dtypes (their entries are
// validated but reading them is refused).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/parameters.h"

namespace vit {

class MappedFile;

struct SafetensorsEntry {
    std::string name;
    std::string dtype;  // as the file spells it: "F32", "F16", "BF16", "I64", ...
    std::vector<int64_t> shape;
    size_t begin = 0, end = 0;  // byte offsets into the data section
    int64_t numel() const;
};

class SafetensorsFile {
public:
    // Maps and validates the whole file; throws vit::Error naming the file and
    // the tensor for every inconsistency.
    explicit SafetensorsFile(const std::string& path);
    // The same checks on a file already in memory; `bytes` must outlive this
    // object, and `name` stands for the file in messages.
    SafetensorsFile(const uint8_t* bytes, size_t size, const std::string& name);
    ~SafetensorsFile();

    const std::string& path() const { return path_; }
    const std::vector<SafetensorsEntry>& entries() const { return entries_; }
    const SafetensorsEntry* find(const std::string& name) const;
    // The header's `__metadata__` entries whose value is text (none when it has none).
    const std::map<std::string, std::string>& metadata() const { return metadata_; }

    // Writes the tensor's numel() values as float32 to `out`; throws vit::Error
    // for dtypes other than F32, F16 and BF16.
    void read_floats(const SafetensorsEntry& entry, float* out) const;

private:
    void parse(const uint8_t* bytes, size_t size);  // the one validation both constructors run

    std::string path_;
    std::unique_ptr<MappedFile> file_;
    const uint8_t* data_ = nullptr;  // start of the data section inside the file's bytes
    std::vector<SafetensorsEntry> entries_;
    std::unordered_map<std::string, size_t> index_;
    std::map<std::string, std::string> metadata_;
};

// Writes `tensors` as an F32 safetensors file in their order, `metadata` as the
// header's `__metadata__` when there is any (header padded with spaces to a
// multiple of 8 bytes); throws vit::Error naming the file.
void write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata = {});

}  // namespace vit
