// Claims about the heatmap texture cache: a tensor is uploaded once per key,
// never per frame, and the key changes exactly when the pixels must.
#include <catch2/catch.hpp>

#include <set>

#include "logic/cache/texture_cache.h"
#include "pass/stages.h"

using namespace vit::gui;

namespace {
struct FakeGl {
    uintptr_t next = 1;
    std::set<uintptr_t> alive;
    TextureCache make(size_t budget = size_t(1) << 30) {
        return TextureCache(
            [this](const RgbaImage&) {
                alive.insert(next);
                return next++;
            },
            [this](uintptr_t id) { alive.erase(id); }, budget);
    }
};
// The key of `stage`'s matrix `slice` in trace `generation`, or of what else `purpose` draws of it.
CacheKey key(uint64_t generation, const char* stage, int slice, Colormap cmap = Colormap::Sequential,
             Purpose purpose = Purpose::Values, std::vector<double> params = {}) {
    return stage_key(generation, *vit::parse_stage_id(stage), slice, cmap, purpose, std::move(params));
}
CacheKey head(int h) { return key(1, "block0.attn", h); }  // four textures, a head each
// The input picture's key by its values (its content), as view_common.cpp's model_picture_texture makes it.
CacheKey by_values(const std::vector<float>& values) {
    return content_key(Purpose::Picture, values.data(), values.size());
}
RgbaImage pixels(int w, int h) {
    RgbaImage img;
    img.width = w;
    img.height = h;
    img.pixels.assign(size_t(w) * h * 4, 128);
    return img;
}
}  // namespace

TEST_CASE("drawing the same stage frame after frame uploads its texture once") {
    FakeGl gl;
    TextureCache cache = gl.make();
    int built = 0;
    for (int frame = 0; frame < 100; ++frame)
        cache.get(key(1, "block0.attn", 0), [&] {
            ++built;
            return pixels(5, 5);
        });
    REQUIRE(built == 1);
    REQUIRE(cache.uploads() == 1);
}

TEST_CASE("a new trace, another head or another colormap makes a new texture, selecting a token does not") {
    const CacheKey base = key(1, "block0.attn", 0);
    REQUIRE(key(2, "block0.attn", 0) != base);                       // new image or model
    REQUIRE(key(1, "block0.attn", 1) != base);                       // another head
    REQUIRE(key(1, "block0.attn", 0, Colormap::Diverging) != base);  // colormap changed
    REQUIRE(key(1, "block0.scores", 0) != base);                     // another stage
    REQUIRE(key(1, "block0.attn", 0) == base);
    REQUIRE(CacheKeyHash{}(key(1, "block0.attn", 0)) == CacheKeyHash{}(base));
    // The selected token is an outline drawn over the texture, not part of its key; only
    // views whose pixels depend on it (attention rows over the image) name it in their purpose's params.
    const CacheKey row3 = key(1, "block0.attn", 0, Colormap::Sequential, Purpose::AttentionRow, {3});
    REQUIRE(row3 != key(1, "block0.attn", 0, Colormap::Sequential, Purpose::AttentionRow, {4}));
    REQUIRE(row3 != key(1, "block0.attn", 0, Colormap::Sequential, Purpose::HeadMeanRow, {3}));  // another picture
    REQUIRE(row3 != base);
    // A purpose's numbers stay numbers: a range's ends are not rounded into a name.
    REQUIRE(key(1, "tokens", -1, Colormap::Diverging, Purpose::SumSharedRange, {-1.0, 1.0}) !=
            key(1, "tokens", -1, Colormap::Diverging, Purpose::SumSharedRange, {-1.0, 1.0000001}));
    // The id names every field, so two keys that differ have different widget ids.
    REQUIRE(row3.id() != key(1, "block0.attn", 0, Colormap::Sequential, Purpose::AttentionRow, {4}).id());
    CacheKey reduced = base;
    reduced.reduction = 4;
    REQUIRE(reduced != base);
    REQUIRE(reduced.id() != base.id());
}

TEST_CASE("clearing the cache for a new trace releases every texture") {
    FakeGl gl;
    {
        TextureCache cache = gl.make();
        cache.get(head(0), [] { return pixels(4, 4); });
        cache.get(head(1), [] { return pixels(4, 4); });
        REQUIRE(gl.alive.size() == 2);
        cache.clear();
        REQUIRE(gl.alive.empty());
        REQUIRE(cache.size() == 0);
        cache.get(head(0), [] { return pixels(4, 4); });
        REQUIRE(cache.uploads() == 3);
    }
    REQUIRE(gl.alive.empty());  // and the destructor releases what is left
}

TEST_CASE("beyond its byte budget the cache drops the least recently used textures") {
    FakeGl gl;
    TextureCache cache = gl.make(3 * 64);  // three 4×4 RGBA textures
    cache.get(head(0), [] { return pixels(4, 4); });
    cache.get(head(1), [] { return pixels(4, 4); });
    cache.get(head(2), [] { return pixels(4, 4); });
    cache.get(head(0), [] { return pixels(4, 4); });  // a is used again: b is now the oldest
    cache.get(head(3), [] { return pixels(4, 4); });
    REQUIRE(cache.contains(head(0)));
    REQUIRE_FALSE(cache.contains(head(1)));
    REQUIRE(cache.contains(head(2)));
    REQUIRE(cache.contains(head(3)));
    REQUIRE(gl.alive.size() == 3);
}

TEST_CASE("a texture larger than the whole budget is still kept while it is used") {
    FakeGl gl;
    TextureCache cache = gl.make(16);
    CachedTexture t = cache.get(head(0), [] { return pixels(8, 8); });
    REQUIRE(t.width == 8);
    REQUIRE(cache.contains(head(0)));
}

TEST_CASE("a picture keyed by its image's values outlives a new trace of the same image") {
    FakeGl gl;
    TextureCache cache = gl.make();
    const std::vector<float> photo(48, 0.25f), other(48, 0.5f);
    auto by_content = [&](uint64_t generation, const std::vector<float>& values) {
        return cache.get_by_content(
            key(generation, "input", -1, Colormap::Sequential, Purpose::Picture), [&] { return by_values(values); },
            [] { return pixels(4, 4); });
    };
    by_content(1, photo);
    cache.get(key(1, "block0.attn", 0), [] { return pixels(4, 4); });
    REQUIRE(cache.uploads() == 2);
    cache.new_trace();
    CHECK(gl.alive.size() == 1);  // the heatmap went, the picture stayed
    by_content(2, photo);
    CHECK(cache.uploads() == 2);  // the same image: nothing uploaded
    by_content(2, photo);
    CHECK(cache.uploads() == 2);
    cache.new_trace();
    by_content(3, other);
    CHECK(cache.uploads() == 3);  // another image: a new texture
    CHECK(by_values(photo) != by_values(other));
}
