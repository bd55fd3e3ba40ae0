// The comparison of two tensors and the GPU-vs-CPU tolerance (compare.h).
#include "explain/compare.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/error.h"

namespace vit {

float distance(float a, float b) {
    if (a == b) return 0.f;  // equal infinities too
    if (std::isnan(a) && std::isnan(b)) return 0.f;
    const float d = std::fabs(a - b);
    return std::isnan(d) ? std::numeric_limits<float>::infinity() : d;
}

Difference compare(const Tensor& got, const Tensor& want, const Tolerance& tolerance) {
    if (got.shape != want.shape)
        throw Error("cannot compare a tensor of shape " + shape_string(got.shape) + " with one of shape " +
                    shape_string(want.shape));
    Difference d;
    for (size_t i = 0; i < want.data.size(); ++i) {
        const double w = want.data[i], e = distance(got.data[i], want.data[i]);
        if (std::isfinite(w)) d.max_want = std::max(d.max_want, std::fabs(w));
        if (d.flat < 0 || e > d.max_abs) {
            d.max_abs = e;
            d.flat = static_cast<int64_t>(i);
        }
        const double bound = tolerance.abs + tolerance.rel * std::fabs(w);
        const double used = e == 0 ? 0 : e / bound;  // infinite where the bound is 0
        if (d.worst_flat < 0 || used > d.tolerance_used) {
            d.tolerance_used = used;
            d.worst_flat = static_cast<int64_t>(i);
        }
    }
    if (d.flat >= 0) {
        d.where = unravel(d.flat, want.shape);
        d.got = got.data[static_cast<size_t>(d.flat)];
        d.want = want.data[static_cast<size_t>(d.flat)];
    }
    return d;
}

std::vector<int64_t> unravel(int64_t flat, const std::vector<int64_t>& shape) {
    std::vector<int64_t> idx(shape.size(), 0);
    for (size_t k = shape.size(); k-- > 0;) {
        const int64_t n = shape[k] > 0 ? shape[k] : 1;
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

Tolerance gpu_tolerance(StageKind /*kind*/, const Tensor& cpu, float temperature) {
    double largest = 1;
    for (float v : cpu.data)
        if (std::isfinite(v)) largest = std::max(largest, double(std::fabs(v)));
    const double sharpening = temperature < 1.0f ? 1.0 / double(temperature) : 1.0;
    return {kGpuShaderTolerance.abs * largest * sharpening, kGpuShaderTolerance.rel * sharpening};
}

std::string gpu_tolerance_rule() { return "1e-5·max(1, max|cpu|) + 1e-4·|cpu|, × 1/τ for τ < 1"; }

}  // namespace vit
