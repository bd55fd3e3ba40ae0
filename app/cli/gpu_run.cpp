// `vitviz-cli --backend gpu` (see gpu_run.h).
#include "gpu_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include "gl_context.h"
#include "gpu_backend.h"

namespace vit::cli {

Trace gpu_forward(const Model& model, const Tensor& input) {
    HiddenGlContext gl;
    GpuBackend gpu;
    gpu.set_model(model);
    return gpu.forward(input);
}

void gpu_bench(const Model& model, const Tensor& input, int runs) {
    HiddenGlContext gl;
    GpuBackend gpu;
    gpu.set_model(model);
    const int tokens = static_cast<int>(gpu.forward(input, GpuBackend::Readback::Predictions).at(StageRef{StageKind::Rollout}).shape[0]);
    std::vector<double> wall, gpu_ms;
    for (int i = 0; i < runs; ++i) {
        const auto start = std::chrono::steady_clock::now();
        gpu.forward(input, GpuBackend::Readback::Predictions);
        wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        gpu_ms.push_back(gpu.last_gpu_ms());
    }
    std::sort(wall.begin(), wall.end());
    std::sort(gpu_ms.begin(), gpu_ms.end());
    const double median = wall[wall.size() / 2];
    std::printf("device: %s\n", gpu.device().c_str());
    std::printf("forward_ms median=%.3f min=%.3f gpu_ms median=%.3f min=%.3f runs=%d gflops=%.1f\n", median,
                wall.front(), gpu_ms[gpu_ms.size() / 2], gpu_ms.front(), runs,
                forward_flops(model.config, tokens) / (median * 1e6));
}

}  // namespace vit::cli
