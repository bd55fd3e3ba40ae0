// How much of the window the pictures cover: the union of the rectangles that
// textures (heatmaps, photos, overlays, colour bars) are drawn in, as a share
// of the window. The tour prints it for every screenshot and their mean, so "pictures fill
// the screen" is a number, not an impression. Plain data, no ImGui.
#pragma once
#include <vector>

namespace vit::gui {

struct PixelRect {
    float x0 = 0.f, y0 = 0.f, x1 = 0.f, y1 = 0.f;
};

// Share in [0, 1] of a width×height window covered by the union of `rects`
// (clipped to the window; overlapping rectangles count once), to the pixel.
double covered_share(const std::vector<PixelRect>& rects, int width, int height);
// The mean of the shares of a tour's screenshots (0 for none): the tour's one number.
double mean_share(const std::vector<double>& shares);

}  // namespace vit::gui
