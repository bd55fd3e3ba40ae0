// Colour ranges of attention maps: shared by a layer, 0–100%, or each its own.
#include "logic/describe/attention_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vit::gui {

static Range own_range(const float* v, int n) {
    Range r{0.f, 0.f};
    bool any = false;
    for (int i = 0; i < n; ++i) {
        if (!std::isfinite(v[i])) continue;
        if (!any) r.lo = r.hi = v[i], any = true;
        r.lo = std::min(r.lo, v[i]);
        r.hi = std::max(r.hi, v[i]);
    }
    if (!(r.hi > r.lo)) r.hi = r.lo + 1e-6f;  // a flat map: one colour, not a division by zero
    return r;
}

Range attention_range(AttentionScale scale, const std::vector<const float*>& maps, int n, int index) {
    switch (scale) {
        case AttentionScale::Percent: return {0.f, 1.f};
        case AttentionScale::EachMap:
            return index >= 0 && index < static_cast<int>(maps.size()) ? own_range(maps[index], n) : Range{0.f, 1.f};
        case AttentionScale::LayerMax: break;
    }
    float hi = 0.f;
    for (const float* m : maps)
        for (int i = 0; i < n; ++i)
            if (std::isfinite(m[i])) hi = std::max(hi, m[i]);
    return {0.f, hi > 0.f ? hi : 1.f};
}

static std::string percent_text(float v) {
    char b[16];
    std::snprintf(b, sizeof b, v * 100.f >= 9.95f ? "%.0f%%" : "%.1f%%", v * 100.f);
    return b;
}

std::string attention_scale_caption(AttentionScale scale, Range shared, int heads, int layer) {
    const std::string of_layer = std::to_string(heads) + " heads of block " + std::to_string(layer);
    switch (scale) {
        case AttentionScale::LayerMax:
            return "colours: one scale for the " + of_layer + ", 0 … " + percent_text(shared.hi) +
                   " (their largest weight)";
        case AttentionScale::Percent: return "colours: one scale for every map, 0 … 100%";
        case AttentionScale::EachMap:
            return "colours: each map stretched from its own minimum to its own maximum (compare within a map only)";
    }
    return "";
}

std::string attention_scale_rule(AttentionScale scale) {
    switch (scale) {
        case AttentionScale::LayerMax:
            return "the heads of a block share one colour scale, 0 to their largest weight (under the block's name), "
                   "so a brighter head gives that patch more";
        case AttentionScale::Percent: return "one colour scale for every map, 0 … 100%";
        case AttentionScale::EachMap:
            return "each map stretched from its own minimum to its own maximum (compare within a map only)";
    }
    return "";
}

const char* attention_scale_name(AttentionScale scale) {
    switch (scale) {
        case AttentionScale::LayerMax: return "one scale per layer";
        case AttentionScale::Percent: return "0 … 100%";
        case AttentionScale::EachMap: return "each map its own";
    }
    return "";
}

}  // namespace vit::gui
