// Colormaps and the CPU side of every heatmap: a data range (symmetric around 0
// for diverging data, 0 … max for sequential), a value → colour map (RdBu-like
// blue-white-red, viridis-like), and a matrix rendered to RGBA8 pixels ready to
// become a texture. No GL here; the texture cache uploads the pixels once.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "logic/describe/view_choices.h"

namespace vit::gui {

struct Rgb {
    uint8_t r = 0, g = 0, b = 0;
};

struct Range {
    float lo = 0.f, hi = 1.f;
};

// Pixels for a texture, with the data range they encode (for the colour bar).
struct RgbaImage {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;  // width*height*4, row 0 at the top
    Range range;
    bool smooth = false;  // linear filtering (photos) instead of nearest (matrices)
};

// t in [0, 1]: 0 = darkest blue / viridis purple, 0.5 = white / teal, 1 = dark red / yellow.
Rgb colormap_rgb(Colormap cmap, float t);
// Diverging: [-m, m] with m = max |v| (1 when all zero). Sequential: [min(0, lo), hi].
Range data_range(Colormap cmap, const float* data, size_t n);
// The colour-scale policy (docs/DESIGN.md#colour-scales-and-what-the-window-always-says) in one place:
// the terms of a sum (x + branch = result) share one range, the smallest holding
// each term's own data_range, so a small correction looks small beside the stream.
Range shared_range(Colormap cmap, const std::vector<std::pair<const float*, size_t>>& terms);
// A signed map (an occlusion map's change of p, a difference of two passes): the
// diverging colormap on ±max|v|, white at 0, with its own colour bar, so an
// all-negative map is all blue and ±0.2% noise reads ±0.2% on its bar.
struct ColourScale {
    Colormap cmap = Colormap::Diverging;
    Range range;
};
ColourScale signed_map_scale(const float* data, size_t n);
// Cells at least this many pixels wide get their number written in them.
inline constexpr float kNumberedCellPx = 34.f;
// The opacity of an overlay over a picture whose cells are `cell_px` wide: `alpha`
// (the picture shows through), but 1 where each cell holds one number, so the
// picture never tints the colour that stands for that number.
float overlay_opacity(float cell_px, float alpha);
// Position of v in the range, in [0, 1].
float normalise(float v, Range r);
// Black or white, whichever reads better on this background.
bool dark_text_on(Rgb background);

// A rows×cols row-major matrix as pixels (one texel per cell). `range` with
// lo == hi means "compute it with data_range".
RgbaImage render_matrix(const float* data, int rows, int cols, Colormap cmap, Range range = {0.f, 0.f});
// The same matrix `factor` times smaller on each side, each texel the cell of its
// factor × factor box (the last boxes may be partial) that stands out most: the
// largest, or for diverging colours the one farthest from 0; NaN when any is. Its
// range is the whole matrix's, so the colour bar still reads every cell.
RgbaImage render_matrix_reduced(const float* data, int rows, int cols, int factor, Colormap cmap,
                                Range range = {0.f, 0.f});
// A horizontal strip of the colormap (for colour bars), 256 × 1.
RgbaImage render_colorbar(Colormap cmap);
// A C×H×W image (C = 1 or 3) as pixels; values in [0, 1] are shown as they are,
// data outside it is stretched to its own min … max first (the toy's 0 … 15).
RgbaImage render_picture(const float* chw, int channels, int height, int width, bool smooth);

// The image `factor` times smaller on each side (each pixel the mean of a factor×factor
// box; edges that do not fill a box are dropped).
RgbaImage shrink_image(const RgbaImage& img, int factor);
// `top` (stretched to base's size, nearest pixel) laid over `base` with opacity `alpha`:
// one texture where a grid of many small overlays would otherwise draw two layers each.
RgbaImage blend_over(const RgbaImage& base, const RgbaImage& top, float alpha);

// "0.25", "-1.3e+03": short enough for a cell, a tooltip shows the full value.
std::string short_number(float v, int significant = 3);

}  // namespace vit::gui
