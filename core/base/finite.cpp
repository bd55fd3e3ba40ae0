// The message for an answer holding NaN or Inf (see finite.h).
#include "base/finite.h"

#include <algorithm>
#include <cmath>

namespace vit {

size_t count_nonfinite(const float* values, size_t count) {
    return static_cast<size_t>(std::count_if(values, values + count, [](float v) { return !std::isfinite(v); }));
}

std::string nonfinite_answer(const std::string& what, const float* values, size_t count) {
    const size_t bad = count_nonfinite(values, count);
    if (bad == 0) return "";
    return "the pass produced NaN: " + std::to_string(bad) + " of the " + std::to_string(count) + " " + what +
           " are NaN or infinite";
}

}  // namespace vit
