// A model's linear-layer weights packed once for the core's matrix kernel
// (gemm.h PackedBt), for a caller that runs many passes on one model while it
// stays unchanged: the timed passes of a benchmark, an occlusion map's passes.
// Each pass then skips packing its weights (~5% of a ViT-B pass), for a second
// copy of them in memory. Made from a model, it is valid only while that model
// lives unchanged: hold it no longer than the call that made it. Memory it
// cannot have is vit::Error naming the model.
#pragma once
#include <vector>

#include "tensor/gemm.h"
#include "model/model.h"

namespace vit {

struct PackedWeights {
    struct Block {
        PackedBt qkv, proj, fc1, fc2;
    };
    PackedBt patch;
    std::vector<Block> blocks;

    explicit PackedWeights(const Model& model);
};

}  // namespace vit
