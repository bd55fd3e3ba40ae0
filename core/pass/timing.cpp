// Timing statistics and the timed forward pass (see timing.h).
#include "pass/timing.h"

#include <algorithm>
#include <optional>

#include "model/packed_weights.h"
#include "pass/forward.h"
#include "pass/rollout.h"

namespace vit {

TimingStats timing_stats(std::vector<double> ms) {
    if (ms.empty()) return {};
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

ForwardTiming time_forward(const Model& model, const Tensor& input, int runs, TraceKeep keep, WeightPacking packing) {
    Trace trace = forward(model, input, {}, keep);
    std::optional<PackedWeights> ahead;
    const PackedWeights* packed = packing == WeightPacking::Ahead ? &ahead.emplace(model) : nullptr;
    std::vector<double> ms;
    for (int i = 0; i < std::max(runs, 1); ++i) {
        const Stopwatch watch;
        if (keep == TraceKeep::Stream) trace = ForwardWalk(model, input, {}, packed, std::move(trace), keep).take();
        else forward_into(model, input, trace, {}, packed);
        ms.push_back(watch.ms());
    }
    ForwardTiming t;
    static_cast<TimingStats&>(t) = timing_stats(std::move(ms));
    t.tokens = static_cast<int>(trace.at(StageRef{StageKind::Tokens}).shape[0]);
    if (keep == TraceKeep::Every) {
        const Stopwatch watch;
        add_rollout(trace);
        t.rollout_ms = watch.ms();
    }
    return t;
}

}  // namespace vit
