// Cutting user text to a drawable length (see drawn_text.h).
#include "logic/describe/drawn_text.h"

#include "base/error.h"

namespace vit::gui {

std::string drawn_text(const std::string& text) {
    if (text.size() <= kMaxDrawnBytes) return text;
    static const std::string kCutNote = "… (cut)";
    return utf8_prefix(text, kMaxDrawnBytes - kCutNote.size()) + kCutNote;
}

}  // namespace vit::gui
