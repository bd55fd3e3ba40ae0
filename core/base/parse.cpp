// Numbers and number lists from text, range-checked (see parse.h).
#include "base/parse.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "base/bounds.h"
#include "base/error.h"

namespace vit {

namespace {

[[noreturn]] void refuse(const std::string& what, const std::string& expected, const std::string& text) {
    throw Error(what + ": expected " + expected + ", got '" + shortened(text) + "'");
}

std::string whole_number_range(int min, int max) {
    if (max == std::numeric_limits<int>::max()) return "a whole number of at least " + std::to_string(min);
    return "a whole number from " + std::to_string(min) + " to " + std::to_string(max);
}

// "3,5,10-12" → "3", "5", "10-12".
std::vector<std::string> split_commas(const std::string& text) {
    std::vector<std::string> items;
    size_t start = 0;
    for (size_t comma; (comma = text.find(',', start)) != std::string::npos; start = comma + 1)
        items.push_back(text.substr(start, comma - start));
    items.push_back(text.substr(start));
    return items;
}

// The whole of `text` as a decimal number, spelled as std::from_chars reads it:
// an optional '-', digits with at most one point, an optional exponent; no '+',
// spaces or hex. libc++ (the WebAssembly build) has no floating-point
// from_chars, so there strtod reads what that spelling lets through.
bool read_decimal(const std::string& text, double& value) {
#if defined(__cpp_lib_to_chars)
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    return !text.empty() && error == std::errc() && stop == end;
#else
    const size_t exponent = text.find_first_of("eE");
    const std::string mantissa = text.substr(0, exponent);
    const size_t digits_from = !mantissa.empty() && mantissa[0] == '-' ? 1 : 0;
    const bool mantissa_ok =
        mantissa.size() > digits_from && mantissa.find_first_not_of("0123456789.", digits_from) == std::string::npos &&
        mantissa.find('.') == mantissa.rfind('.') && mantissa.find_first_of("0123456789") != std::string::npos;
    const std::string power = exponent == std::string::npos ? "0" : text.substr(exponent + 1);
    const size_t power_from = !power.empty() && (power[0] == '-' || power[0] == '+') ? 1 : 0;
    const bool power_ok =
        power.size() > power_from && power.find_first_not_of("0123456789", power_from) == std::string::npos;
    if (!mantissa_ok || !power_ok) return false;
    value = std::strtod(text.c_str(), nullptr);
    return true;
#endif
}

}  // namespace

std::optional<int> to_int(const std::string& text, int min, int max) {
    int64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    const bool signed_below_zero = !text.empty() && text[0] == '-' && min >= 0;  // "-0" is no count
    if (text.empty() || error != std::errc() || stop != end || value < min || value > max || signed_below_zero)
        return std::nullopt;
    return static_cast<int>(value);
}

int parse_int(const std::string& what, const std::string& text, int min, int max) {
    const std::optional<int> value = to_int(text, min, max);
    if (!value) refuse(what, whole_number_range(min, max), text);
    return *value;
}

float parse_float(const std::string& what, const std::string& text, float above) {
    double value = 0.0;
    const bool number = read_decimal(text, value) && std::isfinite(value);
    if (number && std::fabs(value) > std::numeric_limits<float>::max())
        refuse(what, "a number of at most 3.4e+38 in size (a float's range)", text);
    // Compared as the float it becomes: 1e-63 is above 0 but rounds to 0.
    if (!number || !(static_cast<float>(value) > above)) {
        char bound[32] = "";
        if (std::isfinite(above)) std::snprintf(bound, sizeof bound, " above %g", static_cast<double>(above));
        refuse(what, std::string("a number") + bound, text);
    }
    return static_cast<float>(value);
}

std::vector<int> parse_int_list(const std::string& what, const std::string& text, int min, int max) {
    std::vector<int> list;
    size_t count = 0;
    for (const std::string& item : split_commas(text)) {
        const size_t dash = item.find('-', 1);  // a leading '-' is a sign
        const int first = parse_int(what, item.substr(0, dash), min, max);
        const int last = dash == std::string::npos ? first : parse_int(what, item.substr(dash + 1), min, max);
        if (last < first) refuse(what, "a range from low to high", item);
        count += static_cast<size_t>(static_cast<int64_t>(last) - first) + 1;
        if (count > kMaxListNumbers)
            refuse(what, "at most " + std::to_string(kMaxListNumbers) + " numbers in all", item);
        for (int64_t n = first; n <= last; ++n) list.push_back(static_cast<int>(n));
    }
    return list;
}

std::vector<std::pair<int, int>> parse_pair_list(const std::string& what, const std::string& text, int min, int max,
                                                 const std::string& form) {
    std::vector<std::pair<int, int>> pairs;
    const std::vector<std::string> items = split_commas(text);
    if (items.size() > kMaxListNumbers) refuse(what, "at most " + std::to_string(kMaxListNumbers) + " pairs", text);
    for (const std::string& item : items) {
        const size_t colon = item.find(':');
        if (colon == std::string::npos) refuse(what, form, item);
        pairs.emplace_back(parse_int(what, item.substr(0, colon), min, max),
                           parse_int(what, item.substr(colon + 1), min, max));
    }
    return pairs;
}

size_t parse_choice(const std::string& what, const std::string& text, const std::vector<std::string>& choices) {
    std::string expected;
    for (size_t i = 0; i < choices.size(); ++i) {
        if (text == choices[i]) return i;
        expected += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    refuse(what, expected, text);
}

std::string parse_path(const std::string& what, const std::string& text) {
    if (text.empty()) throw Error(what + ": expected a path, got an empty one");
    return text;
}

std::vector<std::string> parse_path_list(const std::string& what, const std::string& text, size_t most) {
    std::vector<std::string> paths = split_commas(text);
    if (paths.size() > most) refuse(what, "at most " + std::to_string(most) + " paths", text);
    for (const std::string& path : paths) parse_path(what, path);
    return paths;
}

bool parse_backend_is_gpu(const std::string& text) { return parse_choice("--backend", text, {"cpu", "gpu"}) == 1; }

}  // namespace vit
