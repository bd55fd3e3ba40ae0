// The one parser of numbers and number lists from text (command-line flags,
// lesson values, names inside files). The whole text must be the number, it
// must lie within the bounds given, and floats must be finite. Errors are
// vit::Error in one form, quoting at most kMaxQuotedChars of the bad text:
//   "--threads: expected a whole number from 1 to 64, got 'x'"
#pragma once
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vit {

// The whole of `text` as a whole number from `min` to `max` (decimal digits,
// a leading '-' only when `min` is negative); nullopt for anything else.
std::optional<int> to_int(const std::string& text, int min, int max);

// As to_int, or vit::Error "<what>: expected a whole number from <min> to <max>, got '<text>'"
// ("of at least <min>" when `max` is the largest int).
int parse_int(const std::string& what, const std::string& text, int min, int max = std::numeric_limits<int>::max());

// The whole of `text` as a finite float above `above` (exclusive; -infinity
// for any finite float), or vit::Error "<what>: expected a number [above X], got '<text>'".
float parse_float(const std::string& what, const std::string& text,
                  float above = -std::numeric_limits<float>::infinity());

// "3,5,10-12" → 3 5 10 11 12: each number and each end of a range a whole
// number from `min` to `max`. A range's length is checked before it is
// expanded: the list may hold at most kMaxListNumbers numbers in all.
std::vector<int> parse_int_list(const std::string& what, const std::string& text, int min, int max);

// "0:1,3:2" → {0,1} {3,2}: pairs of whole numbers from `min` to `max`; an
// item without ':' is refused as not `form` ("BLOCK:HEAD pairs such as 0:1,3:2").
std::vector<std::pair<int, int>> parse_pair_list(const std::string& what, const std::string& text, int min, int max,
                                                 const std::string& form);

// `text` when it is one of `choices`, as its index; else vit::Error
// "<what>: expected a or b, got '<text>'".
size_t parse_choice(const std::string& what, const std::string& text, const std::vector<std::string>& choices);

// `text` as a path: any text but the empty one, which is refused as
// vit::Error "<what>: expected a path, got an empty one".
std::string parse_path(const std::string& what, const std::string& text);

// "a.png,b.png" → its paths, each as parse_path takes it (so "a.png,,b.png" is refused),
// at most `most` of them, else vit::Error "<what>: expected at most <most> paths, got '<text>'".
std::vector<std::string> parse_path_list(const std::string& what, const std::string& text, size_t most);

// The value of --backend, for vitviz-cli and vitviz alike: true for "gpu",
// false for "cpu", vit::Error for anything else.
bool parse_backend_is_gpu(const std::string& text);

}  // namespace vit
