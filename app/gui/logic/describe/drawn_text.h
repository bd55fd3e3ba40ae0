// Text as the app draws it: text a user wrote (a lesson's narration, a message
// quoting a file) cut to a length Dear ImGui can draw in one call (ImGui 1.86
// numbers a draw's vertices in 16 bits, 4 per character, so one call of 16,384
// characters or more fails), and text wrapped between words only (ImGui's own
// wrapping also breaks after '.' and ',', so "63.3%" could end a line with "63."
// and begin the next with "3%").
#pragma once
#include <cstddef>
#include <functional>
#include <string>

namespace vit::gui {

// The most bytes of text drawn in one call (each byte is at most one character).
constexpr size_t kMaxDrawnBytes = 12000;

// The first `bytes` bytes of `text` at most, a UTF-8 sequence not split.
std::string utf8_prefix(const std::string& text, size_t bytes);

// `text` when it fits kMaxDrawnBytes; otherwise its start (a UTF-8 sequence
// is not split) followed by "… (cut)", kMaxDrawnBytes in all at most.
std::string drawn_text(const std::string& text);

// `text` with its lines broken between words (at spaces; its own '\n' kept) where
// the next word would make a line wider than `width` by `line_width`; a word
// wider than `width` keeps a line of its own. Runs of spaces become one.
std::string word_wrapped(const std::string& text, float width,
                         const std::function<float(const std::string&)>& line_width);

}  // namespace vit::gui
