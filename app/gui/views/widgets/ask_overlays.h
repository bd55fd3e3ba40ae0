// The Ask panel's marks on pictures of the image, shared by the panel and the
// attention screen: masked patches hatched grey, dropped tokens crossed in red,
// painting them with the mouse (left: paint, right: clear), silenced heads greyed,
// the occlusion map's patches not computed yet (flat grey, dotted), and a stale map marked so.
#pragma once
#include <imgui.h>

#include <vector>

#include "logic/ask/ask_state.h"
#include "views/widgets/view_common.h"

namespace vit::gui {

void DrawPatchMarks(const AskState& ask, ImVec2 p0, ImVec2 p1, int grid);
// The mouse held over a patch of the picture just drawn: left paints it, right clears it.
void PaintPatches(AskState& ask, const PictureResult& picture);
// A grey veil with "silenced" over the last item (a head's map).
void DrawSilencedVeil();
// An orange "stale: recomputing" badge at the top left of a picture (p0, `side` wide) made
// for another pass than the one shown, until its new values replace it.
void StaleMark(ImVec2 p0, float side);
// A legend line: the two marks and what they mean.
void PatchMarksLegend();
// Over the picture just drawn (p0…p1, grid × grid patches): the cells whose value is NaN, not computed yet.
void DrawPendingCells(const std::vector<float>& values, ImVec2 p0, ImVec2 p1, int grid);
// A legend line for them.
void PendingCellsLegend(int computed, int total);

}  // namespace vit::gui
