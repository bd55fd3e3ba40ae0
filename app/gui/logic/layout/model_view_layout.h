// Where each cell of the model view goes (BertViz's model view over the
// image): a layers × heads grid of square cells, layer names in a column at
// the left, head names in a row on top, every cell the same size and as large
// as the region allows. A deep model with few heads (ViT-Ti: 12 × 3) would be
// a thin column, so its layers wrap into bands side by side (blocks 0–5, then
// 6–11), each with its own labels, when that makes the cells larger.
// Pure geometry, no ImGui: tests/app/logic/layout/test_layouts.cpp.
#pragma once
#include "logic/layout/overview_layout.h"  // LayoutRect

namespace vit::gui {

struct ModelGridSizes {
    float width = 0, height = 0;  // the region
    float label_w = 70;           // "block 11" column
    float label_h = 20;           // "head 11" row
    float gap = 4;                // between cells (bands are 4 gaps apart)
};

struct ModelGridLayout {
    int layers = 0, heads = 0;
    int bands = 1, band_layers = 0;  // layers wrap into `bands` bands of `band_layers` rows
    float cell = 0;                  // cell side
    LayoutRect cell_rect(int layer, int head) const;
    LayoutRect layer_label(int layer) const;          // left of the row
    LayoutRect head_label(int head, int band) const;  // above the column, in each band
    float label_w = 0, label_h = 0, gap = 0;

private:
    float band_x(int band) const;
};

ModelGridLayout model_grid_layout(int layers, int heads, const ModelGridSizes& sizes);
// The (layer, head) cell under a point; false between cells and outside.
bool model_grid_hit(const ModelGridLayout& g, float x, float y, int& layer, int& head);

}  // namespace vit::gui
