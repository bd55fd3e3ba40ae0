// Walks a PNG's chunks (length, type, data, CRC over type and data) and checks each CRC.
#include "formats/png_chunks.h"

#include <zlib.h>

#include <cstring>

#include "base/error.h"

namespace vit {

namespace {

constexpr uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

uint32_t read_be32(const uint8_t* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// The chunk type as text, with '?' for bytes that are not letters (a corrupt type).
std::string type_text(const uint8_t* type) {
    std::string text;
    for (int i = 0; i < 4; ++i) {
        const bool letter = (type[i] >= 'A' && type[i] <= 'Z') || (type[i] >= 'a' && type[i] <= 'z');
        text += letter ? static_cast<char>(type[i]) : '?';
    }
    return text;
}

}  // namespace

bool is_png(const uint8_t* bytes, size_t size) {
    return size >= sizeof kSignature && std::memcmp(bytes, kSignature, sizeof kSignature) == 0;
}

void check_png_chunks(const uint8_t* bytes, size_t size, const std::string& name) {
    size_t at = sizeof kSignature;
    while (at + 8 <= size) {
        const uint64_t length = read_be32(bytes + at);
        const uint8_t* type = bytes + at + 4;
        if (at + 12 + length > size)
            throw Error(name + ": PNG chunk " + type_text(type) + " runs past the end of the file (truncated)");
        const uLong crc = crc32(crc32(0L, Z_NULL, 0), type, static_cast<uInt>(4 + length));
        if (crc != read_be32(type + 4 + length))
            throw Error(name + ": PNG chunk " + type_text(type) + " has a bad CRC (the file is corrupt)");
        if (std::memcmp(type, "IEND", 4) == 0) return;
        at += 12 + length;
    }
    throw Error(name + ": PNG ends without an IEND chunk (truncated)");
}

}  // namespace vit
