// The model view's grid geometry.
#include "logic/layout/model_view_layout.h"

#include <algorithm>

namespace vit::gui {

static constexpr float kBandGaps = 4.f;  // space between bands, in gaps

// The cell side when `layers` wrap into `bands` bands.
static float cell_side(int layers, int heads, int bands, const ModelGridSizes& s) {
    const int rows = (layers + bands - 1) / bands;
    const float by_w = (s.width - bands * s.label_w - (bands - 1) * kBandGaps * s.gap) / (bands * heads) - s.gap;
    const float by_h = (s.height - s.label_h) / rows - s.gap;
    return std::max(0.f, std::min(by_w, by_h));
}

ModelGridLayout model_grid_layout(int layers, int heads, const ModelGridSizes& s) {
    ModelGridLayout g;
    g.layers = std::max(layers, 0);
    g.heads = std::max(heads, 0);
    g.label_w = s.label_w;
    g.label_h = s.label_h;
    g.gap = s.gap;
    g.band_layers = g.layers;
    if (g.layers == 0 || g.heads == 0) return g;
    for (int bands = 1; bands <= g.layers; ++bands) {
        const float cell = cell_side(g.layers, g.heads, bands, s);
        if (cell > g.cell) g.cell = cell, g.bands = bands;  // the fewest bands that give the largest cells
    }
    g.band_layers = (g.layers + g.bands - 1) / g.bands;
    g.bands = (g.layers + g.band_layers - 1) / g.band_layers;  // no empty band at the end
    return g;
}

float ModelGridLayout::band_x(int band) const { return band * (label_w + heads * (cell + gap) + kBandGaps * gap); }

LayoutRect ModelGridLayout::cell_rect(int layer, int head) const {
    const int band = layer / band_layers, row = layer % band_layers;
    return {band_x(band) + label_w + head * (cell + gap), label_h + row * (cell + gap), cell, cell};
}

LayoutRect ModelGridLayout::layer_label(int layer) const {
    const int band = layer / band_layers, row = layer % band_layers;
    return {band_x(band), label_h + row * (cell + gap), label_w - gap, cell};
}

LayoutRect ModelGridLayout::head_label(int head, int band) const {
    return {band_x(band) + label_w + head * (cell + gap), 0, cell, label_h};
}

bool model_grid_hit(const ModelGridLayout& g, float x, float y, int& layer, int& head) {
    for (int l = 0; l < g.layers; ++l)
        for (int h = 0; h < g.heads; ++h)
            if (g.cell_rect(l, h).contains(x, y)) {
                layer = l, head = h;
                return true;
            }
    return false;
}

}  // namespace vit::gui
