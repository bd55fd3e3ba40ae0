// Packs each linear layer's weights of a model (packed_weights.h).
#include "model/packed_weights.h"

#include <atomic>
#include <new>

#include "base/error.h"

namespace vit {

PackedWeights::PackedWeights(const Model& model) : patch(model.patch_w), blocks(model.blocks.size()) {
    const int depth = static_cast<int>(model.blocks.size());
    std::atomic<bool> out_of_memory{false};  // an exception must not leave the parallel loop
#pragma omp parallel for schedule(dynamic)
    for (int b = 0; b < depth; ++b) {
        const BlockWeights& w = model.blocks[b];
        try {
            blocks[b] = {PackedBt(w.qkv_w), PackedBt(w.proj_w), PackedBt(w.fc1_w), PackedBt(w.fc2_w)};
        } catch (const std::bad_alloc&) {
            out_of_memory = true;
        }
    }
    if (out_of_memory)
        throw Error(model.config.name + ": out of memory packing its weights for the pass (a second copy of them)");
}

}  // namespace vit
