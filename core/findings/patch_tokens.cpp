// The patch rows of a trace (see patch_tokens.h).
#include "findings/patch_tokens.h"

namespace vit {

PatchTokens patch_tokens(const Trace& trace, const ModelConfig& config) {
    PatchTokens out;
    const Tensor& input = trace.at(StageRef{StageKind::Input});
    out.patches = trace.token_patches();
    out.prefix = config.prefix_tokens();
    out.patch_px = config.patch_size;
    out.grid = static_cast<int>(input.shape.back()) / config.patch_size;
    return out;
}

}  // namespace vit
