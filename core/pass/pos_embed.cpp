// Bicubic resampling of the positional embedding over the patch grid
// (timm layers/pos_embed.py: resample_abs_pos_embed; the prefix rows kept)
// and its transpose.
#include "pass/pos_embed.h"

#include <cmath>

#include "base/error.h"
#include "formats/image.h"

namespace vit {

Mat resample_pos_embed(const Mat& pos, int grid, int prefix) {
    const int dim = static_cast<int>(pos.cols());
    const int old_grid = static_cast<int>(std::lround(std::sqrt(static_cast<double>(pos.rows() - prefix))));
    if (old_grid * old_grid != pos.rows() - prefix)
        throw Error("positional embedding has " + std::to_string(pos.rows()) + " rows, not " + std::to_string(prefix) +
                    " + a square grid");
    if (old_grid == grid) return pos;

    // The grid rows as D channels of an old_grid×old_grid picture.
    Image grid_image;
    grid_image.channels = dim;
    grid_image.height = grid_image.width = old_grid;
    grid_image.data.resize(static_cast<size_t>(dim) * old_grid * old_grid);
    for (int p = 0; p < old_grid * old_grid; ++p)
        for (int c = 0; c < dim; ++c) grid_image.data[static_cast<size_t>(c) * old_grid * old_grid + p] = pos(prefix + p, c);

    const Image resized = resize(grid_image, grid, grid, "bicubic");
    Mat out(prefix + grid * grid, dim);
    out.topRows(prefix) = pos.topRows(prefix);
    for (int p = 0; p < grid * grid; ++p)
        for (int c = 0; c < dim; ++c) out(prefix + p, c) = resized.data[static_cast<size_t>(c) * grid * grid + p];
    return out;
}

Mat resample_pos_embed_backward(const Mat& dout, int old_grid) {
    const int grid = static_cast<int>(std::lround(std::sqrt(static_cast<double>(dout.rows() - 1))));
    if (grid == old_grid) return dout;
    // weights(q, p): how much old grid cell p contributes to new cell q, read
    // off by resizing one picture per old cell (channel p = the indicator of p).
    const int old_cells = old_grid * old_grid, cells = grid * grid;
    Image indicators;
    indicators.channels = old_cells;
    indicators.height = indicators.width = old_grid;
    indicators.data.assign(static_cast<size_t>(old_cells) * old_cells, 0.0f);
    for (int p = 0; p < old_cells; ++p) indicators.data[static_cast<size_t>(p) * old_cells + p] = 1.0f;
    const Image resized = resize(indicators, grid, grid, "bicubic");
    const ConstMatMap weights_t(resized.data.data(), old_cells, cells);  // row p = weights(·, p)

    Mat dpos(1 + old_cells, dout.cols());
    dpos.row(0) = dout.row(0);
    dpos.bottomRows(old_cells).noalias() = weights_t * dout.bottomRows(cells);
    return dpos;
}

}  // namespace vit
