// JPEG decoding with Debian's libjpeg-turbo (the decoder PIL uses, fuzzed
// upstream) instead of stb_image, whose JPEG decoder in Debian 12 (2.27)
// reads uninitialised tables and shifts out of range on hostile files (both
// found by fuzz_image). Every file stb_image would take for a JPEG comes here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

// 8-bit interleaved pixels: 1 component (grey) or 3 (RGB).
struct JpegPixels {
    int width = 0, height = 0, components = 0;
    std::vector<uint8_t> data;
};

// True when stb_image would read the bytes as a JPEG: 0xFF, any further 0xFF
// fill bytes, then the start-of-image marker 0xD8.
bool is_jpeg(const uint8_t* bytes, size_t size);

// Decodes a JPEG (baseline, progressive or arithmetic-coded; grey, YCbCr, RGB,
// CMYK or YCCK, which is turned into RGB as PIL does). When the header claims
// more than `max_pixels` pixels, returns that size with no data, before
// anything is allocated for them. Throws vit::Error "NAME: …" when the file
// is corrupt, or when its data ends early or is damaged so that part of the
// picture would be made up.
JpegPixels decode_jpeg(const uint8_t* bytes, size_t size, const std::string& name, int64_t max_pixels);

}  // namespace vit
