// Trace sizes from the stage shapes forward.cpp writes (DESIGN.md's stage
// catalogue), and the memory budget from sysconf.
#include "trace_budget.h"

#include <unistd.h>

#include <cmath>
#include <cstdio>

#include "bounds.h"
#include "error.h"

namespace vit {

namespace {

// Floats of every stage, in double: a hostile size must not overflow the sum.
double trace_floats(const ModelConfig& c, int image_size) {
    const double S = image_size, P = c.patch_size, grid = std::floor(S / P), N = grid * grid, T = N + 1;
    const double D = c.embed_dim, H = c.num_heads, M = c.mlp_dim, K = c.num_classes;
    const double stem = c.channels * S * S   // input
                        + N * c.patch_dim()  // patches
                        + N * D              // patch_embed
                        + 2 * T * D;         // cls, tokens
    const double per_block = 10 * T * D      // ln1, q, k, v, context, attn_out, res1, ln2, mlp_out, out
                             + 2 * H * T * T  // scores, attn
                             + 2 * T * M;     // fc1, gelu
    const double tail = T * D + 2 * K + T * T;  // norm, logits and probs, rollout
    return stem + c.depth * per_block + tail;
}

std::string gigabytes(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
    return text;
}

}  // namespace

int64_t trace_bytes(const ModelConfig& config, int image_size) {
    const double bytes = trace_floats(config, image_size) * sizeof(float);
    return bytes >= 9e18 ? INT64_MAX : static_cast<int64_t>(bytes);
}

int64_t trace_budget_bytes() {
    const double memory = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
    return static_cast<int64_t>(memory * kMaxTraceMemoryShare);
}

int largest_fitting_image_size(const ModelConfig& config, int64_t budget) {
    int largest = 0;
    for (int size = config.patch_size; size <= kMaxImageSide && trace_bytes(config, size) <= budget;
         size += config.patch_size)
        largest = size;
    return largest;
}

void check_input_fits(const ModelConfig& config, int image_size, int64_t budget) {
    const int size = image_size > 0 ? image_size : config.preprocess.image_size;
    const int64_t needed = trace_bytes(config, size);
    if (size <= kMaxImageSide && needed <= budget) return;
    const int largest = largest_fitting_image_size(config, budget);
    const std::string offer =
        largest > 0 ? "; the largest image size that fits is " + std::to_string(largest) + " (--image-size " +
                          std::to_string(largest) + ")"
                    : "; not even one patch fits";
    const std::string input = config.name + ": an input of " + std::to_string(size) + "×" + std::to_string(size) +
                              " pixels";
    if (size > kMaxImageSide)
        throw InputTooLarge(input + " is over the limit of " + std::to_string(kMaxImageSide) + " pixels a side" + offer,
                            largest);
    const int64_t grid = size / config.patch_size;
    throw InputTooLarge(input + " (" + std::to_string(grid * grid + 1) + " tokens) needs " +
                            gigabytes(static_cast<double>(needed)) + " for its trace, over the " +
                            gigabytes(static_cast<double>(budget)) + " this machine allows (" +
                            std::to_string(static_cast<int>(kMaxTraceMemoryShare * 100)) + "% of its memory)" + offer,
                        largest);
}

}  // namespace vit
