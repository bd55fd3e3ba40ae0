#version 430
// rollout_prepare: one block's factor of attention rollout (Abnar & Zuidema 2020),
//   Â = mean over heads of attn + I, each row renormalised to sum 1.
// attn: H×T×T, out: T×T. One 256-thread workgroup per row, the row sum reduced
// in shared memory. The rollout itself is Â_{L−1}·…·Â_0 (attn_weighted_sum).
layout(local_size_x = 256) in;

layout(std430, binding = 0) readonly buffer BufAttn { float attn[]; };
layout(std430, binding = 1) buffer BufOut { float Ahat[]; };

uniform int T;
uniform int H;

shared float red[256];

void main() {
    const int row = int(gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x);
    if (row >= T) return;  // uniform across the workgroup
    const int t = int(gl_LocalInvocationID.x);

    float s = 0.0;
    for (int c = t; c < T; c += 256) {
        float m = 0.0;
        for (int h = 0; h < H; ++h) m += attn[(h * T + row) * T + c];
        m = m / float(H) + (c == row ? 1.0 : 0.0);
        Ahat[row * T + c] = m;
        s += m;
    }
    red[t] = s;
    memoryBarrierShared();
    barrier();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) red[t] += red[t + k];
        memoryBarrierShared();
        barrier();
    }
    const float sum = red[0];
    for (int c = t; c < T; c += 256) Ahat[row * T + c] = Ahat[row * T + c] / sum;
}
