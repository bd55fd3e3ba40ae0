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

// `text` as a message may quote it: at most kMaxQuotedChars characters (a
// UTF-8 sequence is not split), with "…" in place of the rest.
inline std::string shortened(const std::string& text) {
    if (text.size() <= kMaxQuotedChars) return text;
    size_t cut = kMaxQuotedChars - 1;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a continuation byte
    return text.substr(0, cut) + "…";
}

}  // namespace vit
