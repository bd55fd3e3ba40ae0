// JPEG table checking before decoding. Debian 12's stb_image (2.27) trusts a
// JPEG's tables in two ways that a hostile file can use: a Huffman table of
// more than 256 codes is written past its arrays, and a scan that names a
// Huffman or quantisation table the file never defined decodes with
// uninitialised memory (an index read from it, 3333 into a 257-entry array,
// is what fuzz_image found). Both are refused here, naming the file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace vit {

// Throws vit::Error "NAME: corrupt JPEG: …" for a Huffman table of more than
// 256 codes, or a scan whose component uses a Huffman or quantisation table
// not defined before it. Files that do not start as a JPEG pass unchecked.
void check_jpeg_tables(const uint8_t* bytes, size_t size, const std::string& name);

}  // namespace vit
