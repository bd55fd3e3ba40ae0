// IEEE half (F16) and bfloat16 (BF16) bit patterns to float32, exactly: every
// F16 and BF16 value is representable in float32, so no rounding happens.
// Mirrors torch's `tensor.float()` on a half/bfloat16 tensor (NaN payloads kept).
#pragma once
#include <cstdint>
#include <cstring>

namespace vit {

inline float float_from_bits(uint32_t bits) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// F16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
inline float f16_to_f32(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    const uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return float_from_bits(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    if (exponent != 0) return float_from_bits(sign | ((exponent + 127 - 15) << 23) | (mantissa << 13));
    // Zero or subnormal: mantissa × 2⁻²⁴, exact in float32.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign ? -magnitude : magnitude;
}

// BF16: the upper 16 bits of a float32.
inline float bf16_to_f32(uint16_t b) { return float_from_bits(static_cast<uint32_t>(b) << 16); }

}  // namespace vit
