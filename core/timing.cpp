// Wall-clock timing of vit::forward_into (see timing.h).
#include "timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include "forward.h"

namespace vit {

ForwardTiming time_forward(const Model& model, const Tensor& input, int runs) {
    Trace trace = forward(model, input);
    std::vector<double> ms;
    for (int i = 0; i < std::max(runs, 1); ++i) {
        const auto start = std::chrono::steady_clock::now();
        forward_into(model, input, trace);
        ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front(), static_cast<int>(trace.at(StageRef{StageKind::Tokens}).shape[0])};
}

}  // namespace vit
