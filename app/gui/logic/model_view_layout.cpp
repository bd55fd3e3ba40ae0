// The model view's grid geometry.
#include "model_view_layout.h"

#include <algorithm>

namespace vit::gui {

ModelGridLayout model_grid_layout(int layers, int heads, const ModelGridSizes& s) {
    ModelGridLayout g;
    g.layers = std::max(layers, 0);
    g.heads = std::max(heads, 0);
    g.label_w = s.label_w;
    g.label_h = s.label_h;
    g.gap = s.gap;
    if (g.layers == 0 || g.heads == 0) return g;
    float by_w = (s.width - s.label_w) / g.heads - s.gap;
    float by_h = (s.height - s.label_h) / g.layers - s.gap;
    g.cell = std::max(0.f, std::min(by_w, by_h));
    return g;
}

LayoutRect ModelGridLayout::cell_rect(int layer, int head) const {
    return {label_w + head * (cell + gap), label_h + layer * (cell + gap), cell, cell};
}

LayoutRect ModelGridLayout::layer_label(int layer) const { return {0, label_h + layer * (cell + gap), label_w - gap, cell}; }

LayoutRect ModelGridLayout::head_label(int head) const { return {label_w + head * (cell + gap), 0, cell, label_h}; }

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
