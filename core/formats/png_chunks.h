// PNG chunk checking before decoding: stb_image skips the CRC of every chunk,
// so a corrupt PNG would decode into wrong pixels without a word. Each chunk's
// CRC-32 (zlib's crc32) is checked up to IEND, as libpng does. And stb_image
// inflates the image data whole, however far past the header's size it goes:
// the data is first inflated a piece at a time, kept nowhere, and refused when
// it comes to more bytes than the header's width, height and format need.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace vit {

// True when `bytes` start with the PNG signature.
bool is_png(const uint8_t* bytes, size_t size);

// Throws vit::Error "NAME: PNG chunk IHDR has a bad CRC …" for the first
// chunk whose CRC does not match, or that runs past the end of the file, and
// "NAME: the PNG's image data inflates to more than …" for data too large.
void check_png_chunks(const uint8_t* bytes, size_t size, const std::string& name);

}  // namespace vit
