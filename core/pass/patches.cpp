// Patch extraction and its transpose: one pixel ↔ one (patch, column) index.
#include "pass/patches.h"

namespace vit {

namespace {

// Calls visit(pixel index, patch element) for every element of patch p.
template <typename Visit>
void for_patch_pixels(const std::vector<int64_t>& input_shape, int patch, int64_t p, Visit visit) {
    const int64_t channels = input_shape[0], height = input_shape[1], width = input_shape[2];
    const int64_t grid_w = width / patch;
    const int64_t y0 = (p / grid_w) * patch, x0 = (p % grid_w) * patch;
    int64_t column = 0;
    for (int64_t c = 0; c < channels; ++c)
        for (int y = 0; y < patch; ++y)
            for (int x = 0; x < patch; ++x)
                visit(static_cast<size_t>((c * height + y0 + y) * width + x0 + x), column++);
}

}  // namespace

void extract_patches(const Tensor& input, int patch, Tensor& patches) {
    const int64_t count = patches.shape[0];
#pragma omp parallel for schedule(static) if (patches.numel() >= kParallelMinElements)
    for (int64_t p = 0; p < count; ++p) {
        float* row = patches.data.data() + p * patches.shape[1];
        for_patch_pixels(input.shape, patch, p, [&](size_t pixel, int64_t col) { row[col] = input.data[pixel]; });
    }
}

void scatter_patches(const Tensor& patches, int patch, Tensor& input) {
    const int64_t count = patches.shape[0];
#pragma omp parallel for schedule(static) if (patches.numel() >= kParallelMinElements)
    for (int64_t p = 0; p < count; ++p) {
        const float* row = patches.data.data() + p * patches.shape[1];
        for_patch_pixels(input.shape, patch, p, [&](size_t pixel, int64_t col) { input.data[pixel] = row[col]; });
    }
}

void zero_patches(const std::vector<int>& numbers, int patch, Tensor& input) {
    for (int p : numbers)
        for_patch_pixels(input.shape, patch, p, [&](size_t pixel, int64_t) { input.data[pixel] = 0.0f; });
}

}  // namespace vit
