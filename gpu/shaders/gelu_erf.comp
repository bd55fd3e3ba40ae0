#version 430
// gelu: y = x · ½(1 + erf(x/√2)), elementwise — nn.GELU() in its exact (erf) form.
// GLSL has no erf, so it is computed here to about 1 ulp (relative error < 1e-7):
//   |y| < 1:  the Maclaurin series erf(y) = 2/√π · Σ (−1)ⁿ y²ⁿ⁺¹ / (n!(2n+1)), 13 terms,
//             summed as y + y·s(y²) so the leading term is exact;
//   |y| ≥ 1:  erfc(y) = e^(−y²)/√π · 1/(y + ½/(y + 1/(y + (3/2)/(y + …)))), Laplace's
//             continued fraction to depth 40, with e^(−y²) from an exactly split y².
// GELU needs 1 + erf(x/√2), formed without cancellation for x < 0 (one_plus_erf).
// With output_erf = 1 it writes erf(x) instead (the tests check erf itself).
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 1) writeonly buffer BufY { float Y[]; };

uniform int n;
uniform int output_erf;

// exp(x) to about 1 ulp: x = k·ln2 + r (Cody–Waite split of ln2), e^r by Taylor to r⁷.
float exp_precise(float x) {
    if (x < -87.5) return 0.0;
    x = min(x, 88.7);
    const float k = floor(x * 1.44269504 + 0.5);
    float r = fma(-k, 0.693145752, x);  // ln2 high part, exact in k·hi
    r = fma(-k, 1.42860677e-6, r);      // ln2 low part
    float p = 1.984126984e-4;
    p = fma(p, r, 1.388888889e-3);
    p = fma(p, r, 8.333333333e-3);
    p = fma(p, r, 4.166666667e-2);
    p = fma(p, r, 1.666666667e-1);
    p = fma(p, r, 0.5);
    p = fma(p, r, 1.0);
    p = fma(p, r, 1.0);
    return ldexp(p, int(k));
}

// For |y| < 1, erf(y) = y + y·s(y²), s(z) = Σ cₙ zⁿ with c₀ = 2/√π − 1,
// cₙ = 2/√π·(−1)ⁿ/(n!(2n+1)); this returns s.
float erf_series(float y) {
    const float z = y * y;
    float s = 9.422759065e-11;
    s = fma(s, z, -1.229055530e-9);
    s = fma(s, z, 1.480719282e-8);
    s = fma(s, z, -1.636584469e-7);
    s = fma(s, z, 1.646211437e-6);
    s = fma(s, z, -1.492565036e-5);
    s = fma(s, z, 1.205533298e-4);
    s = fma(s, z, -8.548327023e-4);
    s = fma(s, z, 5.223977625e-3);
    s = fma(s, z, -2.686617065e-2);
    s = fma(s, z, 1.128379167e-1);
    s = fma(s, z, -3.761263890e-1);
    s = fma(s, z, 1.283791671e-1);
    return s;
}

// erfc(a) for a ≥ 1 by the continued fraction, evaluated from the tail.
float erfc_large(float a) {
    float f = a;
    for (int k = 40; k >= 1; --k) f = a + (0.5 * float(k)) / f;
    const float hi = a * a;
    const float lo = fma(a, a, -hi);  // a² = hi + lo exactly
    const float e = exp_precise(-hi) * (1.0 - lo);
    return e / (f * 1.772453851);
}

float erf_precise(float y) {
    const float a = abs(y);
    if (a < 1.0) return fma(y, erf_series(y), y);
    const float r = 1.0 - erfc_large(a);
    return y < 0.0 ? -r : r;
}

// 1 + erf(y), accurate also where it is small (y < 0): for |y| < 1 as
// (1 + y) + y·s, where 1 + y is exact for y in [−1, −½], so nothing cancels.
float one_plus_erf(float y) {
    const float a = abs(y);
    if (a < 1.0) return fma(y, erf_series(y), 1.0 + y);
    const float c = erfc_large(a);
    return y < 0.0 ? c : 2.0 - c;
}

void main() {
    const int stride = int(gl_NumWorkGroups.x * gl_WorkGroupSize.x);
    for (int i = int(gl_GlobalInvocationID.x); i < n; i += stride) {
        const float x = X[i];
        if (output_erf != 0) {
            Y[i] = erf_precise(x);
        } else {
            Y[i] = 0.5 * x * one_plus_erf(x * 0.707106781);
        }
    }
}
