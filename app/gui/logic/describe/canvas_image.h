// The "Draw a digit" canvas as plain data (no GL, no ImGui): a square grid of
// ink in [0,1] that strokes are painted into with a round, antialiased brush,
// and MNIST's normalisation of what was drawn into a 28×28 model input:
// crop to the ink, scale the longer side to 20 px (area-averaging, aspect
// kept), paste into 28×28 so the ink's centre of mass sits at the centre.
// White ink on black, like MNIST. Tested in tests/app/logic/describe/test_canvas_image.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "formats/image.h"
#include "model/model.h"

namespace vit::gui {

struct CanvasPoint {
    float x = 0.f, y = 0.f;  // canvas pixels, (0,0) = top-left corner
};

struct CanvasSegment {
    CanvasPoint from, to;
    float thickness = 0.f;
};

class Canvas {
public:
    static constexpr int kSide = 280;  // 10× MNIST's 28
    explicit Canvas(int side = kSide);

    // A straight piece of stroke with round ends; `thickness` is the brush's
    // diameter in canvas pixels. from == to paints a dot. Ink only adds (max).
    void add_stroke_segment(CanvasPoint from, CanvasPoint to, float thickness);
    void clear();

    int side() const { return side_; }
    bool empty() const { return segments_.empty(); }
    float at(int x, int y) const { return ink_[static_cast<size_t>(y) * side_ + x]; }
    const std::vector<float>& ink() const { return ink_; }
    const std::vector<CanvasSegment>& segments() const { return segments_; }  // for drawing on screen
    uint64_t version() const { return version_; }                             // changes with every stroke and clear

private:
    int side_;
    std::vector<float> ink_;
    std::vector<CanvasSegment> segments_;
    uint64_t version_ = 0;
};

inline constexpr int kMnistSide = 28;
inline constexpr int kMnistBox = 20;

// The canvas as MNIST would have it: 1×28×28, values in [0,1]; all black when
// nothing is drawn. The centre of mass lands on (14,14) to the nearest pixel
// unless that would push ink off the 28×28 field (then the box stays inside).
vit::Image to_mnist(const Canvas& canvas);
// Whether a model reads what the canvas gives: one channel of kMnistSide × kMnistSide
// (the digits model; not the toy, which sees 4×4).
bool takes_drawings(const vit::ModelConfig& config);

// Centre of mass of channel 0 in pixel-edge coordinates (pixel i spans
// [i, i+1], so the middle of a 28-px image is 14). (-1,-1) for a black image.
CanvasPoint ink_centre(const vit::Image& img);

// A hand-like "7" (for the tour and the tests), drawn with the given brush.
void draw_sample_seven(Canvas& canvas, float thickness);

}  // namespace vit::gui
