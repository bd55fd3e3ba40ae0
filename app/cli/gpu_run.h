// The CLI's `--backend gpu`: a hidden OpenGL 4.3 window for the context, the
// GPU backend's forward pass, and its benchmark (GL timer-query time and wall
// time). Built only when the GPU backend is (VITVIZ_WITH_GPU).
#pragma once
#include "pass/interventions.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit::cli {

Trace gpu_forward(const Model& model, const Tensor& input, const Interventions& iv);

// Prints `forward_ms median=… min=… gpu_ms median=… min=… runs=… gflops=…`
// (forward_ms: wall time including read-back of the predictions).
void gpu_bench(const Model& model, const Tensor& input, int runs);

}  // namespace vit::cli
