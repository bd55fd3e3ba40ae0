// The check that stands between a pass's numbers and a printed answer: a
// probability that is NaN or infinite is never shown as one, but named in one
// message (vitviz-cli's top-k, logit lens and occlusion map; the app's answer
// line and prediction comparison); likewise a training loss and the weights
// of a checkpoint about to be saved.
#pragma once
#include <cstddef>
#include <string>

namespace vit {

// How many of the `count` values are NaN or infinite.
size_t count_nonfinite(const float* values, size_t count);

// "" when all `count` values are finite; else
// "the pass produced NaN: 3 of the 10 <what> are NaN or infinite".
std::string nonfinite_answer(const std::string& what, const float* values, size_t count);

}  // namespace vit
