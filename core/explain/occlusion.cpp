// The occlusion map (occlusion.h): one lean pass for the top class, then one
// per patch, each OpenMP thread with its own LeanPass buffers. Inside the
// parallel region the core's products run single-threaded (Eigen and OpenMP
// do not nest), which suits the many small passes.
#include "explain/occlusion.h"

#include <algorithm>
#include <exception>

#include <omp.h>

namespace vit {

OcclusionMap occlusion_map(const Model& model, const Tensor& input, const Interventions& base) {
    return OcclusionMapper().run(model, input, base);
}

OcclusionMap OcclusionMapper::run(const Model& model, const Tensor& input, const Interventions& base) {
    passes_.resize(std::max<size_t>(passes_.size(), static_cast<size_t>(omp_get_max_threads())));
    OcclusionMap map;
    const PackedWeights packed(model);
    const FloatStorage& p = passes_[0].probs(model, input, base, false, &packed).data;
    map.top_class = static_cast<int>(std::max_element(p.begin(), p.end()) - p.begin());
    map.top_probability = p[map.top_class];
    const int patches = static_cast<int>((input.shape[1] / model.config.patch_size) * (input.shape[2] / model.config.patch_size));
    map.probabilities.assign(patches, map.top_probability);
    std::vector<bool> hidden(patches, true);  // masked or dropped by `base`: masking it changes nothing
    for (int n : kept_patches(base, patches)) hidden[n] = false;
    for (int n : base.mask_patches) hidden[n] = true;
    std::exception_ptr failure;
#pragma omp parallel
    {
        LeanPass& pass = passes_[static_cast<size_t>(omp_get_thread_num())];
        Interventions iv = base;
        iv.mask_patches.push_back(0);
#pragma omp for schedule(dynamic)
        for (int n = 0; n < patches; ++n) {
            if (hidden[n]) continue;
            iv.mask_patches.back() = n;
            try {
                map.probabilities[n] = pass.probs(model, input, iv, true, &packed).data[map.top_class];
            } catch (...) {
#pragma omp critical
                failure = std::current_exception();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    return map;
}

}  // namespace vit
