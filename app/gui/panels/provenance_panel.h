// The side panel's "Where this number comes from": the clicked
// cell's inputs as strips of colour (numbers under the mouse, and in the
// cells when few), the arithmetic with the numbers, and the value recomputed
// from them beside the trace's.
#pragma once
#include "views/widgets/view_common.h"

namespace vit::gui {

// Draws the section when the clicked cell belongs to the stage on screen, or a
// one-line hint on stages that explain their cells.
void DrawCellProvenance(ViewContext& ctx);

}  // namespace vit::gui
