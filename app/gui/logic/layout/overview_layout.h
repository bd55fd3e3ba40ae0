// Where each thumbnail of the overview screen goes (CNN Explainer's overview):
// every stage of the pipeline in catalogue order, one row per group
// (embedding, Block 0 … depth-1, head), or — when the thumbnails come out
// larger that way — each block in two rows, its attention half (ln1 … res1)
// over its MLP half (ln2 … out). A row carries its stage names above it unless
// the row before it has the same stages in the same columns (Block 1 under
// Block 0). Thumbnails are square, or longer on the side that has room: up to
// kMaxThumbTall times taller (a shallow model fills the height) or kMaxThumbWide
// times wider (a deep model's stripes fill the width and leave room for the names).
// Each block's residual adds are skips: an arrow under the row from
// where the stream leaves (ln1, ln2) to where it is added back (res1, out).
// A deep model, whose rows would come out thinner than kFocusBelow text lines,
// draws one block large (`focus`: the attention screen's layer, with its names
// and skips) and the other blocks as thin strips (kStripShare of a plain row).
// Pure geometry, no ImGui: tests/app/logic/layout/test_layouts.cpp.
#pragma once
#include <vector>

#include "logic/state/app_state.h"

namespace vit::gui {

struct LayoutRect {
    float x = 0, y = 0, w = 0, h = 0;
    bool contains(float px, float py) const { return px >= x && px < x + w && py >= y && py < y + h; }
};

struct OverviewRow {
    int group = 0;             // Pipeline group: 0 embedding, 1 + b block b, depth + 1 head
    int first = 0, count = 0;  // stages [first, first + count) of the pipeline
    bool names = false;        // stage names drawn above the thumbnails
    bool group_start = true;   // first row of its group: the group's name goes beside it
    LayoutRect band;           // the whole row, label column included
};

struct OverviewSkip {
    int from = 0, to = 0;  // pipeline indices: the stream leaves before `from`, is added back at `to`
};

struct OverviewSizes {
    float width = 0, height = 0;  // the region
    float label_w = 80;           // group names at the left
    float name_h = 16;            // a line of stage names
    float skip_h = 12;            // the band under a block row for its residual arrow
    float gap = 8;                // between thumbnails (the flow arrows go there)
    int focus = -1;               // the block drawn large when the model is deep; -1: none
};

inline constexpr float kMaxThumbTall = 1.5f, kMaxThumbWide = 4.f;
inline constexpr float kFocusBelow = 2.5f, kStripShare = 0.45f;

struct OverviewLayout {
    float thumb_w = 0, thumb_h = 0;  // thumbnail size
    bool split_blocks = false;       // each block in two rows
    int focus = -1;                  // the block drawn large, the others as strips; -1: all rows alike
    std::vector<LayoutRect> thumbs;  // one per pipeline stage, in pipeline order
    std::vector<OverviewRow> rows;
    std::vector<OverviewSkip> skips;
};

OverviewLayout overview_layout(const Pipeline& p, const OverviewSizes& sizes);
// The stage under a point, -1 for none.
int overview_hit(const OverviewLayout& layout, float x, float y);

}  // namespace vit::gui
