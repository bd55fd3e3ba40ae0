// The compute shaders of shaders/ as typed calls, one per operation. Buffers are
// GL buffer names of float SSBOs; offsets and sizes count floats. Each call binds,
// sets uniforms, dispatches and places a storage barrier, so calls can follow
// one another. The GPU backend chains them into a forward pass; the benchmark
// times the attention ones alone.
#pragma once
#include <glad/gl.h>

#include "shader_program.h"

namespace vit::gpu {

class GpuOps {
public:
    // Compiles every shader; throws vit::Error with the failing shader's log.
    GpuOps();

    // C = A·Bᵀ + bias. A: M×K (row stride lda, from a_off), B: N×K, bias: N or 0
    // for none, C: M×N, or with head_dim > 0 head-major (N/head_dim)×M×head_dim.
    void matmul_bias(GLuint a, int a_off, int lda, GLuint b, GLuint bias, GLuint c, int M, int N, int K,
                     int head_dim = 0);
    // scores_h = (q_h·scale)·k_hᵀ. q, k: H×T×Dh at q_off, k_off; scores: H×T×T.
    void attn_scores(GLuint q, int q_off, GLuint k, int k_off, GLuint scores, int H, int T, int Dh, float scale);
    // Row softmax of x / temperature, max subtracted: x, y: rows×cols.
    void softmax_rows(GLuint x, GLuint y, int rows, int cols, float temperature = 1.0f);
    // C[:, z·N:(z+1)·N] = A_z·B_z. A: batch×M×K, B: batch×K×N at b_off, C: M×ldc.
    void weighted_sum(GLuint a, GLuint b, int b_off, GLuint c, int batch, int M, int N, int K, int ldc);
    // Row LayerNorm: x, y: rows×cols; gamma, beta: cols.
    void layernorm(GLuint x, GLuint gamma, GLuint beta, GLuint y, int rows, int cols, float eps);
    // y = GELU(x) (erf form), or erf(x) itself with output_erf (for tests).
    void gelu(GLuint x, GLuint y, int n, bool output_erf = false);
    // y = a + b over n values.
    void add(GLuint a, GLuint b, GLuint y, int n);
    // im2col: image C×H×W → patches N×(C·P·P).
    void patch_extract(GLuint image, GLuint patches, int channels, int height, int width, int patch);
    // cls = [cls_token; patch_embed], tokens = cls + pos (cls alone without
    // add_pos). T×D each.
    void embed_tokens(GLuint patch_embed, GLuint cls_token, GLuint pos, GLuint cls, GLuint tokens, int T, int D,
                      bool add_pos = true);
    // y[r] = x[index[r]], rows of `cols`; index: `rows` floats holding row numbers.
    void gather_rows(GLuint x, GLuint index, GLuint y, int rows, int cols);
    // x[r, c] *= scale[c] in place. x: rows×cols, scale: cols.
    void scale_columns(GLuint x, GLuint scale, int rows, int cols);
    // Â = mean_h attn + I, rows renormalised. attn: H×T×T, out: T×T.
    void rollout_prepare(GLuint attn, GLuint out, int H, int T);

private:
    ComputeProgram matmul_bias_, attn_scores_, softmax_rows_, weighted_sum_, layernorm_, gelu_, add_, patch_extract_,
        embed_tokens_, rollout_prepare_, gather_rows_, scale_columns_;
};

}  // namespace vit::gpu
