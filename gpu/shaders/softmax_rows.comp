#version 430
// softmax_rows: y = exp(x − max(x)) / Σ exp(x − max(x)) over each row of `cols`
// values, x = X / temperature (1 in the model), taken as (X − max(X)) / temperature,
// which never overflows to +inf for finite X — softmax(dim=-1) for the
// attention rows (H·T rows of T) and the class probabilities (1 row). One 256-thread workgroup per row; the max and the sum
// are reduced in shared memory. Rows beyond 65535 spill into workgroup y.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 1) writeonly buffer BufY { float Y[]; };

uniform int rows;
uniform int cols;
uniform float temperature;

shared float red[256];

// exp(x) to about 1 ulp: x = k·ln2 + r (Cody–Waite split of ln2), e^r by Taylor to r⁷.
float exp_precise(float x) {
    if (x < -87.5) return 0.0;
    x = min(x, 88.7);
    const float k = floor(x * 1.44269504 + 0.5);
    float r = fma(-k, 0.693145752, x);
    r = fma(-k, 1.42860677e-6, r);
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

void main() {
    const int row = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    if (row >= rows) return;  // uniform across the workgroup
    const int t = int(gl_LocalInvocationID.x);
    const int base = row * cols;

    float m = -3.402823466e38;
    for (int c = t; c < cols; c += 256) m = max(m, X[base + c]);
    red[t] = m;
    memoryBarrierShared();
    barrier();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) red[t] = max(red[t], red[t + s]);
        memoryBarrierShared();
        barrier();
    }
    m = red[0];
    barrier();

    float sum = 0.0;
    for (int c = t; c < cols; c += 256) sum += exp_precise((X[base + c] - m) / temperature);
    red[t] = sum;
    memoryBarrierShared();
    barrier();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) red[t] += red[t + s];
        memoryBarrierShared();
        barrier();
    }
    sum = red[0];

    for (int c = t; c < cols; c += 256) Y[base + c] = exp_precise((X[base + c] - m) / temperature) / sum;
}
