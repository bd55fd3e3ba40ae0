// Packs each linear layer's weights of a model (packed_weights.h).
#include "model/packed_weights.h"

namespace vit {

PackedWeights::PackedWeights(const Model& model) : patch(model.patch_w), blocks(model.blocks.size()) {
    const int depth = static_cast<int>(model.blocks.size());
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < depth; ++b) {
        const BlockWeights& w = model.blocks[b];
        blocks[b] = {PackedBt(w.qkv_w), PackedBt(w.proj_w), PackedBt(w.fc1_w), PackedBt(w.fc2_w)};
    }
}

}  // namespace vit
