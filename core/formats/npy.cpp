// .npy writing and reading, after numpy/lib/format.py: the magic "\x93NUMPY",
// a version, a little-endian header length, a Python dict literal padded with
// spaces and ending in '\n' so that the data starts at a multiple of 64 bytes.
#include "formats/npy.h"

#include <cstring>
#include <limits>
#include <optional>
#include <regex>

#include "base/error.h"
#include "base/file_io.h"
#include "base/parse.h"

namespace vit {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;

std::string header_dict(const std::vector<int64_t>& shape) {
    return "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_string(shape) + ", }";
}

}  // namespace

void write_npy(const std::string& path, const Tensor& tensor) {
    std::string header = header_dict(tensor.shape);
    const size_t preamble = kMagicSize + 2 + 2;  // magic, version, header length
    const size_t padded = (preamble + header.size() + 1 + 63) / 64 * 64;
    header.append(padded - preamble - header.size() - 1, ' ');
    header += '\n';

    const char preamble_bytes[kMagicSize + 4] = {kMagic[0],
                                                 kMagic[1],
                                                 kMagic[2],
                                                 kMagic[3],
                                                 kMagic[4],
                                                 kMagic[5],
                                                 1,
                                                 0,
                                                 static_cast<char>(header.size() & 0xff),
                                                 static_cast<char>(header.size() >> 8)};
    write_whole_file(path, {ByteSpan{preamble_bytes, sizeof preamble_bytes}, ByteSpan{header.data(), header.size()},
                            ByteSpan{tensor.data.data(), tensor.data.size() * sizeof(float)}});
}

Tensor read_npy(const std::string& path) {
    const std::vector<uint8_t> bytes = read_file(path, std::numeric_limits<size_t>::max());
    const auto fail = [&](const std::string& why) { return Error(path + ": " + why); };
    if (bytes.size() < kMagicSize + 4 || std::memcmp(bytes.data(), kMagic, kMagicSize) != 0)
        throw fail("not a .npy file");
    const int major = bytes[6];
    if (major != 1 && major != 2) throw fail("unsupported .npy version " + std::to_string(major));
    const size_t length_size = major == 1 ? 2 : 4;
    size_t header_size = 0;
    for (size_t i = 0; i < length_size && kMagicSize + 2 + i < bytes.size(); ++i)
        header_size |= static_cast<size_t>(bytes[kMagicSize + 2 + i]) << (8 * i);
    const size_t data_start = kMagicSize + 2 + length_size + header_size;
    if (data_start > bytes.size()) throw fail("header runs past the end of the file");
    const std::string header(bytes.begin() + kMagicSize + 2 + length_size, bytes.begin() + data_start);

    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")) || m[1] != "<f4")
        throw fail("only little-endian float32 ('<f4') is supported");
    if (!std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*False)")))
        throw fail("only C order (fortran_order False) is supported");
    if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) throw fail("header has no shape");
    std::vector<int64_t> shape;
    uint64_t count = 1;
    const std::string dims = m[1];
    const std::regex number(R"(\d+)");
    for (std::sregex_iterator it(dims.begin(), dims.end(), number), end; it != end; ++it) {
        const std::optional<int> dim = to_int(it->str(), 0, std::numeric_limits<int>::max());
        const uint64_t d = dim ? static_cast<uint64_t>(*dim) : std::numeric_limits<uint64_t>::max();
        if (d > bytes.size() || (d != 0 && count > bytes.size() / d)) throw fail("shape is larger than the file");
        count *= d;
        shape.push_back(static_cast<int64_t>(d));
    }
    if (count * sizeof(float) != bytes.size() - data_start)
        throw fail("shape " + shape_string(shape) + " needs " + std::to_string(count * sizeof(float)) +
                   " bytes of data but the file holds " + std::to_string(bytes.size() - data_start));
    Tensor t(shape);
    if (count > 0) std::memcpy(t.data.data(), bytes.data() + data_start, count * sizeof(float));
    return t;
}

}  // namespace vit
