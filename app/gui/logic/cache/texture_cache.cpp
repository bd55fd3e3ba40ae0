// TextureCache: build-once textures keyed by what they show, LRU under a byte budget.
#include "logic/cache/texture_cache.h"

namespace vit::gui {

TextureCache::TextureCache(Upload upload, Release release, size_t budget_bytes)
    : upload_(std::move(upload)), release_(std::move(release)), budget_(budget_bytes) {}

TextureCache::~TextureCache() { clear(); }

std::optional<CachedTexture> TextureCache::find(const CacheKey& key) {
    auto it = map_.find(key);
    if (it == map_.end()) return std::nullopt;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return it->second.tex;
}

CachedTexture TextureCache::get(const CacheKey& key, const std::function<RgbaImage()>& make) {
    if (std::optional<CachedTexture> cached = find(key)) return *cached;
    RgbaImage img = make();
    CachedTexture tex;
    tex.id = upload_(img);
    tex.width = img.width;
    tex.height = img.height;
    tex.range = img.range;
    ++uploads_;
    size_t bytes = img.pixels.size();
    lru_.push_front(key);
    auto& e = map_[key];
    e = Entry{tex, bytes, lru_.begin()};
    bytes_ += bytes;
    evict_to(budget_, key);
    return map_.at(key).tex;
}

void TextureCache::evict_to(size_t budget, const CacheKey& keep) {
    while (bytes_ > budget && !lru_.empty()) {
        const CacheKey& victim = lru_.back();
        if (victim == keep) break;
        auto it = map_.find(victim);
        if (release_) release_(it->second.tex.id);
        bytes_ -= it->second.bytes;
        map_.erase(it);
        lru_.pop_back();
    }
}

CachedTexture TextureCache::get_by_content(const CacheKey& trace_key, const std::function<CacheKey()>& content,
                                           const std::function<RgbaImage()>& make) {
    auto known = content_of_.find(trace_key);
    if (known == content_of_.end()) known = content_of_.emplace(trace_key, content()).first;
    return get(known->second, make);
}

void TextureCache::new_trace() {
    content_of_.clear();
    for (auto it = map_.begin(); it != map_.end();) {
        if (it->first.by_content()) {
            ++it;
            continue;
        }
        if (release_) release_(it->second.tex.id);
        bytes_ -= it->second.bytes;
        lru_.erase(it->second.lru);
        it = map_.erase(it);
    }
}

void TextureCache::clear() {
    for (auto& [key, e] : map_)
        if (release_) release_(e.tex.id);
    map_.clear();
    lru_.clear();
    content_of_.clear();
    bytes_ = 0;
}

}  // namespace vit::gui
