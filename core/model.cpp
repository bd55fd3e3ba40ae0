// Operation counts of the forward pass, for the GFLOP/s the benchmarks print.
#include "model.h"

namespace vit {

double forward_flops(const ModelConfig& c, int tokens) {
    const double T = tokens, N = tokens - 1, D = c.embed_dim, M = c.mlp_dim;
    const double patch_embed = 2 * N * c.patch_dim() * D;
    const double per_block = 2 * T * D * 3 * D   // qkv
                             + 2 * T * T * D     // scores, all heads
                             + 2 * T * T * D     // attn · v
                             + 2 * T * D * D     // output projection
                             + 2 * 2 * T * D * M;  // fc1 and fc2
    const double head = 2 * D * c.num_classes;
    return patch_embed + c.depth * per_block + head;
}

}  // namespace vit
