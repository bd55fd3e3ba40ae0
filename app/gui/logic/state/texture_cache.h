// The heatmap texture cache: a tensor becomes a GL texture once, when the
// stage, the slice, the colormap or the trace changes — never every frame.
// Keys name everything the pixels depend on (heatmap_key); selection
// highlights are drawn over the texture, so selecting a token does not rebuild
// it. A picture of the image alone (the photo) is keyed by its pixels
// (image_key), so a new trace of the same image reuses it. Upload and release
// are injected so tests can count uploads without GL; the app passes
// gl_texture.h's functions.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <optional>
#include <string>
#include <unordered_map>

#include "logic/state/app_state.h"
#include "logic/describe/colormap.h"

namespace vit::gui {

struct CachedTexture {
    uintptr_t id = 0;  // GL texture name (an ImTextureID)
    int width = 0, height = 0;
    Range range;  // data range the colours encode
};

// "g3|block0.attn|s1|seq|": trace generation, stage, slice (head, channel; -1
// for the whole tensor), colormap, and any extra the pixels depend on (the
// selected token for an attention overlay — never for a plain matrix).
std::string heatmap_key(uint64_t trace_generation, const std::string& stage_id, int slice, Colormap cmap,
                        const std::string& extra = "");

// "img|<hash of the values>|count|what": the key of a texture made from `count` values alone.
std::string image_key(const float* values, size_t count, const std::string& what);

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
    CachedTexture get(const std::string& key, const std::function<RgbaImage()>& make);
    bool contains(const std::string& key) const { return map_.count(key) != 0; }
    // The texture for `key` if it is cached (a picture a transition fades out), never uploading.
    std::optional<CachedTexture> find(const std::string& key);
    // The texture `trace_key` names (a heatmap_key) when its pixels depend only
    // on an image's values: found under `content()` (image_key: it runs once per
    // trace), which outlives new_trace(), so a rerun on the same image uploads nothing.
    CachedTexture get_by_content(const std::string& trace_key, const std::function<std::string()>& content,
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
        std::list<std::string>::iterator lru;
    };
    void evict_to(size_t budget, const std::string& keep);

    Upload upload_;
    Release release_;
    size_t budget_;
    size_t bytes_ = 0;
    uint64_t uploads_ = 0;
    std::list<std::string> lru_;  // front = most recently used
    std::unordered_map<std::string, Entry> map_;
    std::unordered_map<std::string, std::string> content_of_;  // trace key -> image_key, this trace's
};

}  // namespace vit::gui
