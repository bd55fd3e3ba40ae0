#version 430
// layernorm: y = (x − mean) / √(var + eps) · gamma + beta over each row of `cols`
// values, biased variance, two passes (mean, then Σ(x − mean)²) — nn.LayerNorm.
// Used for ln1, ln2 and the final norm. One 256-thread workgroup per row, sums
// reduced in shared memory; rows beyond 65535 spill into workgroup y.
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufX { float X[]; };
layout(std430, binding = 1) readonly buffer BufGamma { float gamma[]; };
layout(std430, binding = 2) readonly buffer BufBeta { float beta[]; };
layout(std430, binding = 3) writeonly buffer BufY { float Y[]; };

uniform int rows;
uniform int cols;
uniform float eps;

shared float red[256];

// (The two reductions are written out in main: Mesa 22's llvmpipe miscompiled
// them as a helper function with barrier() inside, called twice.)
void main() {
    const int row = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    if (row >= rows) return;  // uniform across the workgroup
    const int t = int(gl_LocalInvocationID.x);
    const int base = row * cols;
    const float inv_cols = 1.0 / float(cols);

    float s = 0.0;
    for (int c = t; c < cols; c += 256) s += X[base + c];
    red[t] = s;
    memoryBarrierShared();
    barrier();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) red[t] += red[t + k];
        memoryBarrierShared();
        barrier();
    }
    const float mean = red[0] * inv_cols;
    barrier();  // everyone has read red[0] before it is reused

    float q = 0.0;
    for (int c = t; c < cols; c += 256) {
        const float d = X[base + c] - mean;
        q = fma(d, d, q);
    }
    red[t] = q;
    memoryBarrierShared();
    barrier();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) red[t] += red[t + k];
        memoryBarrierShared();
        barrier();
    }
    const float var = red[0] * inv_cols;
    const float inv_std = 1.0 / sqrt(var + eps);

    for (int c = t; c < cols; c += 256) Y[base + c] = (X[base + c] - mean) * inv_std * gamma[c] + beta[c];
}
