// What the Draw and Train windows share: a small grey image drawn pixel by
// pixel (the 28×28 digit the model sees), and the top classes of a trace as
// labelled bars (label, bar, percent) with the winner in green.
#pragma once
#include "formats/image.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::gui {

// The image's first channel, values 0…1 as black…white, `cell` pixels a pixel.
void DrawGreyImage(const Image& img, float cell);

// Draws `heading` and the `top` most probable classes of trace's `probs`
// stage; a grey line instead when the model has no classifier head.
void DrawTopPredictions(const Trace& trace, const Model& model, int top, const char* heading);

}  // namespace vit::gui
