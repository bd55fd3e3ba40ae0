// A hand-out step's figure: the picture region of the window the step is
// about, cut out of a screenshot, made fit for paper and encoded compactly.
// The region is the bounding box of the pictures (heatmaps, photos, colour
// bars, charts) drawn in the view, grown to hold their titles, axis labels and
// colour-bar ticks. Around the pictures the app's dark
// background and light text are turned light and dark (lightness inverted,
// hue kept); the pictures' own pixels are kept as drawn, so every colour
// still means what its colour bar says. Plain data, no ImGui.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "logic/describe/colormap.h"
#include "logic/describe/picture_coverage.h"

namespace vit::gui {

// What a frame drew, in window pixels.
struct FigureDrawing {
    std::vector<PixelRect> pictures;  // textures and the solid shapes of charts (bars, plot areas)
    std::vector<PixelRect> text;      // glyphs
    std::vector<PixelRect> regions;   // where a figure may be cut from: the view (and the dock under it)
    float margin = 0.f;               // room around the pictures for titles, ticks and colour bars
};

// The figure's rectangle: the bounding box of the pictures whose centre lies in a region,
// grown by the margin, then by all the text of the regions whose centre lies at the heights
// it spans (a title or a tick label wider than its picture is kept whole), less a line the
// edge would cut in half, clipped to the
// regions' bounding box; that box itself when no picture lies in them. In whole pixels.
PixelRect figure_rect(const FigureDrawing& d);

// The pixels of `img` inside `r` (clipped to the image).
RgbaImage crop(const RgbaImage& img, const PixelRect& r);

// Turns every pixel inside `inside` and outside `keep` light where it was dark and dark where it
// was light: c' = c + 255 - max(r, g, b) - min(r, g, b), stretched so the app's background grey
// becomes white (black becomes white, white black, a saturated colour stays, a little lighter).
// Pixels outside both (another panel the crop spans) become white.
void lighten_around(RgbaImage& img, const std::vector<PixelRect>& keep, const std::vector<PixelRect>& inside);

// `img` shrunk to `factor` (0 < factor <= 1) of its width and height, each pixel the mean of those it covers.
RgbaImage downscale(const RgbaImage& img, float factor);

// The figure as a PNG of at most `max_bytes` (the best stb compression; shrunk in steps of 0.85
// only while it is larger). Throws vit::Error when it cannot be encoded.
std::vector<uint8_t> figure_png(const RgbaImage& figure, size_t max_bytes);

}  // namespace vit::gui
