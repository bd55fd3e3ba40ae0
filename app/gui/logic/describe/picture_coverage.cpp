// The union area of rectangles, one pixel row at a time (merged intervals), and a tour's mean.
#include "logic/describe/picture_coverage.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

namespace vit::gui {

double covered_share(const std::vector<PixelRect>& rects, int width, int height) {
    if (width <= 0 || height <= 0) return 0.0;
    double covered = 0.0;
    std::vector<std::pair<float, float>> spans;
    for (int y = 0; y < height; ++y) {
        const float cy = y + 0.5f;  // a pixel row is covered where its centre line is
        spans.clear();
        for (const PixelRect& r : rects) {
            if (cy < r.y0 || cy >= r.y1) continue;
            float a = std::max(r.x0, 0.f), b = std::min(r.x1, float(width));
            if (b > a) spans.emplace_back(a, b);
        }
        std::sort(spans.begin(), spans.end());
        float end = 0.f;
        for (const auto& [a, b] : spans) {
            float from = std::max(a, end);
            if (b > from) covered += b - from;
            end = std::max(end, b);
        }
    }
    return covered / (double(width) * height);
}

double mean_share(const std::vector<double>& shares) {
    return shares.empty() ? 0.0 : std::accumulate(shares.begin(), shares.end(), 0.0) / double(shares.size());
}

}  // namespace vit::gui
