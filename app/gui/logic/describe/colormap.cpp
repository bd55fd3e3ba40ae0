// Colormap tables (matplotlib's RdBu reversed and viridis, sampled) and the
// conversions of tensors to RGBA8 pixels.
#include "logic/describe/colormap.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vit::gui {

namespace {

constexpr Rgb kDiverging[] = {{5, 48, 97},     {33, 102, 172},  {67, 147, 195},  {146, 197, 222},
                              {209, 229, 240}, {247, 247, 247}, {253, 219, 199}, {244, 165, 130},
                              {214, 96, 77},   {178, 24, 43},   {103, 0, 31}};
constexpr Rgb kSequential[] = {{68, 1, 84},    {71, 45, 123}, {59, 82, 139},  {44, 114, 142}, {33, 145, 140},
                               {40, 174, 128}, {94, 201, 98}, {173, 220, 48}, {253, 231, 37}};

template <size_t N>
Rgb lerp_table(const Rgb (&table)[N], float t) {
    if (!(t >= 0.f)) t = 0.f;  // NaN too
    if (t > 1.f) t = 1.f;
    float x = t * (N - 1);
    size_t i = std::min(static_cast<size_t>(x), N - 2);
    float f = x - i;
    auto mix = [f](uint8_t a, uint8_t b) {  // rounded half up, as std::lround (x ≥ 0), without its call
        const float v = a + (b - a) * f;
        const int whole = static_cast<int>(v);
        return static_cast<uint8_t>(whole + (v - whole >= 0.5f ? 1 : 0));
    };
    return {mix(table[i].r, table[i + 1].r), mix(table[i].g, table[i + 1].g), mix(table[i].b, table[i + 1].b)};
}

}  // namespace

Rgb colormap_rgb(Colormap cmap, float t) {
    return cmap == Colormap::Diverging ? lerp_table(kDiverging, t) : lerp_table(kSequential, t);
}

Range data_range(Colormap cmap, const float* data, size_t n) {
    float lo = 0.f, hi = 0.f;
    bool any = false;
    for (size_t i = 0; i < n; ++i) {
        float v = data[i];
        if (!std::isfinite(v)) continue;
        if (!any) lo = hi = v, any = true;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    if (cmap == Colormap::Diverging) {
        float m = std::max(std::fabs(lo), std::fabs(hi));
        if (m == 0.f) m = 1.f;
        return {-m, m};
    }
    lo = std::min(lo, 0.f);
    if (hi <= lo) hi = lo + 1.f;
    return {lo, hi};
}

Range shared_range(Colormap cmap, const std::vector<std::pair<const float*, size_t>>& terms) {
    Range out{0.f, 0.f};
    bool any = false;
    for (const auto& [data, n] : terms) {
        if (!data || n == 0) continue;
        const Range r = data_range(cmap, data, n);
        out = any ? Range{std::min(out.lo, r.lo), std::max(out.hi, r.hi)} : r;
        any = true;
    }
    return any ? out : data_range(cmap, nullptr, 0);
}

ColourScale signed_map_scale(const float* data, size_t n) {
    return {Colormap::Diverging, data_range(Colormap::Diverging, data, n)};
}

float overlay_opacity(float cell_px, float alpha) { return cell_px >= kNumberedCellPx ? 1.f : alpha; }

float normalise(float v, Range r) {
    if (r.hi == r.lo) return 0.5f;
    return std::clamp((v - r.lo) / (r.hi - r.lo), 0.f, 1.f);
}

bool dark_text_on(Rgb c) { return 0.299f * c.r + 0.587f * c.g + 0.114f * c.b > 140.f; }

RgbaImage render_matrix(const float* data, int rows, int cols, Colormap cmap, Range range) {
    RgbaImage img;
    img.width = cols;
    img.height = rows;
    size_t n = static_cast<size_t>(rows) * cols;
    img.range = range.lo == range.hi ? data_range(cmap, data, n) : range;
    img.pixels.resize(n * 4);
    for (size_t i = 0; i < n; ++i) {
        Rgb c = colormap_rgb(cmap, normalise(data[i], img.range));
        if (!std::isfinite(data[i])) c = {255, 0, 255};  // NaN/Inf stand out in magenta
        img.pixels[i * 4 + 0] = c.r;
        img.pixels[i * 4 + 1] = c.g;
        img.pixels[i * 4 + 2] = c.b;
        img.pixels[i * 4 + 3] = 255;
    }
    return img;
}

// The cell of box [r0, r0+f) × [c0, c0+f) that stands out most (render_matrix_reduced).
static float box_extreme(const float* data, int rows, int cols, int r0, int c0, int f, bool diverging) {
    float best = data[static_cast<size_t>(r0) * cols + c0];
    for (int r = r0; r < std::min(rows, r0 + f); ++r)
        for (int c = c0; c < std::min(cols, c0 + f); ++c) {
            const float v = data[static_cast<size_t>(r) * cols + c];
            if (!std::isfinite(v)) return v;
            if (diverging ? std::abs(v) > std::abs(best) : v > best) best = v;
        }
    return best;
}

RgbaImage render_matrix_reduced(const float* data, int rows, int cols, int factor, Colormap cmap, Range range) {
    const int f = std::max(1, factor), out_rows = (rows + f - 1) / f, out_cols = (cols + f - 1) / f;
    std::vector<float> reduced(static_cast<size_t>(out_rows) * out_cols);
    for (int r = 0; r < out_rows; ++r)
        for (int c = 0; c < out_cols; ++c)
            reduced[static_cast<size_t>(r) * out_cols + c] =
                box_extreme(data, rows, cols, r * f, c * f, f, cmap == Colormap::Diverging);
    const Range whole = range.lo == range.hi ? data_range(cmap, data, static_cast<size_t>(rows) * cols) : range;
    return render_matrix(reduced.data(), out_rows, out_cols, cmap, whole);
}

RgbaImage render_colorbar(Colormap cmap) {
    RgbaImage img;
    img.width = 256;
    img.height = 1;
    img.smooth = true;
    img.pixels.resize(256 * 4);
    for (int i = 0; i < 256; ++i) {
        Rgb c = colormap_rgb(cmap, i / 255.f);
        img.pixels[i * 4 + 0] = c.r;
        img.pixels[i * 4 + 1] = c.g;
        img.pixels[i * 4 + 2] = c.b;
        img.pixels[i * 4 + 3] = 255;
    }
    return img;
}

RgbaImage render_picture(const float* chw, int channels, int height, int width, bool smooth) {
    RgbaImage img;
    img.width = width;
    img.height = height;
    img.smooth = smooth;
    size_t plane = static_cast<size_t>(height) * width;
    float lo = 0.f, hi = 1.f;
    size_t n = plane * channels;
    if (n) {
        auto [mn, mx] = std::minmax_element(chw, chw + n);
        if (*mn < -1e-3f || *mx > 1.001f) lo = *mn, hi = *mx > *mn ? *mx : *mn + 1.f;
    }
    img.range = {lo, hi};
    img.pixels.resize(plane * 4);
    for (size_t i = 0; i < plane; ++i) {
        for (int c = 0; c < 3; ++c) {
            float v = chw[(channels == 3 ? c : 0) * plane + i];
            img.pixels[i * 4 + c] = static_cast<uint8_t>(std::lround(255.f * normalise(v, img.range)));
        }
        img.pixels[i * 4 + 3] = 255;
    }
    return img;
}

RgbaImage shrink_image(const RgbaImage& img, int factor) {
    if (factor <= 1) return img;
    RgbaImage out;
    out.width = std::max(1, img.width / factor);
    out.height = std::max(1, img.height / factor);
    out.range = img.range;
    out.smooth = img.smooth;
    out.pixels.assign(static_cast<size_t>(out.width) * out.height * 4, 0);
    const int fx = std::min(factor, img.width), fy = std::min(factor, img.height);
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x)
            for (int c = 0; c < 4; ++c) {
                int sum = 0;
                for (int dy = 0; dy < fy; ++dy)
                    for (int dx = 0; dx < fx; ++dx)
                        sum += img.pixels[((static_cast<size_t>(y) * fy + dy) * img.width + x * fx + dx) * 4 + c];
                out.pixels[(static_cast<size_t>(y) * out.width + x) * 4 + c] =
                    static_cast<uint8_t>((sum + fx * fy / 2) / (fx * fy));
            }
    return out;
}

RgbaImage blend_over(const RgbaImage& base, const RgbaImage& top, float alpha) {
    RgbaImage out = base;
    if (top.width <= 0 || top.height <= 0) return out;
    for (int y = 0; y < base.height; ++y)
        for (int x = 0; x < base.width; ++x) {
            size_t ty = static_cast<size_t>(y) * top.height / base.height,
                   tx = static_cast<size_t>(x) * top.width / base.width;
            const uint8_t* t = &top.pixels[(ty * top.width + tx) * 4];
            uint8_t* o = &out.pixels[(static_cast<size_t>(y) * base.width + x) * 4];
            for (int c = 0; c < 3; ++c) o[c] = static_cast<uint8_t>(std::lround(o[c] * (1.f - alpha) + t[c] * alpha));
        }
    return out;
}

std::string short_number(float v, int significant) {
    char buf[32];
    if (v == 0.f) return "0";
    float a = std::fabs(v);
    if (a >= 1e4f || a < 1e-3f) std::snprintf(buf, sizeof buf, "%.*e", std::max(0, significant - 2), v);
    else if (a >= 100.f) std::snprintf(buf, sizeof buf, "%.0f", v);
    else {
        int decimals = std::max(0, significant - 1 - static_cast<int>(std::floor(std::log10(a))));
        decimals = std::min(decimals, 3);
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    }
    return buf;
}

}  // namespace vit::gui
