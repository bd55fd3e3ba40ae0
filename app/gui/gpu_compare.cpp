// CPU vs GPU differences and the GPU start-up fallback (no GL here).
#include "gpu_compare.h"

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
        if (!w || d.max_abs > w->max_abs) w = &d;
    }
    return w;
}

bool TraceDiff::all_within() const {
    for (const StageDiff& d : stages)
        if (!d.problem.empty() || !d.within_tolerance) return false;
    return true;
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size(), 0);
    for (size_t k = shape.size(); k-- > 0;) {
        int64_t n = shape[k] > 0 ? shape[k] : 1;
        idx[k] = flat % n;
        flat /= n;
    }
    return idx;
}

std::string index_string(const std::vector<int64_t>& where) {
    std::string s = "(";
    for (size_t i = 0; i < where.size(); ++i) s += (i ? ", " : "") + std::to_string(where[i]);
    return s + ")";
}

// |a − b| where a NaN or infinity on one side only counts as infinitely far.
static float distance(float a, float b) {
    if (a == b) return 0.f;  // equal infinities too
    if (std::isnan(a) && std::isnan(b)) return 0.f;
    float d = std::fabs(a - b);
    return std::isnan(d) ? std::numeric_limits<float>::infinity() : d;
}

StageDiff diff_stage(const std::string& id, const Tensor& cpu, const Tensor& gpu) {
    StageDiff d;
    d.id = id;
    if (cpu.shape != gpu.shape) {
        d.problem = "shape " + shape_string(cpu.shape) + " on the CPU, " + shape_string(gpu.shape) + " on the GPU";
        d.within_tolerance = false;
        d.max_abs = std::numeric_limits<float>::infinity();
        return d;
    }
    const size_t n = cpu.data.size();
    for (size_t i = 0; i < n; ++i) {
        float e = distance(cpu.data[i], gpu.data[i]);
        if (!(e <= 1e-5f + 1e-4f * std::fabs(cpu.data[i]))) d.within_tolerance = false;
        if (d.argmax < 0 || e > d.max_abs) {
            d.max_abs = e;
            d.argmax = static_cast<int64_t>(i);
        }
    }
    if (d.argmax >= 0) {
        d.where = unravel(d.argmax, cpu.shape);
        d.cpu = cpu.data[d.argmax];
        d.gpu = gpu.data[d.argmax];
    }
    return d;
}

TraceDiff diff_traces(const Trace& cpu, const Trace& gpu) {
    TraceDiff out;
    for (const Stage& s : cpu.stages()) {
        const Stage* g = gpu.find(s.id);
        if (!g) {
            StageDiff d;
            d.id = s.id;
            d.problem = "missing on the GPU";
            d.within_tolerance = false;
            d.max_abs = std::numeric_limits<float>::infinity();
            out.stages.push_back(d);
            continue;
        }
        out.stages.push_back(diff_stage(s.id, s.tensor, g->tensor));
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

bool run_gpu_step(GpuStatus& status, AppState& state, const std::function<void()>& start) {
    status.tried = true;
    if (status.failed) {
        state.backend = Backend::Cpu;
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
    state.backend = Backend::Cpu;
    return false;
}

std::string first_line(const std::string& text) {
    size_t nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

}  // namespace vit::gui
