// Bicubic resampling of the positional embedding over the patch grid
// (timm layers/pos_embed.py: resample_abs_pos_embed; transformers'
// modeling_dinov2.py: interpolate_pos_encoding; the prefix rows kept) and the
// transpose of timm's.
#include "pass/pos_embed.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "formats/image.h"

namespace vit {

namespace {

// One output index of PyTorch's upsample_bicubic2d (align_corners=False, size
// given): the 4 source indices, clamped to the border, and their weights
// (cubic convolution with A = -0.75).
struct CubicTaps {
    int index[4];
    float weight[4];
};

CubicTaps cubic_taps(int out_index, int in_size, int out_size) {
    constexpr float A = -0.75f;
    const float scale = static_cast<float>(in_size) / static_cast<float>(out_size);
    const float real = scale * (static_cast<float>(out_index) + 0.5f) - 0.5f;
    const int base = static_cast<int>(std::floor(real));
    const float t = real - static_cast<float>(base);
    const auto near = [&](float x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };       // |x| <= 1
    const auto far = [&](float x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };  // 1 < |x| < 2
    CubicTaps taps{{}, {far(t + 1), near(t), near(1 - t), far(2 - t)}};
    for (int k = 0; k < 4; ++k) taps.index[k] = std::min(std::max(base - 1 + k, 0), in_size - 1);
    return taps;
}

// F.interpolate(mode="bicubic", align_corners=False, antialias=False) of a
// C×H×W picture to C×out×out, separably (rows, then columns).
Image resize_bicubic_plain(const Image& in, int out) {
    Image rows{in.channels, out, in.width, std::vector<float>(size_t(in.channels) * out * in.width, 0.0f)};
    for (int y = 0; y < out; ++y) {
        const CubicTaps taps = cubic_taps(y, in.height, out);
        for (int c = 0; c < in.channels; ++c)
            for (int k = 0; k < 4; ++k)
                for (int x = 0; x < in.width; ++x)
                    rows.data[(size_t(c) * out + y) * in.width + x] +=
                        taps.weight[k] * in.data[(size_t(c) * in.height + taps.index[k]) * in.width + x];
    }
    Image result{in.channels, out, out, std::vector<float>(size_t(in.channels) * out * out, 0.0f)};
    for (int x = 0; x < out; ++x) {
        const CubicTaps taps = cubic_taps(x, in.width, out);
        for (int c = 0; c < in.channels; ++c)
            for (int y = 0; y < out; ++y)
                for (int k = 0; k < 4; ++k)
                    result.data[(size_t(c) * out + y) * out + x] +=
                        taps.weight[k] * rows.data[(size_t(c) * out + y) * in.width + taps.index[k]];
    }
    return result;
}

}  // namespace

Mat resample_pos_embed(const Mat& pos, int grid, int prefix, PosResample mode) {
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
        for (int c = 0; c < dim; ++c)
            grid_image.data[static_cast<size_t>(c) * old_grid * old_grid + p] = pos(prefix + p, c);

    const Image resized = mode == PosResample::Bicubic ? resize_bicubic_plain(grid_image, grid)
                                                       : resize(grid_image, grid, grid, "bicubic");
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
