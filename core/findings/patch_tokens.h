// Which rows of a Trace's token stages are patches, and where each patch sits on
// the image: the first `prefix` rows are the tokens that are no patch (CLS,
// registers, a distillation token: the model's prefix tokens, never assumed
// to be 1; dropped tokens are patches only), row prefix + i holds patch patches[i], patch p sits at grid
// cell (p / grid, p % grid), each cell patch_px pixels a side.
#pragma once
#include <vector>

#include "model/model.h"
#include "pass/trace.h"

namespace vit {

struct PatchTokens {
    int prefix = 1;            // tokens before the patches
    int grid = 0;              // patches per side of the image
    int patch_px = 0;          // pixels per patch side
    std::vector<int> patches;  // image patch of each patch row, in row order
    int tokens() const { return prefix + static_cast<int>(patches.size()); }
};

// From the trace's `tokens` stage (T rows) and kept patches, and the input's side.
// Throws vit::Error when the trace has no `tokens` or `input` stage.
PatchTokens patch_tokens(const Trace& trace, const ModelConfig& config);

}  // namespace vit
