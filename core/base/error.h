// The one error type for mistakes a user can cause: a missing or corrupt file,
// a config that disagrees with the weights, an image the core cannot read.
// The message says what is wrong and where (file, key, shape), quoting values
// from files through shortened(). Programmer mistakes use assert instead.
#pragma once
#include <stdexcept>
#include <string>

#include "base/bounds.h"

namespace vit {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The first `bytes` bytes of `text` at most, a UTF-8 sequence not split.
inline std::string utf8_prefix(const std::string& text, size_t bytes) {
    if (text.size() <= bytes) return text;
    while (bytes > 0 && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80) --bytes;  // a continuation byte
    return text.substr(0, bytes);
}

// `text` as a message may quote it: at most kMaxQuotedChars characters (a
// UTF-8 sequence is not split), with "…" in place of the rest.
inline std::string shortened(const std::string& text) {
    if (text.size() <= kMaxQuotedChars) return text;
    return utf8_prefix(text, kMaxQuotedChars - 1) + "…";
}

}  // namespace vit
