#version 430
// attn_scores: scores_h = (q_h · scale) · k_hᵀ for every head h (scale = 1/√Dh),
// as timm's Attention: (q * scale) @ k.transpose(-2, -1).
//   q, k: H×T×Dh starting at q_off and k_off (both may live in one qkv buffer),
//   scores: H×T×T. Workgroup z is the head; each 16×16 workgroup computes a
//   64×64 tile of one head's T×T matrix through shared memory (any T, any Dh).
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufQ { float Q[]; };
layout(std430, binding = 1) readonly buffer BufK { float Kt[]; };
layout(std430, binding = 2) writeonly buffer BufS { float S[]; };

uniform int T;
uniform int Dh;
uniform int q_off;
uniform int k_off;
uniform float scale;

const int BM = 64;
const int BN = 64;
const int BK = 16;
shared float Qs[BK][BM];
shared float Ks[BK][BN];

void main() {
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int tid = ty * 16 + tx;
    const int h = int(gl_WorkGroupID.z);
    const int m0 = int(gl_WorkGroupID.y) * BM, n0 = int(gl_WorkGroupID.x) * BN;
    const int qbase = q_off + h * T * Dh, kbase = k_off + h * T * Dh;

    float acc[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

    for (int k0 = 0; k0 < Dh; k0 += BK) {
        for (int l = 0; l < 4; ++l) {
            const int idx = tid + l * 256;
            const int r = idx / BK, kk = idx % BK;
            const int gk = k0 + kk;
            const int gm = m0 + r, gn = n0 + r;
            Qs[kk][r] = (gm < T && gk < Dh) ? Q[qbase + gm * Dh + gk] * scale : 0.0;
            Ks[kk][r] = (gn < T && gk < Dh) ? Kt[kbase + gn * Dh + gk] : 0.0;
        }
        memoryBarrierShared();
        barrier();
        for (int kk = 0; kk < BK; ++kk) {
            float a[4], b[4];
            for (int i = 0; i < 4; ++i) a[i] = Qs[kk][ty + 16 * i];
            for (int j = 0; j < 4; ++j) b[j] = Ks[kk][tx + 16 * j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier();
    }

    const int sbase = h * T * T;
    for (int i = 0; i < 4; ++i) {
        const int m = m0 + ty + 16 * i;
        if (m >= T) continue;
        for (int j = 0; j < 4; ++j) {
            const int n = n0 + tx + 16 * j;
            if (n < T) S[sbase + m * T + n] = acc[i][j];
        }
    }
}
