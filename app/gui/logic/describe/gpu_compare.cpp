// CPU vs GPU differences and the GPU start-up fallback (no GL here).
#include "logic/describe/gpu_compare.h"

#include <cmath>
#include <limits>

namespace vit::gui {

const StageDiff* TraceDiff::find(const std::string& id) const {
    for (const StageDiff& d : stages)
        if (d.id == id) return &d;
    return nullptr;
}

const StageDiff* TraceDiff::worst() const {
    const StageDiff* w = nullptr;
    for (const StageDiff& d : stages) {
        if (!d.problem.empty()) return &d;
        if (!w || d.max_abs() > w->max_abs()) w = &d;
    }
    return w;
}

double StageDiff::max_abs() const { return problem.empty() ? gpu.max_abs : std::numeric_limits<double>::infinity(); }

bool TraceDiff::all_within() const {
    for (const StageDiff& d : stages)
        if (!d.within()) return false;
    return true;
}

StageDiff diff_stage(const Stage& cpu, const Tensor& gpu, float temperature) {
    StageDiff d;
    d.id = cpu.id;
    if (cpu.tensor.shape != gpu.shape)
        d.problem =
            "shape " + shape_string(cpu.tensor.shape) + " on the CPU, " + shape_string(gpu.shape) + " on the GPU";
    else d.gpu = compare(gpu, cpu.tensor, gpu_tolerance(cpu.kind, cpu.tensor, temperature));
    return d;
}

TraceDiff diff_traces(const Trace& cpu, const Trace& gpu, float temperature) {
    TraceDiff out;
    for (const Stage& s : cpu.stages()) {
        const Stage* g = gpu.find(s.id);
        if (!g) {
            StageDiff d;
            d.id = s.id;
            d.problem = "missing on the GPU";
            out.stages.push_back(d);
            continue;
        }
        out.stages.push_back(diff_stage(s, g->tensor, temperature));
    }
    return out;
}

Tensor abs_difference(const Tensor& cpu, const Tensor& gpu) {
    if (cpu.shape != gpu.shape) return Tensor();
    Tensor t(cpu.shape);
    for (size_t i = 0; i < t.data.size(); ++i) {
        float e = distance(cpu.data[i], gpu.data[i]);
        t.data[i] = std::isinf(e) ? std::numeric_limits<float>::max() : e;
    }
    return t;
}

bool run_gpu_step(GpuStatus& status, Backend& backend, const std::function<void()>& start) {
    status.tried = true;
    if (status.failed) {
        backend = Backend::Cpu;
        return false;
    }
    try {
        start();
        return true;
    } catch (const std::exception& e) {
        status.error = e.what();
    } catch (...) {
        status.error = "the GPU backend failed (unknown error)";
    }
    if (status.error.empty()) status.error = "the GPU backend failed";
    status.failed = true;
    backend = Backend::Cpu;
    return false;
}

std::string first_line(const std::string& text) {
    size_t nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

}  // namespace vit::gui
