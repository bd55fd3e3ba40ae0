// Pixel data sizes from BMP, TGA and GIF headers, read as stb_image reads
// them (see pixel_data_size.h).
#include "formats/pixel_data_size.h"

#include <cstring>

#include "base/error.h"
#include "formats/png_chunks.h"

namespace vit {

namespace {

uint32_t le16(const uint8_t* p) { return uint32_t{p[0]} | uint32_t{p[1]} << 8; }
uint32_t le32(const uint8_t* p) { return le16(p) | le16(p + 2) << 16; }

// Pixel data starting at `start` in a file of `size` bytes: how many bytes it has.
uint64_t bytes_from(size_t size, uint64_t start) { return start < size ? size - start : 0; }

std::string pixels_text(int width, int height) { return std::to_string(width) + "×" + std::to_string(height); }

[[noreturn]] void refuse_truncated(const std::string& name, int width, int height, const std::string& layout,
                                   uint64_t needed, uint64_t held) {
    throw Error(name + ": the file is truncated: the header says " + pixels_text(width, height) + " pixels (" + layout +
                ": " + std::to_string(needed) + " bytes) but the file holds only " + std::to_string(held) +
                " bytes of pixel data");
}

// Compressed data, whose exact size only decoding tells: at most
// `pixels_per_byte` pixels per byte it holds.
void check_compressed(const std::string& name, int width, int height, const char* what, uint64_t held,
                      uint64_t pixels_per_byte) {
    const uint64_t pixels = static_cast<uint64_t>(width) * static_cast<uint64_t>(height);
    if (pixels <= held * pixels_per_byte) return;
    throw Error(name + ": the header says " + pixels_text(width, height) + " pixels but the file's " +
                std::to_string(held) + " bytes of " + what + " can encode at most " +
                std::to_string(held * pixels_per_byte) + " (truncated or corrupt)");
}

// BMP: rows padded to 4 bytes from the offset the file header gives. Only
// BI_RGB (0) and BI_BITFIELDS (3) are checked: stb_image refuses RLE and the
// other compressions before allocating.
void check_bmp(const uint8_t* bytes, size_t size, int width, int height, const std::string& name) {
    if (size < 30) return;  // too short for stb_image's info call to have passed
    const uint32_t offset = le32(bytes + 10), header_size = le32(bytes + 14);
    const bool core_header = header_size == 12;  // OS/2 BITMAPCOREHEADER: no compression field
    const uint32_t bits = le16(bytes + (core_header ? 24 : 28));
    const uint32_t compression = core_header || size < 34 ? 0 : le32(bytes + 30);
    if ((compression != 0 && compression != 3) || bits < 1 || bits > 32) return;
    if (offset < 14 + header_size)
        throw Error(name + ": corrupt BMP: its pixel data offset " + std::to_string(offset) +
                    " lies inside its headers (" + std::to_string(14 + header_size) + " bytes)");
    const uint64_t row_bits = static_cast<uint64_t>(width) * bits;
    const uint64_t padded_row = (row_bits + 31) / 32 * 4;
    const uint64_t needed = padded_row * static_cast<uint64_t>(height - 1) + (row_bits + 7) / 8;  // last row unpadded
    const uint64_t held = bytes_from(size, offset);
    if (held < needed)
        refuse_truncated(name, width, height, "BMP, " + std::to_string(bits) + " bits per pixel", needed, held);
}

// TGA: an 18-byte header, an ID, a colour map (stb_image also skips the map's
// first-entry index in bytes), then the pixels, uncompressed (types 1, 2, 3)
// or run-length encoded (9, 10, 11: a packet of one byte and one pixel
// repeats it up to 128 times).
void check_tga(const uint8_t* bytes, size_t size, int width, int height, const std::string& name) {
    if (size < 18) return;
    const bool indexed = bytes[1] != 0, run_length = bytes[2] >= 8;
    const uint64_t map_entry_bytes = (bytes[7] + 7u) / 8u, pixel_bytes = (bytes[16] + 7u) / 8u;
    const uint64_t start = 18u + bytes[0] + (indexed ? le16(bytes + 3) + le16(bytes + 5) * map_entry_bytes : 0);
    const uint64_t held = bytes_from(size, start);
    if (run_length) {
        // A run's packet of 1 + pixel_bytes bytes stands for at most 128
        // pixels: 128 / (1 + pixel_bytes) a byte, rounded up.
        check_compressed(name, width, height, "run-length encoded TGA data", held,
                         (128 + pixel_bytes) / (1 + pixel_bytes));
        return;
    }
    const uint64_t needed = static_cast<uint64_t>(width) * static_cast<uint64_t>(height) * pixel_bytes;
    if (held < needed)
        refuse_truncated(name, width, height, "TGA, " + std::to_string(bytes[16]) + " bits per pixel", needed, held);
}

// GIF: LZW codes are at most 12 bits and each stands for at most 4096
// pixels, so a byte encodes at most 4096 · 8 / 12 < 2731 pixels. stb_image
// allocates the whole logical screen, so a tiny file claiming a huge screen
// is refused here.
constexpr uint64_t kGifPixelsPerByte = 2731;

}  // namespace

void check_pixel_data_size(const uint8_t* bytes, size_t size, int width, int height, const std::string& name) {
    if (size >= 2 && std::memcmp(bytes, "BM", 2) == 0) return check_bmp(bytes, size, width, height, name);
    if (size >= 4 && std::memcmp(bytes, "GIF8", 4) == 0)
        return check_compressed(name, width, height, "GIF data", size, kGifPixelsPerByte);
    if (is_png(bytes, size)) return;
    // stb_image reads TGA last, when no other format matched: what is left here.
    check_tga(bytes, size, width, height, name);
}

}  // namespace vit
