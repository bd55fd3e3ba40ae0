// BMP, TGA and GIF headers checked against the bytes behind them before
// stb_image decodes: stb_image allocates the whole image from the header and
// fills the pixels a truncated file lacks with black (or leaves them
// unwritten), so a short file would decode into a wrong picture without a
// word, and a small file claiming a huge size would allocate for it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace vit {

// Throws vit::Error naming the file when `bytes` (a BMP, GIF or TGA that
// stb_image's info call read as `width`×`height`) hold fewer bytes of pixel
// data than the header's size needs: "NAME: the file is truncated: the header
// says 64×64 pixels (BMP, 24 bits per pixel: 12288 bytes) but the file holds
// only 100 bytes of pixel data". Compressed data (TGA RLE, GIF LZW) is held to
// the most pixels its bytes could encode. Other formats pass unchecked.
void check_pixel_data_size(const uint8_t* bytes, size_t size, int width, int height, const std::string& name);

}  // namespace vit
