#version 430
// matmul_bias: C = A · Bᵀ + bias — nn.Linear with PyTorch's (out, in) weight layout.
//   A: M×K (row stride lda, starting at a_off), B: N×K, bias: N (when has_bias), C: M×N.
//   With head_dim > 0 the output is written head-major, (N/head_dim)×M×head_dim:
//   that turns ln1 · qkv_wᵀ (T×3D) straight into q, k, v as 3·H×T×Dh (timm's permute).
// Each 16×16 workgroup computes a 64×64 tile (4×4 per thread), stepping K by 16
// through shared memory. Edges of any M, N, K are zero-padded in the tiles.
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 2) readonly buffer BufBias { float bias[]; };
layout(std430, binding = 3) writeonly buffer BufC { float C[]; };

uniform int M;
uniform int N;
uniform int K;
uniform int lda;
uniform int a_off;
uniform int has_bias;
uniform int head_dim;

const int BM = 64;
const int BN = 64;
const int BK = 16;
shared float As[BK][BM];
shared float Bs[BK][BN];

void main() {
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int tid = ty * 16 + tx;
    const int m0 = int(gl_WorkGroupID.y) * BM, n0 = int(gl_WorkGroupID.x) * BN;

    float acc[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int l = 0; l < 4; ++l) {
            const int idx = tid + l * 256;
            const int r = idx / BK, kk = idx % BK;
            const int gk = k0 + kk;
            const int gm = m0 + r, gn = n0 + r;
            As[kk][r] = (gm < M && gk < K) ? A[a_off + gm * lda + gk] : 0.0;
            Bs[kk][r] = (gn < N && gk < K) ? B[gn * K + gk] : 0.0;
        }
        memoryBarrierShared();
        barrier();
        for (int kk = 0; kk < BK; ++kk) {
            float a[4], b[4];
            for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
            for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j) acc[i][j] = fma(a[i], b[j], acc[i][j]);
        }
        barrier();
    }

    for (int i = 0; i < 4; ++i) {
        const int m = m0 + ty + 16 * i;
        if (m >= M) continue;
        for (int j = 0; j < 4; ++j) {
            const int n = n0 + tx + 16 * j;
            if (n >= N) continue;
            float v = acc[i][j];
            if (has_bias != 0) v += bias[n];
            const int dst = head_dim > 0 ? ((n / head_dim) * M + m) * head_dim + n % head_dim : m * N + n;
            C[dst] = v;
        }
    }
}
