// safetensors reading: header validation (safetensors' own Rust loader checks
// the same things: header bounds, JSON, dtype, shape × dtype size = offsets
// span, offsets inside the data, no overlaps) and F32/F16/BF16 → float32.
// Assumes a little-endian host, like the format itself.
#include "formats/safetensors.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <unordered_set>

#include "base/error.h"
#include "base/file_io.h"
#include "tensor/half.h"
#include "base/json_parse.h"
#include "tensor/tensor.h"

namespace vit {

using nlohmann::json;

namespace {

// Bytes per element of every dtype the format defines; 0 for names it does not.
size_t dtype_size(const std::string& dtype) {
    static const std::unordered_map<std::string, size_t> sizes = {
        {"F64", 8}, {"F32", 4}, {"F16", 2}, {"BF16", 2}, {"I64", 8},  {"I32", 4},     {"I16", 2},    {"I8", 1},
        {"U64", 8}, {"U32", 4}, {"U16", 2}, {"U8", 1},   {"BOOL", 1}, {"F8_E4M3", 1}, {"F8_E5M2", 1}};
    const auto it = sizes.find(dtype);
    return it == sizes.end() ? 0 : it->second;
}

std::string offsets_text(uint64_t begin, uint64_t end) {
    return "[" + std::to_string(begin) + ", " + std::to_string(end) + "]";
}

uint64_t read_le64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

// The JSON header, an object; refuses invalid JSON, a tensor named twice and an entry
// that names one of its own keys twice (the JSON library would silently keep the last).
json parse_header(const uint8_t* text, size_t size, const std::string& path) {
    if (size == 0 || text[0] != '{')  // safetensors' own loader checks the same first
        throw Error(path + ": not a safetensors file (the header after its 8-byte length is not a JSON object)");
    std::unordered_set<std::string> tensors, entry_keys;
    std::string tensor, duplicate;
    auto note_duplicates = [&](int depth, json::parse_event_t event, const json& parsed) {
        if (event != json::parse_event_t::key || !duplicate.empty()) return;
        const std::string key = parsed.get<std::string>();
        if (depth == 1) {
            tensor = key;
            entry_keys.clear();
            if (!tensors.insert(key).second) duplicate = "tensor '" + shortened(key) + "' appears twice in the header";
        } else if (depth == 2 && !entry_keys.insert(key).second) {
            duplicate = "tensor '" + shortened(tensor) + "' names its '" + shortened(key) + "' twice in the header";
        }
    };
    const json header = parse_json(text, text + size, path, "JSON header", note_duplicates);
    if (!duplicate.empty()) throw Error(path + ": " + duplicate);
    return header;
}

bool is_count(const json& v) { return v.is_number_unsigned(); }

// One header entry, checked against the data section's size.
SafetensorsEntry parse_entry(const std::string& name, const json& value, const std::string& path, size_t data_size) {
    const std::string where = path + ": tensor '" + shortened(name) + "': ";
    if (!value.is_object()) throw Error(where + "header entry is not an object");
    SafetensorsEntry e;
    e.name = name;

    const auto dtype = value.find("dtype");
    if (dtype == value.end() || !dtype->is_string()) throw Error(where + "has no dtype");
    e.dtype = dtype->get<std::string>();
    const size_t element_size = dtype_size(e.dtype);
    if (element_size == 0) throw Error(where + "unknown dtype '" + shortened(e.dtype) + "'");

    const auto shape = value.find("shape");
    if (shape == value.end() || !shape->is_array() || !std::all_of(shape->begin(), shape->end(), is_count))
        throw Error(where + "shape must be a list of non-negative integers");
    uint64_t bytes = element_size;
    bool overflow = false;
    for (const json& dim : *shape) {
        const uint64_t d = dim.get<uint64_t>();
        overflow = overflow || d > static_cast<uint64_t>(INT64_MAX) || __builtin_mul_overflow(bytes, d, &bytes);
        e.shape.push_back(static_cast<int64_t>(std::min<uint64_t>(d, INT64_MAX)));
    }
    if (overflow) throw Error(where + "shape " + shape_string(e.shape) + " is too large for any file");

    const auto offsets = value.find("data_offsets");
    if (offsets == value.end() || !offsets->is_array() || offsets->size() != 2 || !is_count((*offsets)[0]) ||
        !is_count((*offsets)[1]))
        throw Error(where + "data_offsets must be two non-negative integers");
    const uint64_t begin = (*offsets)[0].get<uint64_t>(), end = (*offsets)[1].get<uint64_t>();
    if (begin > end) throw Error(where + "offsets " + offsets_text(begin, end) + " run backwards");
    if (end > data_size)
        throw Error(where + "offsets " + offsets_text(begin, end) + " run past the end of the data (" +
                    std::to_string(data_size) + " bytes)");
    if (bytes != end - begin)
        throw Error(where + "shape " + shape_string(e.shape) + " of " + e.dtype + " needs " + std::to_string(bytes) +
                    " bytes but offsets " + offsets_text(begin, end) + " hold " + std::to_string(end - begin));
    e.begin = static_cast<size_t>(begin);
    e.end = static_cast<size_t>(end);
    return e;
}

void check_no_overlap(std::vector<SafetensorsEntry> entries, const std::string& path) {
    std::sort(entries.begin(), entries.end(),
              [](const SafetensorsEntry& a, const SafetensorsEntry& b) { return a.begin < b.begin; });
    const SafetensorsEntry* previous = nullptr;
    for (const SafetensorsEntry& e : entries) {
        if (e.begin == e.end) continue;  // empty tensors occupy no bytes
        if (previous && e.begin < previous->end)
            throw Error(path + ": tensors '" + shortened(previous->name) + "' " +
                        offsets_text(previous->begin, previous->end) + " and '" + shortened(e.name) + "' " +
                        offsets_text(e.begin, e.end) + " overlap");
        previous = &e;
    }
}

}  // namespace

int64_t SafetensorsEntry::numel() const {
    int64_t n = 1;
    for (int64_t d : shape) n *= d;  // bounded by the file size when parsed
    return n;
}

SafetensorsFile::SafetensorsFile(const std::string& path) : path_(path), file_(std::make_unique<MappedFile>(path)) {
    parse(file_->data(), file_->size());
}

SafetensorsFile::SafetensorsFile(const uint8_t* bytes, size_t size, const std::string& name) : path_(name) {
    parse(bytes, size);
}

void SafetensorsFile::parse(const uint8_t* bytes, size_t size) {
    const std::string& path = path_;
    if (size < 8)
        throw Error(path + ": too short for a safetensors header (" + std::to_string(size) + " bytes, need 8)");
    const uint64_t header_size = read_le64(bytes);
    if (header_size > kMaxSafetensorsHeaderBytes)
        throw Error(path + ": not a safetensors file (its first 8 bytes give a header length of " +
                    std::to_string(header_size) + " bytes, over the limit of " +
                    std::to_string(kMaxSafetensorsHeaderBytes / 1000000) + " MB)");
    if (header_size > size - 8)
        throw Error(path + ": header length " + std::to_string(header_size) + " runs past the end of the file (" +
                    std::to_string(size) + " bytes): the file is truncated or not safetensors");
    const json header = parse_header(bytes + 8, header_size, path);
    data_ = bytes + 8 + header_size;
    const size_t data_size = size - 8 - header_size;
    for (const auto& [name, value] : header.items()) {
        if (name == "__metadata__") {
            if (value.is_object())
                for (const auto& [key, text] : value.items())
                    if (text.is_string()) metadata_[key] = text.get<std::string>();
            continue;
        }
        index_.emplace(name, entries_.size());
        entries_.push_back(parse_entry(name, value, path, data_size));
    }
    check_no_overlap(entries_, path);
}

SafetensorsFile::~SafetensorsFile() = default;

const SafetensorsEntry* SafetensorsFile::find(const std::string& name) const {
    const auto it = index_.find(name);
    return it == index_.end() ? nullptr : &entries_[it->second];
}

template <float (*convert)(uint16_t)>
static void convert_16bit(const uint8_t* src, int64_t count, float* out) {
    for (int64_t i = 0; i < count; ++i) {
        uint16_t bits;
        std::memcpy(&bits, src + 2 * i, 2);  // the data section need not be aligned
        out[i] = convert(bits);
    }
}

void SafetensorsFile::read_floats(const SafetensorsEntry& entry, float* out) const {
    const uint8_t* src = data_ + entry.begin;
    if (entry.dtype == "F32") {
        if (entry.end > entry.begin) std::memcpy(out, src, entry.end - entry.begin);  // `out` may be null when empty
    } else if (entry.dtype == "F16") {
        convert_16bit<f16_to_f32>(src, entry.numel(), out);
    } else if (entry.dtype == "BF16") {
        convert_16bit<bf16_to_f32>(src, entry.numel(), out);
    } else {
        throw Error(path_ + ": tensor '" + shortened(entry.name) + "' has dtype " + entry.dtype +
                    ", which cannot be read as weights (F32, F16 or BF16)");
    }
}

void write_safetensors(const std::string& path, const std::vector<NamedTensor>& tensors,
                       const std::map<std::string, std::string>& metadata) {
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    size_t offset = 0;
    for (const NamedTensor& t : tensors) {
        const size_t bytes = t.tensor.data.size() * sizeof(float);
        header[t.name] = {{"dtype", "F32"}, {"shape", t.tensor.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    uint8_t length[8];
    for (int i = 0; i < 8; ++i) length[i] = static_cast<uint8_t>(static_cast<uint64_t>(text.size()) >> (8 * i));
    std::vector<ByteSpan> parts = {{length, 8}, {text.data(), text.size()}};
    for (const NamedTensor& t : tensors) parts.push_back({t.tensor.data.data(), t.tensor.data.size() * sizeof(float)});
    write_whole_file(path, parts);
}

}  // namespace vit
