// The one error type for mistakes a user can cause: a missing or corrupt file,
// a config that disagrees with the weights, an image the core cannot read.
// The message says what is wrong and where (file, key, shape). Programmer
// mistakes use assert instead.
#pragma once
#include <stdexcept>
#include <string>

namespace vit {

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace vit
