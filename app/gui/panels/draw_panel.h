// The "Draw a digit" panel, at the top of the side column: a canvas drawn with the mouse (ImGui's draw
// list), Clear, a brush-thickness slider, the 28×28 MNIST-normalised image the
// model gets (canvas_image.h), and the live top-3 prediction. While it is open
// the canvas is the image source: App sends every change of the canvas to the
// loader (at most one forward in flight, so at most one per frame).
#pragma once
#include <cstdint>
#include <memory>

#include "logic/describe/canvas_image.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

struct DrawPanelState {
    bool visible = false;
    Canvas canvas;
    float thickness = 22.f;                     // brush diameter in canvas pixels (the canvas is 280 across)
    bool stroking = false;                      // mouse held down on the canvas
    CanvasPoint last;                           // where the stroke was last frame
    uint64_t sent_version = 0;                  // canvas version last sent to the loader
    uint64_t shown_version = ~0ull;             // canvas version the current trace was computed from (~0: none)
    std::shared_ptr<const vit::Image> preview;  // to_mnist(canvas) as last sent
};

// The name the status bar and title show for a canvas image.
inline constexpr const char* kCanvasImageName = "drawn digit";

// Draws in the current region, its full width. `trace`/`model` may be null (nothing loaded yet);
// `busy`: a forward is running.
void DrawDrawPanel(DrawPanelState& panel, const Trace* trace, const Model* model, bool busy);

}  // namespace vit::gui
