// Claims about the heatmap texture cache: a tensor is uploaded once per key,
// never per frame, and the key changes exactly when the pixels must.
#include <catch2/catch.hpp>

#include <set>

#include "logic/state/texture_cache.h"

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
    std::string key = heatmap_key(1, "block0.attn", 0, Colormap::Sequential);
    for (int frame = 0; frame < 100; ++frame)
        cache.get(key, [&] {
            ++built;
            return pixels(5, 5);
        });
    REQUIRE(built == 1);
    REQUIRE(cache.uploads() == 1);
}

TEST_CASE("a new trace, another head or another colormap makes a new texture, selecting a token does not") {
    std::string base = heatmap_key(1, "block0.attn", 0, Colormap::Sequential);
    REQUIRE(heatmap_key(2, "block0.attn", 0, Colormap::Sequential) != base);    // new image or model
    REQUIRE(heatmap_key(1, "block0.attn", 1, Colormap::Sequential) != base);    // another head
    REQUIRE(heatmap_key(1, "block0.attn", 0, Colormap::Diverging) != base);     // colormap changed
    REQUIRE(heatmap_key(1, "block0.scores", 0, Colormap::Sequential) != base);  // another stage
    // The selected token is an outline drawn over the texture, not part of its key; only
    // views whose pixels depend on it (attention rows over the image) add it as `extra`.
    REQUIRE(heatmap_key(1, "block0.attn", 0, Colormap::Sequential, "row3") !=
            heatmap_key(1, "block0.attn", 0, Colormap::Sequential, "row4"));
}

TEST_CASE("clearing the cache for a new trace releases every texture") {
    FakeGl gl;
    {
        TextureCache cache = gl.make();
        cache.get("a", [] { return pixels(4, 4); });
        cache.get("b", [] { return pixels(4, 4); });
        REQUIRE(gl.alive.size() == 2);
        cache.clear();
        REQUIRE(gl.alive.empty());
        REQUIRE(cache.size() == 0);
        cache.get("a", [] { return pixels(4, 4); });
        REQUIRE(cache.uploads() == 3);
    }
    REQUIRE(gl.alive.empty());  // and the destructor releases what is left
}

TEST_CASE("beyond its byte budget the cache drops the least recently used textures") {
    FakeGl gl;
    TextureCache cache = gl.make(3 * 64);  // three 4×4 RGBA textures
    cache.get("a", [] { return pixels(4, 4); });
    cache.get("b", [] { return pixels(4, 4); });
    cache.get("c", [] { return pixels(4, 4); });
    cache.get("a", [] { return pixels(4, 4); });  // a is used again: b is now the oldest
    cache.get("d", [] { return pixels(4, 4); });
    REQUIRE(cache.contains("a"));
    REQUIRE_FALSE(cache.contains("b"));
    REQUIRE(cache.contains("c"));
    REQUIRE(cache.contains("d"));
    REQUIRE(gl.alive.size() == 3);
}

TEST_CASE("a texture larger than the whole budget is still kept while it is used") {
    FakeGl gl;
    TextureCache cache = gl.make(16);
    CachedTexture t = cache.get("big", [] { return pixels(8, 8); });
    REQUIRE(t.width == 8);
    REQUIRE(cache.contains("big"));
}

TEST_CASE("a picture keyed by its image's values outlives a new trace of the same image") {
    FakeGl gl;
    TextureCache cache = gl.make();
    const std::vector<float> photo(48, 0.25f), other(48, 0.5f);
    auto by_content = [&](const std::string& trace_key, const std::vector<float>& values) {
        return cache.get_by_content(
            trace_key, [&] { return image_key(values.data(), values.size(), "picture"); }, [] { return pixels(4, 4); });
    };
    by_content("g1|input|picture", photo);
    cache.get("g1|attn", [] { return pixels(4, 4); });
    REQUIRE(cache.uploads() == 2);
    cache.new_trace();
    CHECK(gl.alive.size() == 1);  // the heatmap went, the picture stayed
    by_content("g2|input|picture", photo);
    CHECK(cache.uploads() == 2);  // the same image: nothing uploaded
    by_content("g2|input|picture", photo);
    CHECK(cache.uploads() == 2);
    cache.new_trace();
    by_content("g3|input|picture", other);
    CHECK(cache.uploads() == 3);  // another image: a new texture
    CHECK(image_key(photo.data(), photo.size(), "a") != image_key(other.data(), other.size(), "a"));
}
