// Timing on the steady clock: a stopwatch, the median and minimum of repeated
// runs, and timing the full-trace forward pass (one warm-up run whose Trace
// every later run reuses: no allocation inside the timed loop). Used by the
// app's loader and GPU panel, `vitviz-cli --bench`, vitviz-bench and
// vitviz-gpu-bench.
#pragma once
#include <chrono>
#include <vector>

#include "model/model.h"
#include "pass/trace.h"
#include "tensor/tensor.h"

namespace vit {

// Milliseconds since it was made.
class Stopwatch {
public:
    double ms() const { return std::chrono::duration<double, std::milli>(Clock::now() - start_).count(); }

private:
    using Clock = std::chrono::steady_clock;
    Clock::time_point start_ = Clock::now();
};

struct TimingStats {
    double median_ms = 0;
    double min_ms = 0;
};

// The median and the minimum of `ms` (zeros when empty).
TimingStats timing_stats(std::vector<double> ms);

struct ForwardTiming : TimingStats {
    int tokens = 0;           // T, for forward_flops()
    double rollout_ms = 0.0;  // a full trace: the rollout added once after the timed passes
};

// How a timed pass has the weights its products read: packed once before the first
// pass (packed_weights.h; a second copy of them, as ONNX Runtime holds), or packed
// panel by panel inside each product, as the app's passes have them.
enum class WeightPacking { Ahead, AsItGoes };

// forward_into `runs` times on one reused Trace (every stage but the rollout,
// then timed once apart, as a view or a dump adds it). `keep` Stream: the pass
// that keeps the residual stream instead (its rollout folded in as it goes), as
// the app runs a pass too large.
ForwardTiming time_forward(const Model& model, const Tensor& input, int runs, TraceKeep keep = TraceKeep::Every,
                           WeightPacking packing = WeightPacking::Ahead);

}  // namespace vit
