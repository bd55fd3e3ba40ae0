// nn.GELU() in its erf form, x · ½(1 + erf(x/√2)), written once for the two
// places that compute it: over Eigen arrays (layers.h gelu, the products'
// fallback) and over one packet of floats (the matrix kernel's epilogue,
// gemm_avx512.cpp), both with Eigen's erf.
#pragma once
#include <unsupported/Eigen/SpecialFunctions>

namespace vit {

constexpr float kInvSqrt2 = 0.70710678118654752f;
constexpr float kQuickGeluScale = 1.702f;  // QuickGELU(x) = x · sigmoid(1.702 x)

// An Eigen array expression of x's GELU.
template <typename Array>
auto gelu_of(const Eigen::ArrayBase<Array>& x) {
    return 0.5f * x * (1.0f + (x * kInvSqrt2).erf());
}

// GELU of each float of one packet (an AVX-512 register: Eigen's Packet16f).
template <typename Packet>
Packet gelu_packet(const Packet& x) {
    using namespace Eigen::internal;
    return pmul(pmul(pset1<Packet>(0.5f), x), padd(pset1<Packet>(1.0f), perf(pmul(x, pset1<Packet>(kInvSqrt2)))));
}

}  // namespace vit
