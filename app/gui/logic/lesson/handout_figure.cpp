// A hand-out step's figure: its region, crop, light background and compact PNG (see handout_figure.h).
#include "logic/lesson/handout_figure.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "base/error.h"
#include "logic/state/export.h"

namespace vit::gui {

namespace {

bool contains(const PixelRect& r, float x, float y) { return x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1; }

PixelRect bounds(const PixelRect& a, const PixelRect& b) {
    return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

// The app's window background (ImGui's dark style, a 0.06 grey): it becomes pure white.
constexpr int kAppBackground = 15;

const PixelRect kEmpty{FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};

}  // namespace

PixelRect figure_rect(const FigureDrawing& d) {
    PixelRect area = kEmpty, box = kEmpty;
    for (const PixelRect& r : d.regions) area = bounds(area, r);
    if (area.x1 <= area.x0) return {};
    auto in_regions = [&](const PixelRect& p) {
        const float cx = 0.5f * (p.x0 + p.x1), cy = 0.5f * (p.y0 + p.y1);
        return std::any_of(d.regions.begin(), d.regions.end(), [&](const PixelRect& r) { return contains(r, cx, cy); });
    };
    for (const PixelRect& p : d.pictures)
        if (in_regions(p)) box = bounds(box, p);
    if (box.x1 <= box.x0) box = area;
    PixelRect content = box;  // the pictures and the text kept with them, which no edge may cut
    box = {box.x0 - d.margin, box.y0 - d.margin, box.x1 + d.margin, box.y1 + d.margin};
    const PixelRect zone = box;
    for (const PixelRect& t : d.text) {
        const float cy = 0.5f * (t.y0 + t.y1);
        if (cy >= zone.y0 && cy < zone.y1 && in_regions(t)) box = bounds(box, t), content = bounds(content, t);
    }
    for (const PixelRect& t : d.text) {  // a line of text the edge would cut in half is left out whole
        const float cy = 0.5f * (t.y0 + t.y1);
        if (cy >= zone.y1 && t.y0 < box.y1) box.y1 = std::max(t.y0, content.y1);
        if (cy < zone.y0 && t.y1 > box.y0) box.y0 = std::min(t.y1, content.y0);
    }
    return {std::floor(std::max(box.x0, area.x0)), std::floor(std::max(box.y0, area.y0)),
            std::ceil(std::min(box.x1, area.x1)), std::ceil(std::min(box.y1, area.y1))};
}

RgbaImage crop(const RgbaImage& img, const PixelRect& r) {
    const int x0 = std::clamp(int(r.x0), 0, img.width), y0 = std::clamp(int(r.y0), 0, img.height);
    const int x1 = std::clamp(int(r.x1), x0, img.width), y1 = std::clamp(int(r.y1), y0, img.height);
    RgbaImage out;
    out.width = x1 - x0, out.height = y1 - y0;
    out.pixels.reserve(size_t(out.width) * out.height * 4);
    for (int y = y0; y < y1; ++y) {
        const auto row = img.pixels.begin() + (size_t(y) * img.width + x0) * 4;
        out.pixels.insert(out.pixels.end(), row, row + size_t(out.width) * 4);
    }
    return out;
}

void lighten_around(RgbaImage& img, const std::vector<PixelRect>& keep, const std::vector<PixelRect>& inside) {
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            const float cx = x + 0.5f, cy = y + 0.5f;
            auto has = [&](const PixelRect& r) { return contains(r, cx, cy); };
            if (std::any_of(keep.begin(), keep.end(), has)) continue;
            uint8_t* p = &img.pixels[(size_t(y) * img.width + x) * 4];
            if (std::none_of(inside.begin(), inside.end(), has)) {
                std::fill(p, p + 3, uint8_t(255));
                continue;
            }
            const int shift = 255 - std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]});
            for (int c = 0; c < 3; ++c)
                p[c] = uint8_t(std::clamp((p[c] + shift) * 255 / (255 - kAppBackground), 0, 255));
        }
}

RgbaImage downscale(const RgbaImage& img, float factor) {
    RgbaImage out;
    out.width = std::max(1, int(img.width * factor)), out.height = std::max(1, int(img.height * factor));
    out.pixels.resize(size_t(out.width) * out.height * 4);
    const float sx = float(img.width) / out.width, sy = float(img.height) / out.height;
    for (int y = 0; y < out.height; ++y)
        for (int x = 0; x < out.width; ++x) {
            const int ax = int(x * sx), bx = std::max(ax + 1, int((x + 1) * sx));
            const int ay = int(y * sy), by = std::max(ay + 1, int((y + 1) * sy));
            for (int c = 0; c < 4; ++c) {
                int sum = 0;
                for (int v = ay; v < by; ++v)
                    for (int u = ax; u < bx; ++u) sum += img.pixels[(size_t(v) * img.width + u) * 4 + c];
                out.pixels[(size_t(y) * out.width + x) * 4 + c] =
                    uint8_t((sum + (bx - ax) * (by - ay) / 2) / ((bx - ax) * (by - ay)));
            }
        }
    return out;
}

std::vector<uint8_t> figure_png(const RgbaImage& figure, size_t max_bytes) {
    std::string png = encode_png(figure);
    for (float factor = 0.85f; !png.empty() && png.size() > max_bytes && figure.width * factor >= 16.f; factor *= 0.85f)
        png = encode_png(downscale(figure, factor));
    if (png.empty()) throw Error("cannot encode the hand-out's figure as PNG");
    return std::vector<uint8_t>(png.begin(), png.end());
}

}  // namespace vit::gui
