// The app's GPU side: owns the vit::GpuBackend (gpu/), which runs
// on the window's own GL context, so every call here is on the main thread.
// The backend starts the first time the GPU is chosen; it runs one full pass
// (Readback::All) when the GPU is chosen or the model or image changes — never
// per frame — and keeps that GPU Trace, its times, and its differences from
// the CPU Trace of the same input. A failure (no OpenGL 4.3 context, a shader
// that does not compile, a model it cannot take) becomes status().error, with
// the compile log, and the app goes back to the CPU core.
#pragma once
#include <memory>
#include <string>
#include <unordered_map>

#include "logic/state/app_state.h"
#include "logic/describe/gpu_compare.h"
#include "pass/interventions.h"
#include "model/model.h"
#include "pass/trace.h"

namespace vit {
class GpuBackend;
}

namespace vit::gui {

class GpuSession {
public:
    GpuSession();
    ~GpuSession();
    GpuSession(const GpuSession&) = delete;
    GpuSession& operator=(const GpuSession&) = delete;

    // --gpu-fail-test: starting compiles a broken shader first (the failure path, on screen).
    void set_fail_test(bool on) { fail_test_ = on; }
    bool available() const { return status_.usable(); }
    const GpuStatus& status() const { return status_; }

    // Once per frame, before drawing. With state.backend == Gpu and a CPU trace
    // the GPU has not computed yet, starts the backend if needed and runs the
    // pass. On failure state.backend becomes Cpu. Returns true when the GPU
    // trace changed (the caller clears its texture caches).
    // `iv`: the interventions the CPU trace was computed under (the GPU applies them too).
    bool update(AppState& state, const std::shared_ptr<const Model>& model, const std::shared_ptr<const Trace>& cpu,
                double cpu_ms, const Interventions& iv = {});

    // The GPU trace of the current CPU trace (nullptr when none yet).
    std::shared_ptr<const Trace> trace() const { return trace_; }
    bool has_result() const { return trace_ != nullptr; }
    const TraceDiff& diff() const { return diff_; }
    // |gpu − cpu| of one stage (computed once per pass); nullptr when there is none.
    const Tensor* difference(const std::string& id);
    uint64_t pass() const { return pass_; }          // counts GPU passes (texture keys)
    double gpu_ms() const { return gpu_ms_; }        // GL timer query, the pass alone
    double gpu_wall_ms() const { return wall_ms_; }  // upload + pass + read-back of every stage
    double cpu_ms() const { return cpu_ms_; }        // the CPU forward of the same input
    const std::string& device() const { return device_; }
    GpuComparison comparison() {  // what the CPU vs GPU panel shows
        return {status_, has_result(), device_,
                cpu_ms_, gpu_ms_,      wall_ms_,
                diff_,   pass_,        [this](const std::string& id) { return difference(id); }};
    }

private:
    void start();
    void run(const Model& model, const Trace& cpu, const Interventions& iv);

    std::unique_ptr<GpuBackend> backend_;
    bool fail_test_ = false;
    GpuStatus status_;
    const Model* uploaded_ = nullptr;            // the model whose weights are on the GPU
    std::shared_ptr<const Model> model_keep_;    // keeps that pointer unique while uploaded
    std::shared_ptr<const Trace> computed_for_;  // the CPU trace the GPU trace matches
    std::shared_ptr<const Trace> trace_;
    TraceDiff diff_;
    std::unordered_map<std::string, Tensor> differences_;
    uint64_t pass_ = 0;
    double gpu_ms_ = 0, wall_ms_ = 0, cpu_ms_ = 0;
    std::string device_;
};

}  // namespace vit::gui
