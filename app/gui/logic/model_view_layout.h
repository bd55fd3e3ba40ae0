// Where each cell of the model view goes (BertViz's model view over the
// image): a layers × heads grid of square cells, layer names in a column at
// the left, head names in a row on top, every cell the same size and as large
// as the region allows. Pure geometry, no ImGui: tests/app/test_model_view_layout.cpp.
#pragma once
#include "overview_layout.h"  // LayoutRect

namespace vit::gui {

struct ModelGridSizes {
    float width = 0, height = 0;  // the region
    float label_w = 70;           // "block 11" column
    float label_h = 20;           // "head 11" row
    float gap = 4;                // between cells
};

struct ModelGridLayout {
    int layers = 0, heads = 0;
    float cell = 0;               // cell side
    LayoutRect cell_rect(int layer, int head) const;
    LayoutRect layer_label(int layer) const;  // left of the row
    LayoutRect head_label(int head) const;    // above the column
    float label_w = 0, label_h = 0, gap = 0;
};

ModelGridLayout model_grid_layout(int layers, int heads, const ModelGridSizes& sizes);
// The (layer, head) cell under a point; false between cells and outside.
bool model_grid_hit(const ModelGridLayout& g, float x, float y, int& layer, int& head);

}  // namespace vit::gui
