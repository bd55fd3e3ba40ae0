// Comparing, hashing and naming cache keys (see cache_key.h).
#include "logic/cache/cache_key.h"

#include <cstring>
#include <functional>

namespace vit::gui {

bool CacheKey::operator==(const CacheKey& o) const {
    return generation == o.generation && stage == o.stage && slice == o.slice && cmap == o.cmap &&
           purpose == o.purpose && params == o.params && content == o.content && file == o.file &&
           reduction == o.reduction;
}

std::string CacheKey::id() const {
    std::string out = "g" + std::to_string(generation) + "|" + stage_id(stage) + "|s" + std::to_string(slice) +
                      (cmap == Colormap::Diverging ? "|div" : "|seq") + "|p" +
                      std::to_string(static_cast<int>(purpose)) + "|";
    for (size_t i = 0; i < params.size(); ++i) out += (i ? "," : "") + std::to_string(params[i]);
    if (content) out += "|c" + std::to_string(content);
    if (!file.empty()) out += "|" + file;
    if (reduction > 1) out += "|r" + std::to_string(reduction);
    return out;
}

static size_t mix(size_t seed, size_t value) {
    return seed ^ (value + 0x9e3779b97f4a7c15ull + (seed << 6) + (seed >> 2));
}

size_t CacheKeyHash::operator()(const CacheKey& k) const {
    size_t h = std::hash<uint64_t>{}(k.generation);
    h = mix(h, static_cast<size_t>(k.stage.kind) * 131 + static_cast<size_t>(k.stage.block + 1));
    h = mix(h, static_cast<size_t>(k.slice + 1));
    h = mix(h, static_cast<size_t>(k.cmap) * 64 + static_cast<size_t>(k.purpose));
    for (double p : k.params) h = mix(h, std::hash<double>{}(p));
    h = mix(h, std::hash<uint64_t>{}(k.content));
    if (!k.file.empty()) h = mix(h, std::hash<std::string>{}(k.file));
    return mix(h, static_cast<size_t>(k.reduction));
}

// FNV-1a over the bits of `count` values: the `content` of a picture of them.
static uint64_t content_hash(const float* values, size_t count) {
    uint64_t hash = 1469598103934665603ull;
    for (size_t i = 0; i < count; ++i) {
        uint32_t bits;
        std::memcpy(&bits, values + i, sizeof bits);
        hash = (hash ^ bits) * 1099511628211ull;
    }
    return hash;
}

CacheKey stage_key(uint64_t generation, const StageRef& stage, int slice, Colormap cmap, Purpose purpose,
                   std::vector<double> params) {
    CacheKey key;
    key.generation = generation;
    key.stage = stage;
    key.slice = slice;
    key.cmap = cmap;
    key.purpose = purpose;
    key.params = std::move(params);
    return key;
}

CacheKey content_key(Purpose purpose, const float* values, size_t count, std::vector<double> params) {
    CacheKey key;
    key.purpose = purpose;
    key.content = content_hash(values, count);
    key.params = std::move(params);
    return key;
}

}  // namespace vit::gui
