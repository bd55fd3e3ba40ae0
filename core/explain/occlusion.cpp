// The occlusion map (occlusion.h): one lean pass for the top class, then one
// per patch, each thread of the pass's team with its own LeanPass buffers. Inside the
// parallel region the core's products run single-threaded (Eigen and OpenMP
// do not nest), which suits the many small passes.
#include "explain/occlusion.h"

#include <algorithm>
#include <exception>

#include <limits>

#include "tensor/openmp.h"

#include "tensor/threads.h"

namespace vit {

OcclusionMap occlusion_map(const Model& model, const Tensor& input, const Interventions& base) {
    return OcclusionMapper().run(model, input, base);
}

OcclusionMap OcclusionMapper::run(const Model& model, const Tensor& input, const Interventions& base) {
    start(model, input, base);
    while (next(patches_)) {}
    return std::move(map_);
}

void OcclusionMapper::start(const Model& model, const Tensor& input, const Interventions& base,
                            const PackedWeights* packed) {
    passes_.resize(std::max<size_t>(passes_.size(), 1));
    model_ = &model;
    input_ = &input;
    base_ = base;
    own_packed_.reset();
    if (!packed) own_packed_ = std::make_unique<const PackedWeights>(model);
    packed_ = packed ? packed : own_packed_.get();
    map_ = OcclusionMap{};
    const FloatStorage& p = passes_[0].probs(model, input, base, false, packed_).data;
    map_.top_class = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    map_.top_probability = p[map_.top_class];
    patches_ =
        static_cast<int>((input.shape[1] / model.config.patch_size) * (input.shape[2] / model.config.patch_size));
    map_.probabilities.assign(patches_, std::numeric_limits<float>::quiet_NaN());  // not yet computed
    hidden_.assign(patches_, true);  // masked or dropped by `base`: masking it changes nothing
    for (int n : kept_patches(base, patches_)) hidden_[n] = false;
    for (int n : base.mask_patches) hidden_[n] = true;
    done_ = 0;
}

bool OcclusionMapper::next(int count) {
    const int end = std::min(patches_, done_ + std::max(1, count));
    const int team = size_team_for_pass();  // the free cores share the patches
    passes_.resize(std::max(passes_.size(), static_cast<size_t>(team)));
    std::exception_ptr failure;
#pragma omp parallel num_threads(team)
    {
        LeanPass& pass = passes_[static_cast<size_t>(omp_get_thread_num())];
        Interventions iv = base_;
        iv.mask_patches.push_back(0);
#pragma omp for schedule(dynamic)
        for (int n = done_; n < end; ++n) {
            if (hidden_[n]) {  // masking it changes nothing
                map_.probabilities[n] = map_.top_probability;
                continue;
            }
            iv.mask_patches.back() = n;
            try {
                map_.probabilities[n] = pass.probs(*model_, *input_, iv, true, packed_).data[map_.top_class];
            } catch (...) {
#pragma omp critical
                failure = std::current_exception();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    done_ = end;
    map_.computed = done_;
    if (done_ < patches_) return true;
    own_packed_.reset();  // the second copy of the weights lives no longer than its map
    packed_ = nullptr;
    return false;
}

}  // namespace vit
