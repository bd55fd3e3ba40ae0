// What the last frame drew, read back from ImGui's draw lists: the rectangles of
// its pictures, charts or text (the tour's coverage figure, a hand-out's cut-out
// figure), and the text it cut at the edge of a panel that does not scroll that
// way (the page tests fail on it). Read after ImGui::Render, before the next frame.
#pragma once
#include <imgui.h>

#include <string>
#include <vector>

#include "logic/describe/picture_coverage.h"

namespace vit::gui {

// Textures (heatmaps, photos, overlays, colour bars; text and flat shapes use the font atlas and do not
// count); textures and the solid shapes of charts; or text (glyphs and short strokes).
enum class Drawn { Pictures, PicturesAndCharts, Text };

// The rectangles (window pixels, clipped) of the triangles drawn this frame that are `what`.
std::vector<PixelRect> drawn_rects(const ImDrawData* dd, Drawn what);

// Where the last frame cut text: one line per panel and edge ("lesson_caption: text cut at the bottom"),
// for a glyph that straddles the edge of the region it is drawn in, where that panel has no scroll bar
// that way; and for a panel that does not scroll whose content runs past its bottom or right edge.
std::vector<std::string> clipped_text();

}  // namespace vit::gui
