// Cutting user text to a drawable length, wrapping text between words (see drawn_text.h).
#include "logic/describe/drawn_text.h"

#include <sstream>

namespace vit::gui {

std::string utf8_prefix(const std::string& text, size_t bytes) {
    if (text.size() <= bytes) return text;
    while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;  // a continuation byte
    return text.substr(0, bytes);
}

std::string drawn_text(const std::string& text) {
    if (text.size() <= kMaxDrawnBytes) return text;
    static const std::string kCutNote = "… (cut)";
    return utf8_prefix(text, kMaxDrawnBytes - kCutNote.size()) + kCutNote;
}

std::string word_wrapped(const std::string& text, float width,
                         const std::function<float(const std::string&)>& line_width) {
    std::string out;
    std::istringstream paragraphs(text);
    for (std::string paragraph; std::getline(paragraphs, paragraph);) {
        if (!out.empty()) out += '\n';
        std::string line;  // measured whole: a sum of its words' widths could differ (rounding)
        std::istringstream words(paragraph);
        for (std::string word; words >> word;) {
            if (!line.empty() && line_width(line + ' ' + word) > width) {
                out += line + '\n';
                line.clear();
            }
            line += (line.empty() ? "" : " ") + word;
        }
        out += line;
    }
    return out;
}

}  // namespace vit::gui
