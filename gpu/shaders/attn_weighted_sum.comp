#version 430
// attn_weighted_sum: context[:, z·N:(z+1)·N] = A_z · B_z for every batch z — the
// attention-weighted sum of values, attn_h · v_h, with heads concatenated
// (timm: (attn @ v).transpose(1, 2).reshape(B, N, C)).
//   A: batch×M×K (attn: H×T×T), B: batch×K×N (v: H×T×Dh, starting at b_off),
//   C: M×ldc with batch z in columns [z·N, (z+1)·N) (context: T×D).
// With batch 1 and ldc = N it is a plain product A·B (used by attention rollout).
// Each 16×16 workgroup computes a 64×64 tile through shared memory (any sizes).
layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = 0) readonly buffer BufA { float A[]; };
layout(std430, binding = 1) readonly buffer BufB { float B[]; };
layout(std430, binding = 2) writeonly buffer BufC { float C[]; };

uniform int M;
uniform int N;
uniform int K;
uniform int a_off;
uniform int b_off;
uniform int ldc;

const int BM = 64;
const int BN = 64;
const int BK = 16;
shared float As[BK][BM];
shared float Bs[BK][BN];

void main() {
    const int tx = int(gl_LocalInvocationID.x), ty = int(gl_LocalInvocationID.y);
    const int tid = ty * 16 + tx;
    const int z = int(gl_WorkGroupID.z);
    const int m0 = int(gl_WorkGroupID.y) * BM, n0 = int(gl_WorkGroupID.x) * BN;
    const int abase = a_off + z * M * K, bbase = b_off + z * K * N;

    float acc[4][4];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] = 0.0;

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int l = 0; l < 4; ++l) {
            const int idx = tid + l * 256;
            // A tile: 64 rows × 16 k, read along k.
            const int r = idx / BK, kk = idx % BK;
            const int gm = m0 + r, gka = k0 + kk;
            As[kk][r] = (gm < M && gka < K) ? A[abase + gm * K + gka] : 0.0;
            // B tile: 16 k × 64 columns, read along the columns.
            const int kb = idx / BN, c = idx % BN;
            const int gkb = k0 + kb, gn = n0 + c;
            Bs[kb][c] = (gkb < K && gn < N) ? B[bbase + gkb * N + gn] : 0.0;
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
            if (n < N) C[m * ldc + z * N + n] = acc[i][j];
        }
    }
}
