// The GPU backend in the app (main thread, the window's GL context).
#include "controllers/gpu_session.h"

#include <cstdio>

#include "gpu_backend.h"
#include "shader_program.h"
#include "pass/timing.h"

namespace vit::gui {

GpuSession::GpuSession() = default;
GpuSession::~GpuSession() = default;

void GpuSession::start() {
    if (backend_) return;
    if (fail_test_) {
        // The failure path on screen: a shader with a type error, through the real compiler.
        vit::gpu::compile_compute_shader("fail_test",
                                         "#version 430\nlayout(local_size_x = 1) in;\n"
                                         "void main() { float x = vec3(1.0); }\n");
    }
    backend_ = std::make_unique<GpuBackend>();
    device_ = backend_->device();
}

void GpuSession::run(const Model& model, const Trace& cpu, const Interventions& iv) {
    if (uploaded_ != &model) {
        backend_->set_model(model);
        uploaded_ = &model;
    }
    const Stopwatch watch;
    auto gpu = std::make_shared<const Trace>(
        backend_->forward(cpu.at(StageRef{StageKind::Input}), GpuBackend::Readback::All, iv));
    wall_ms_ = watch.ms();
    gpu_ms_ = backend_->last_gpu_ms();
    diff_ = diff_traces(cpu, *gpu, iv.temperature);
    differences_.clear();
    trace_ = std::move(gpu);
    ++pass_;
    const StageDiff* w = diff_.worst();
    std::printf(
        "vitviz: GPU pass %.2f ms (GL timer), %.1f ms with read-back; CPU %.1f ms; largest |gpu - cpu| %.3g at %s%s\n",
        gpu_ms_, wall_ms_, cpu_ms_, w ? w->max_abs() : 0.0, w ? w->id.c_str() : "-",
        w ? index_string(w->gpu.where).c_str() : "");
}

bool GpuSession::update(AppState& state, const std::shared_ptr<const Model>& model,
                        const std::shared_ptr<const Trace>& cpu, double cpu_ms, const Interventions& iv) {
    if (state.backend != Backend::Gpu) return false;
    if (!model || !cpu) return false;
    if (computed_for_ == cpu && trace_) return false;
    cpu_ms_ = cpu_ms;
    if (model_keep_ != model) {
        model_keep_ = model;
        uploaded_ = nullptr;
        // A model the backend could not take must not keep a new one from trying.
        if (backend_ && status_.failed) status_ = GpuStatus{};
    }
    bool ok = run_gpu_step(status_, state.backend, [&] {
        start();
        run(*model, *cpu, iv);
    });
    if (!ok) {
        std::fprintf(stderr, "vitviz: GPU backend: %s\n(carrying on with the CPU core)\n", status_.error.c_str());
        trace_.reset();
        computed_for_.reset();
        return true;
    }
    computed_for_ = cpu;
    return true;
}

const Tensor* GpuSession::difference(const std::string& id) {
    if (!trace_ || !computed_for_) return nullptr;
    auto it = differences_.find(id);
    if (it == differences_.end()) {
        const Stage* c = computed_for_->find(id);
        const Stage* g = trace_->find(id);
        Tensor t = c && g ? abs_difference(c->tensor, g->tensor) : Tensor();
        it = differences_.emplace(id, std::move(t)).first;
    }
    return it->second.data.empty() ? nullptr : &it->second;
}

}  // namespace vit::gui
