// The drawing canvas and MNIST's normalisation (see canvas_image.h).
#include "logic/describe/canvas_image.h"

#include <algorithm>
#include <cmath>

namespace vit::gui {

Canvas::Canvas(int side) : side_(std::max(1, side)), ink_(static_cast<size_t>(side_) * side_, 0.f) {}

void Canvas::add_stroke_segment(CanvasPoint a, CanvasPoint b, float thickness) {
    float r = std::max(0.5f, thickness * 0.5f);
    segments_.push_back({a, b, thickness});
    ++version_;
    int x0 = std::max(0, int(std::floor(std::min(a.x, b.x) - r - 1)));
    int x1 = std::min(side_ - 1, int(std::ceil(std::max(a.x, b.x) + r + 1)));
    int y0 = std::max(0, int(std::floor(std::min(a.y, b.y) - r - 1)));
    int y1 = std::min(side_ - 1, int(std::ceil(std::max(a.y, b.y) + r + 1)));
    float dx = b.x - a.x, dy = b.y - a.y;
    float len2 = dx * dx + dy * dy;
    for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) {
            float px = x + 0.5f, py = y + 0.5f;  // pixel centre
            float t = len2 > 0.f ? std::clamp(((px - a.x) * dx + (py - a.y) * dy) / len2, 0.f, 1.f) : 0.f;
            float ex = px - (a.x + t * dx), ey = py - (a.y + t * dy);
            float d = std::sqrt(ex * ex + ey * ey);
            float cover = std::clamp(r + 0.5f - d, 0.f, 1.f);  // one pixel of antialiased edge
            float& v = ink_[static_cast<size_t>(y) * side_ + x];
            v = std::max(v, cover);
        }
    }
}

void Canvas::clear() {
    std::fill(ink_.begin(), ink_.end(), 0.f);
    segments_.clear();
    ++version_;
}

CanvasPoint ink_centre(const vit::Image& img) {
    double sum = 0, sx = 0, sy = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x) {
            double v = img.data[static_cast<size_t>(y) * img.width + x];
            sum += v;
            sx += v * (x + 0.5);
            sy += v * (y + 0.5);
        }
    if (sum <= 0) return {-1.f, -1.f};
    return {float(sx / sum), float(sy / sum)};
}

vit::Image to_mnist(const Canvas& canvas) {
    vit::Image out;
    out.channels = 1;
    out.height = out.width = kMnistSide;
    out.data.assign(kMnistSide * kMnistSide, 0.f);
    const int n = canvas.side();
    int bx0 = n, by0 = n, bx1 = -1, by1 = -1;  // the ink's bounding box
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            if (canvas.at(x, y) > 0.f) {
                bx0 = std::min(bx0, x), bx1 = std::max(bx1, x);
                by0 = std::min(by0, y), by1 = std::max(by1, y);
            }
    if (bx1 < 0) return out;
    vit::Image crop;
    crop.channels = 1;
    crop.width = bx1 - bx0 + 1;
    crop.height = by1 - by0 + 1;
    crop.data.resize(static_cast<size_t>(crop.width) * crop.height);
    for (int y = 0; y < crop.height; ++y)
        for (int x = 0; x < crop.width; ++x)
            crop.data[static_cast<size_t>(y) * crop.width + x] = canvas.at(bx0 + x, by0 + y);
    // Longer side → 20 px, aspect kept; PIL's antialiased bilinear averages the area.
    float s = float(kMnistBox) / std::max(crop.width, crop.height);
    int w = std::clamp(int(std::lround(crop.width * s)), 1, kMnistBox);
    int h = std::clamp(int(std::lround(crop.height * s)), 1, kMnistBox);
    vit::Image box = vit::resize(crop, h, w, "bilinear");
    for (float& v : box.data) v = std::clamp(v, 0.f, 1.f);
    CanvasPoint c = ink_centre(box);
    int ox = std::clamp(int(std::lround(kMnistSide * 0.5f - c.x)), 0, kMnistSide - w);
    int oy = std::clamp(int(std::lround(kMnistSide * 0.5f - c.y)), 0, kMnistSide - h);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            out.data[static_cast<size_t>(oy + y) * kMnistSide + ox + x] = box.data[static_cast<size_t>(y) * w + x];
    return out;
}

void draw_sample_seven(Canvas& canvas, float thickness) {
    const float k = canvas.side() / 280.f;
    const CanvasPoint pts[] = {{70, 62},   {120, 58},  {170, 56},  {205, 60},
                               {185, 110}, {162, 160}, {145, 205}, {135, 235}};
    for (size_t i = 0; i + 1 < std::size(pts); ++i)
        canvas.add_stroke_segment({pts[i].x * k, pts[i].y * k}, {pts[i + 1].x * k, pts[i + 1].y * k}, thickness);
}

bool takes_drawings(const vit::ModelConfig& config) {
    return config.channels == 1 && config.preprocess.image_size == kMnistSide;
}

}  // namespace vit::gui
