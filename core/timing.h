// Timing the full-trace forward pass: one warm-up run whose Trace every later
// run reuses (no allocation inside the timed loop), then the median and the
// minimum of `runs` runs. Used by `vitviz-cli --bench` and vitviz-bench.
#pragma once
#include "model.h"
#include "tensor.h"

namespace vit {

struct ForwardTiming {
    double median_ms = 0;
    double min_ms = 0;
    int tokens = 0;  // T, for forward_flops()
};

ForwardTiming time_forward(const Model& model, const Tensor& input, int runs);

}  // namespace vit
