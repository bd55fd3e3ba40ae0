// e^x on four floats in WebAssembly SIMD, for softmax in the page's build
// (pass/layers.cpp): the algorithm of Eigen's pexp_float (Cephes: x = m·ln 2 + r,
// a degree-5 polynomial in r, times 2^m through the exponent bits), written
// with WebAssembly's own floor and conversion. Eigen's SSE2 path, which the
// page's build otherwise uses, rounds through x86 conversions that Emscripten
// emulates lane by lane: softmax took a tenth of a ViT-Ti pass.
#pragma once
#ifdef __wasm_simd128__
#include <wasm_simd128.h>

namespace vit {

// e^x for each lane; 0 below e^-88.7, +inf above e^88.7, NaN for NaN.
inline v128_t exp4(v128_t x) {
    x = wasm_f32x4_pmax(wasm_f32x4_pmin(x, wasm_f32x4_splat(88.723f)), wasm_f32x4_splat(-88.723f));
    const v128_t m = wasm_f32x4_floor(
        wasm_f32x4_add(wasm_f32x4_mul(x, wasm_f32x4_splat(1.44269504088896341f)), wasm_f32x4_splat(0.5f)));
    // r = x − m·ln 2, ln 2 taken off in two parts so that no digits of r are lost.
    v128_t r = wasm_f32x4_add(wasm_f32x4_mul(m, wasm_f32x4_splat(-0.693359375f)), x);
    r = wasm_f32x4_add(wasm_f32x4_mul(m, wasm_f32x4_splat(2.12194440e-4f)), r);
    const v128_t r2 = wasm_f32x4_mul(r, r), r3 = wasm_f32x4_mul(r2, r);
    const auto madd = [](v128_t a, v128_t b, float c) {
        return wasm_f32x4_add(wasm_f32x4_mul(a, b), wasm_f32x4_splat(c));
    };
    v128_t y = madd(wasm_f32x4_splat(1.9875691500e-4f), r, 1.3981999507e-3f);
    v128_t y1 = madd(wasm_f32x4_splat(4.1665795894e-2f), r, 1.6666665459e-1f);
    y = madd(y, r, 8.3334519073e-3f);
    y1 = madd(y1, r, 5.0000001201e-1f);
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r3), y1);
    y = wasm_f32x4_add(wasm_f32x4_mul(y, r2), wasm_f32x4_add(r, wasm_f32x4_splat(1.0f)));
    // 2^m from its biased exponent m + 127, kept in [0, 255] (0: zero, 255: infinity).
    const v128_t biased = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_pmax(
        wasm_f32x4_pmin(wasm_f32x4_add(m, wasm_f32x4_splat(127.f)), wasm_f32x4_splat(255.f)), wasm_f32x4_splat(0.f)));
    return wasm_f32x4_mul(y, wasm_i32x4_shl(biased, 23));
}

}  // namespace vit
#endif
