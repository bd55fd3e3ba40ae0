// The heatmap texture cache: a tensor becomes a GL texture once, when the
// stage, the slice, the colormap or the trace changes — never every frame.
// Keys name everything the pixels depend on (cache_key.h); selection
// highlights are drawn over the texture, so selecting a token does not rebuild
// it. A picture of the image alone (the photo) is keyed by its pixels
// (CacheKey::content), so a new trace of the same image reuses it. Upload and
// release are injected so tests can count uploads without GL; the app passes
// gl_texture.h's functions.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <unordered_map>

#include "logic/describe/colormap.h"
#include "logic/state/app_state.h"
#include "logic/cache/cache_key.h"

namespace vit::gui {

struct CachedTexture {
    uintptr_t id = 0;  // GL texture name (an ImTextureID)
    int width = 0, height = 0;
    Range range;  // data range the colours encode
};

class TextureCache {
public:
    using Upload = std::function<uintptr_t(const RgbaImage&)>;
    using Release = std::function<void(uintptr_t)>;

    TextureCache(Upload upload, Release release, size_t budget_bytes = size_t(512) << 20);
    ~TextureCache();
    TextureCache(const TextureCache&) = delete;
    TextureCache& operator=(const TextureCache&) = delete;

    // The texture for `key`; `make` runs (and the texture is uploaded) only when
    // the key is not cached. Least recently used textures beyond the budget go.
    CachedTexture get(const CacheKey& key, const std::function<RgbaImage()>& make);
    bool contains(const CacheKey& key) const { return map_.count(key) != 0; }
    // The texture for `key` if it is cached (a picture a transition fades out), never uploading.
    std::optional<CachedTexture> find(const CacheKey& key);
    // The texture `trace_key` names when its pixels depend only on an image's
    // values: found under `content()` (a key by its content: it runs once per
    // trace), which outlives new_trace(), so a rerun on the same image uploads nothing.
    CachedTexture get_by_content(const CacheKey& trace_key, const std::function<CacheKey()>& content,
                                 const std::function<RgbaImage()>& make);
    // A new trace: every texture goes but those get_by_content() keeps (the LRU may still evict them).
    void new_trace();
    // Every texture goes.
    void clear();

    size_t size() const { return map_.size(); }
    uint64_t uploads() const { return uploads_; }  // total uploads so far (status bar, tests)
    size_t bytes() const { return bytes_; }

private:
    struct Entry {
        CachedTexture tex;
        size_t bytes;
        std::list<CacheKey>::iterator lru;
    };
    void evict_to(size_t budget, const CacheKey& keep);

    Upload upload_;
    Release release_;
    size_t budget_;
    size_t bytes_ = 0;
    uint64_t uploads_ = 0;
    std::list<CacheKey> lru_;  // front = most recently used
    std::unordered_map<CacheKey, Entry, CacheKeyHash> map_;
    std::unordered_map<CacheKey, CacheKey, CacheKeyHash> content_of_;  // trace key -> content key, this trace's
};

}  // namespace vit::gui
