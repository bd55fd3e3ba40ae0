// Reading the training digits (digit_set.h).
#include "train/digit_set.h"

#include <filesystem>

#include "base/assets.h"
#include "base/error.h"
#include "formats/image.h"

namespace vit {

namespace {

constexpr int kMaxDigitsPerClass = 100000;

void append(DigitSet& set, const Image& strip, int first, int end, int label) {
    set.pixels.insert(set.pixels.end(), strip.data.begin() + static_cast<size_t>(first) * kDigitPixels,
                      strip.data.begin() + static_cast<size_t>(end) * kDigitPixels);
    set.labels.insert(set.labels.end(), static_cast<size_t>(end - first), label);
}

}  // namespace

DigitSplit load_digit_split(const std::string& dir) {
    DigitSplit split;
    for (int d = 0; d < 10; ++d) {
        const std::string path = (std::filesystem::path(dir) / (std::to_string(d) + ".png")).string();
        const Image strip = load_image(path, 1);
        if (strip.width != kDigitSide || strip.height <= 0 || strip.height % kDigitSide != 0 ||
            strip.height / kDigitSide > kMaxDigitsPerClass)
            throw Error(path + ": expected a strip of 28×28 digits (width 28, height a multiple of 28, at most " +
                        std::to_string(kMaxDigitsPerClass) + " digits), got " + std::to_string(strip.width) + "×" +
                        std::to_string(strip.height));
        const int n = strip.height / kDigitSide, cut = n * 8 / 10;  // int(n·0.8), as train_digits.py
        append(split.train, strip, 0, cut, d);
        append(split.held_out, strip, cut, n, d);
    }
    return split;
}

DigitSplit load_shipped_digits() { return load_digit_split(asset_path("digits/mnist")); }

}  // namespace vit
