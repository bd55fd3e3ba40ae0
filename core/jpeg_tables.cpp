// Walks a JPEG's segments as stb_image does, or further where it would stop at
// an error: markers, segment lengths, after a scan header the entropy-coded
// data up to the next real marker, and any other bytes up to the next 0xFF
// (which stb_image skips before the frame header). It records which Huffman
// (DHT) and quantisation (DQT) tables are defined, and which quantisation
// table each frame component (SOF) uses, and checks each scan (SOS) against them.
#include "jpeg_tables.h"

#include <algorithm>
#include <array>
#include <map>

#include "error.h"

namespace vit {

namespace {

bool is_restart(uint8_t marker) { return marker >= 0xD0 && marker <= 0xD7; }

// What the segments so far have defined.
struct Tables {
    std::array<std::array<bool, 4>, 2> huffman{};  // [class: 0 DC, 1 AC][id]
    std::array<bool, 4> quantisation{};
    std::map<int, int> component_quantisation;  // frame component id → its quantisation table
    bool progressive = false;
};

class Walker {
public:
    Walker(const uint8_t* bytes, size_t size, const std::string& name) : b_(bytes), size_(size), name_(name) {}

    void run() {
        size_t pos = 0;
        while (pos < size_ && b_[pos] == 0xFF) ++pos;  // stb_image skips fill bytes before the SOI marker too
        if (pos == 0 || pos >= size_ || b_[pos] != 0xD8) return;
        ++pos;
        while (pos < size_) {
            while (pos < size_ && b_[pos] != 0xFF) ++pos;
            while (pos < size_ && b_[pos] == 0xFF) ++pos;  // fill bytes
            if (pos + 2 >= size_) return;
            const uint8_t marker = b_[pos++];
            if (marker == 0xD9) return;  // end of image
            if (marker == 0x01 || is_restart(marker) || marker == 0xD8) continue;  // no length follows
            const size_t end = std::min(pos + (size_t{b_[pos]} << 8 | b_[pos + 1]), size_);
            if (marker == 0xC4) huffman_tables(pos + 2, end);
            if (marker == 0xDB) quantisation_tables(pos + 2, end);
            if (marker == 0xC0 || marker == 0xC1 || marker == 0xC2) frame(pos + 2, end, marker == 0xC2);
            if (marker == 0xDA) scan(pos + 2, end);
            pos = std::max(end, pos + 2);
            if (marker == 0xDA) pos = after_entropy_coded_data(pos);
        }
    }

private:
    uint8_t at(size_t i) const { return i < size_ ? b_[i] : 0; }
    [[noreturn]] void refuse(const std::string& problem) const { throw Error(name_ + ": corrupt JPEG: " + problem); }

    // DHT: tables of (class and id, 16 code counts, the codes).
    void huffman_tables(size_t table, size_t end) {
        while (table < end) {
            size_t codes = 0;  // stb_image reads all 16 counts, even past the segment's end
            for (size_t i = table + 1; i <= table + 16 && i < size_; ++i) codes += b_[i];
            if (codes > 256) refuse("a Huffman table declares more than 256 codes");
            const int kind = at(table) >> 4, id = at(table) & 15;
            if (kind <= 1 && id <= 3) tables_.huffman[kind][id] = true;  // stb_image refuses other ids
            table += 17 + codes;
        }
    }

    // DQT: tables of (precision and id, 64 values of 1 or 2 bytes).
    void quantisation_tables(size_t table, size_t end) {
        while (table < end) {
            const int precision = at(table) >> 4, id = at(table) & 15;
            if (id <= 3) tables_.quantisation[id] = true;
            table += 1 + (precision ? 128 : 64);
        }
    }

    // SOF0/1/2: precision, height, width, component count, then (id, sampling, quantisation table) each.
    void frame(size_t p, size_t end, bool progressive) {
        tables_.progressive = progressive;
        tables_.component_quantisation.clear();
        const int components = at(p + 5);
        for (int c = 0; c < components && p + 6 + 3 * c + 2 < end; ++c)
            tables_.component_quantisation[at(p + 6 + 3 * c)] = at(p + 6 + 3 * c + 2);
    }

    // SOS: component count, (component id, DC and AC table) each, spectral start and end, approximation.
    // A baseline scan decodes with both tables; a progressive DC scan (start 0) with its DC table
    // unless it refines; a progressive AC scan with its AC table.
    void scan(size_t p, size_t end) {
        const int components = at(p);
        const size_t after = p + 1 + 2 * static_cast<size_t>(components);
        if (after + 2 >= end) return;  // stb_image refuses a short scan header
        const int spectral_start = at(after), refinement = at(after + 2) >> 4;
        const bool uses_dc = !tables_.progressive || (spectral_start == 0 && refinement == 0);
        const bool uses_ac = !tables_.progressive || spectral_start > 0;
        for (int c = 0; c < components; ++c) {
            const int id = at(p + 1 + 2 * c), dc = at(p + 2 + 2 * c) >> 4, ac = at(p + 2 + 2 * c) & 15;
            if (uses_dc && dc <= 3 && !tables_.huffman[0][dc]) refuse(undefined("Huffman table DC", dc));
            if (uses_ac && ac <= 3 && !tables_.huffman[1][ac]) refuse(undefined("Huffman table AC", ac));
            const auto q = tables_.component_quantisation.find(id);
            if (q != tables_.component_quantisation.end() && q->second <= 3 && !tables_.quantisation[q->second])
                refuse(undefined("quantisation table", q->second));
        }
    }

    static std::string undefined(const std::string& table, int id) {
        return "a scan uses " + table + " " + std::to_string(id) + ", which the file does not define before it";
    }

    // The entropy-coded data, where 0xFF (fill bytes too) is followed by 0 or RSTn; returns the
    // position of the 0xFF before the next marker.
    size_t after_entropy_coded_data(size_t pos) const {
        while (pos < size_) {
            if (b_[pos++] != 0xFF) continue;
            size_t next = pos;
            while (next < size_ && b_[next] == 0xFF) ++next;
            if (next < size_ && (b_[next] == 0 || is_restart(b_[next]))) {
                pos = next + 1;
            } else {
                return next - 1;  // a marker: the walk reads it after its fill bytes
            }
        }
        return pos;
    }

    const uint8_t* b_;
    size_t size_;
    const std::string& name_;
    Tables tables_;
};

}  // namespace

void check_jpeg_tables(const uint8_t* bytes, size_t size, const std::string& name) {
    Walker(bytes, size, name).run();
}

}  // namespace vit
