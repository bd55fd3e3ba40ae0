// Cutting user text to a drawable length (see drawn_text.h).
#include "logic/describe/drawn_text.h"

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

}  // namespace vit::gui
