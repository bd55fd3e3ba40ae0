// Walks a PNG's chunks (length, type, data, CRC over type and data), checks each CRC, and
// inflates the image data once without keeping it to check its size against the header.
#include "formats/png_chunks.h"

#include <zlib.h>

#include <cstring>
#include <vector>

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

// The bytes a PNG's image data inflates to, from its IHDR (the 13 bytes after its type):
// each row of each pass (7 with Adam7 interlacing) one filter byte and its pixels' bits
// rounded up to bytes. 0 for a header the decoder will refuse anyway.
uint64_t raw_image_bytes(const uint8_t* ihdr) {
    const uint64_t width = read_be32(ihdr), height = read_be32(ihdr + 4), depth = ihdr[8];
    static const int kSamples[] = {1, 0, 3, 1, 2, 0, 4};  // by colour type: grey, -, RGB, palette, grey+alpha, -, RGBA
    const int colour = ihdr[9];
    if (colour > 6 || kSamples[colour] == 0 || depth == 0 || depth > 16) return 0;
    const uint64_t bits = depth * static_cast<uint64_t>(kSamples[colour]);
    const auto pass_bytes = [&](uint64_t w, uint64_t h) { return w == 0 || h == 0 ? 0 : h * (1 + (w * bits + 7) / 8); };
    if (ihdr[12] == 0) return pass_bytes(width, height);
    static const int kAdam7[7][4] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                     {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    uint64_t total = 0;
    for (const auto& p : kAdam7)  // x0, y0, dx, dy
        total += pass_bytes((width + p[2] - 1 - p[0]) / p[2], (height + p[3] - 1 - p[1]) / p[3]);
    return total;
}

// Inflates the IDAT chunks a piece at a time, keeping nothing, and refuses data that
// inflates past what the header needs (a small file that would take gigabytes to decode).
void check_inflated_size(const uint8_t* bytes, size_t size, const std::string& name) {
    if (size < 33 || std::memcmp(bytes + 12, "IHDR", 4) != 0) return;  // the decoder refuses it
    const uint64_t needed = raw_image_bytes(bytes + 16);
    z_stream z{};
    if (needed == 0 || inflateInit(&z) != Z_OK) return;
    std::vector<uint8_t> out(1 << 16);
    uint64_t inflated = 0;
    int status = Z_OK;
    for (size_t at = sizeof kSignature; at + 12 <= size && status == Z_OK; at += 12 + read_be32(bytes + at)) {
        if (std::memcmp(bytes + at + 4, "IDAT", 4) != 0) continue;
        z.next_in = const_cast<Bytef*>(bytes + at + 8);
        z.avail_in = read_be32(bytes + at);
        while ((z.avail_in > 0 || z.avail_out == 0) && status == Z_OK && inflated <= needed) {
            z.next_out = out.data();
            z.avail_out = static_cast<uInt>(out.size());
            status = inflate(&z, Z_NO_FLUSH);
            inflated += out.size() - z.avail_out;
        }
        if (inflated > needed) break;
    }
    inflateEnd(&z);
    if (inflated > needed)
        throw Error(name + ": the PNG's image data inflates to more than the " + std::to_string(needed) +
                    " bytes its header's size needs (not decoded)");
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
        if (std::memcmp(type, "IEND", 4) == 0) return check_inflated_size(bytes, size, name);
        at += 12 + length;
    }
    throw Error(name + ": PNG ends without an IEND chunk (truncated)");
}

}  // namespace vit
