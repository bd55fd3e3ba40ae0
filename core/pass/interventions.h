// Interventions: the questions a student can ask the model, as one value
// passed to the forward pass (forward.h). The empty value is the plain pass.
//   mask      the listed patches' pixels set to 0 in the normalised input
//   drop      the listed patch tokens removed after positions are added
//             (patch n is token n+1; `tokens` and every later stage keep
//             T = 1 + N − dropped rows)
//   ablate    the listed heads' slices of block{i}.context set to 0
//   no_pos    the positional embedding is not added (`tokens` equals `cls`)
//   permute   row n of patch_embed becomes row p[n] of the unpermuted one
//   temperature  every block's attn = softmax(scores / τ)
// Patch and token indices are 0-based patch numbers in raster order.
#pragma once
#include <string>
#include <vector>

#include "model/model.h"

namespace vit {

struct HeadRef {
    int block = 0;
    int head = 0;
    bool operator==(const HeadRef& o) const { return block == o.block && head == o.head; }
};

struct Interventions {
    std::vector<int> mask_patches;
    std::vector<int> drop_tokens;
    std::vector<HeadRef> ablate_heads;
    bool no_positions = false;
    std::vector<int> permute_patches;  // empty: no permutation; else p of 0..N−1
    float temperature = 1.0f;

    bool empty() const;
    bool operator==(const Interventions& o) const;
    bool operator!=(const Interventions& o) const { return !(*this == o); }
};

// Throws vit::Error naming the intervention and the value for an index out of
// range, a head that does not exist, a list that is not a permutation, τ ≤ 0
// (or not finite), or masking or dropping every patch. `grid`: patches per side.
// `allow_all_masked`: an image with every patch masked is a valid question
// inside the occlusion map (occlusion.h), not from a user.
void validate_interventions(const Interventions& iv, const ModelConfig& config, int grid,
                            bool allow_all_masked = false);

// The patch in each row of `patch_embed`, after permuting: 0..N−1 or the permutation.
std::vector<int> embedded_patches(const Interventions& iv, int patches);

// The patch number of each patch token the encoder keeps, in row order (row
// i + prefix of `tokens` and later stages), after permuting and dropping.
std::vector<int> kept_patches(const Interventions& iv, int patches);

// The rows of the full token list (`prefix` tokens: CLS and any DIST or
// register tokens, then patch token n = n + prefix) that the encoder keeps:
// every prefix row, then n + prefix for every patch token n not dropped.
std::vector<int> kept_token_rows(const Interventions& iv, int patches, int prefix = 1);

// The heads of block `block` to silence, sorted, each once.
std::vector<int> ablated_heads(const Interventions& iv, int block);

}  // namespace vit
