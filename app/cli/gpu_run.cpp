// `vitviz-cli --backend gpu` (see gpu_run.h).
#include "gpu_run.h"

#include <cstdio>
#include <vector>

#include "gl_context.h"
#include "gpu_backend.h"
#include "pass/timing.h"

namespace vit::cli {

Trace gpu_forward(const Model& model, const Tensor& input, const Interventions& iv) {
    ComputeGlContext gl;
    std::fprintf(stderr, "vitviz-cli: GPU: %s, through %s\n", gpu::gl_description().c_str(), gl.source().c_str());
    GpuBackend gpu;
    gpu.set_model(model);
    return gpu.forward(input, GpuBackend::Readback::All, iv);
}

void gpu_bench(const Model& model, const Tensor& input, int runs) {
    ComputeGlContext gl;
    GpuBackend gpu;
    gpu.set_model(model);
    const int tokens = static_cast<int>(
        gpu.forward(input, GpuBackend::Readback::Predictions).at(StageRef{StageKind::Rollout}).shape[0]);
    std::vector<double> wall_ms, gpu_ms;
    for (int i = 0; i < runs; ++i) {
        const Stopwatch watch;
        gpu.forward(input, GpuBackend::Readback::Predictions);
        wall_ms.push_back(watch.ms());
        gpu_ms.push_back(gpu.last_gpu_ms());
    }
    const TimingStats wall = timing_stats(wall_ms), on_gpu = timing_stats(gpu_ms);
    std::printf("device: %s\n", gpu.device().c_str());
    std::printf("forward_ms median=%.3f min=%.3f gpu_ms median=%.3f min=%.3f runs=%d gflops=%.1f\n", wall.median_ms,
                wall.min_ms, on_gpu.median_ms, on_gpu.min_ms, runs,
                forward_flops(model.config, tokens) / (wall.median_ms * 1e6));
}

}  // namespace vit::cli
