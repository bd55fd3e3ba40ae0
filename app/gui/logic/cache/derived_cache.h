// Numbers the views derive from a trace (positional embedding = tokens − cls,
// cosine similarities, per-token mean/std, head means, row sums, the
// convolution check): computed once per key (cache_key.h) and kept until the
// next trace, like the textures, so nothing is recomputed per frame. Pure C++.
#pragma once
#include <functional>
#include <unordered_map>
#include <vector>

#include "logic/cache/cache_key.h"

namespace vit::gui {

class DerivedCache {
public:
    const std::vector<float>& get(const CacheKey& key, const std::function<std::vector<float>()>& make) {
        auto it = map_.find(key);
        if (it == map_.end()) {
            it = map_.emplace(key, make()).first;
            ++computed_;
        }
        return it->second;
    }
    void clear() { map_.clear(); }
    size_t size() const { return map_.size(); }
    size_t computed() const { return computed_; }

private:
    std::unordered_map<CacheKey, std::vector<float>, CacheKeyHash> map_;
    size_t computed_ = 0;
};

}  // namespace vit::gui
