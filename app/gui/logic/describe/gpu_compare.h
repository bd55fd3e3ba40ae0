// CPU vs GPU, the parts without GL: how far the GPU Trace is from the CPU
// Trace (per stage, the core's compare() under the core's gpu_tolerance(), the
// rule the GPU tests check), the |gpu − cpu| tensor of a
// stage for the difference heatmap, and starting the GPU backend so that a
// failure (no OpenGL 4.3 context, a shader that does not compile) becomes a
// message with the log and the app carries on with the CPU core.
// The GL side (owning vit::GpuBackend) is gpu_session.h; tests:
// tests/app/logic/describe/test_gpu_compare.cpp.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "logic/describe/view_choices.h"
#include "explain/compare.h"
#include "pass/trace.h"

namespace vit::gui {

struct StageDiff {
    std::string id;
    Difference gpu;       // the GPU's stage against the CPU's (got = gpu, want = cpu)
    std::string problem;  // "missing on the GPU", "shape (4, 5) vs (4, 6)"; empty when compared
    bool within() const { return problem.empty() && gpu.within(); }
    double max_abs() const;  // infinite when there is a problem
};

struct TraceDiff {
    std::vector<StageDiff> stages;  // CPU catalogue order
    const StageDiff* find(const std::string& id) const;
    const StageDiff* worst() const;  // the largest max_abs() (a stage with a problem first); nullptr when empty
    bool all_within() const;         // every stage compared and within tolerance
};

// Under gpu_tolerance() for a pass at softmax temperature τ.
StageDiff diff_stage(const Stage& cpu, const Tensor& gpu, float temperature = 1.0f);
// Every stage of `cpu` against the stage of the same id in `gpu`.
TraceDiff diff_traces(const Trace& cpu, const Trace& gpu, float temperature = 1.0f);
// |gpu − cpu| element-wise, same shape (an empty tensor when the shapes differ).
Tensor abs_difference(const Tensor& cpu, const Tensor& gpu);

// Whether the GPU backend started, and why not.
struct GpuStatus {
    bool built = true;  // false where the build has no GPU backend (the browser's): nothing tried, nothing failed
    bool tried = false;
    bool failed = false;
    std::string error;  // the backend's message, shader compile log included; where not built, why
    bool usable() const { return built && !failed; }
};

// Runs `start` (construct the backend, upload the model, run a pass). An
// exception becomes status.error, the backend is marked failed and `backend`
// goes back to the CPU; returns whether `start` succeeded.
bool run_gpu_step(GpuStatus& status, Backend& backend, const std::function<void()>& start);

// What the CPU vs GPU panel (panels/backend_panel.h) reads of the GPU side: GpuSession::comparison()
// (controllers/gpu_session.h) lends it, so the panel needs no controller.
struct GpuComparison {
    const GpuStatus& status;
    bool has_result;  // a GPU pass of the trace on screen
    const std::string& device;
    double cpu_ms, gpu_ms, gpu_wall_ms;  // the CPU forward; the GPU pass (GL timer); with upload and read-back
    const TraceDiff& diff;
    uint64_t pass;                                                   // counts GPU passes (texture keys)
    std::function<const Tensor*(const std::string& id)> difference;  // |gpu − cpu| of one stage; nullptr: none
};

// "no OpenGL 4.3 context: …" → a first line for the panel and the message bar;
// the rest (the compile log) is shown below it.
std::string first_line(const std::string& text);

}  // namespace vit::gui
