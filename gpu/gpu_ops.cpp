// Typed dispatch of each compute shader: bindings, uniforms, workgroup counts.
#include "gpu_ops.h"

#include <algorithm>

namespace vit::gpu {

namespace {

constexpr GLuint kTile = 64;          // output tile of the matrix shaders (64×64 per workgroup)
constexpr GLuint kGroup = 256;        // threads of the 1-D shaders
constexpr GLuint kMaxGroups = 65535;  // the smallest GL_MAX_COMPUTE_WORK_GROUP_COUNT allowed

GLuint ceil_div(int n, GLuint d) { return (static_cast<GLuint>(n) + d - 1) / d; }

void bind(GLuint binding, GLuint buffer) { glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding, buffer); }

// One workgroup per row; rows past 65535 continue in workgroup y.
void dispatch_rows(const ComputeProgram& p, int rows) {
    const GLuint r = static_cast<GLuint>(rows);
    const GLuint x = std::min(r, kMaxGroups);
    p.dispatch(x, r == 0 ? 0 : (r + x - 1) / x);
}

// Grid-stride loops: enough workgroups to cover n, capped.
void dispatch_elements(const ComputeProgram& p, int n) { p.dispatch(std::min(ceil_div(n, kGroup), kMaxGroups)); }

}  // namespace

GpuOps::GpuOps()
    : matmul_bias_(compile_embedded_shader("matmul_bias")),
      attn_scores_(compile_embedded_shader("attn_scores")),
      softmax_rows_(compile_embedded_shader("softmax_rows")),
      weighted_sum_(compile_embedded_shader("attn_weighted_sum")),
      layernorm_(compile_embedded_shader("layernorm")),
      gelu_(compile_embedded_shader("gelu_erf")),
      add_(compile_embedded_shader("residual_add")),
      patch_extract_(compile_embedded_shader("patch_extract")),
      embed_tokens_(compile_embedded_shader("embed_tokens")),
      rollout_prepare_(compile_embedded_shader("rollout_prepare")),
      gather_rows_(compile_embedded_shader("gather_rows")),
      scale_columns_(compile_embedded_shader("scale_columns")) {}

void GpuOps::matmul_bias(GLuint a, int a_off, int lda, GLuint b, GLuint bias, GLuint c, int M, int N, int K,
                         int head_dim) {
    bind(0, a);
    bind(1, b);
    bind(2, bias ? bias : b);  // something must be bound; unread without has_bias
    bind(3, c);
    ComputeProgram& p = matmul_bias_;
    p.set("M", M);
    p.set("N", N);
    p.set("K", K);
    p.set("lda", lda);
    p.set("a_off", a_off);
    p.set("has_bias", bias ? 1 : 0);
    p.set("head_dim", head_dim);
    p.dispatch(ceil_div(N, kTile), ceil_div(M, kTile));
}

void GpuOps::attn_scores(GLuint q, int q_off, GLuint k, int k_off, GLuint scores, int H, int T, int Dh, float scale) {
    bind(0, q);
    bind(1, k);
    bind(2, scores);
    ComputeProgram& p = attn_scores_;
    p.set("T", T);
    p.set("Dh", Dh);
    p.set("q_off", q_off);
    p.set("k_off", k_off);
    p.set("scale", scale);
    p.dispatch(ceil_div(T, kTile), ceil_div(T, kTile), static_cast<GLuint>(H));
}

void GpuOps::softmax_rows(GLuint x, GLuint y, int rows, int cols, float temperature) {
    bind(0, x);
    bind(1, y);
    softmax_rows_.set("rows", rows);
    softmax_rows_.set("cols", cols);
    softmax_rows_.set("temperature", temperature);
    dispatch_rows(softmax_rows_, rows);
}

void GpuOps::weighted_sum(GLuint a, GLuint b, int b_off, GLuint c, int batch, int M, int N, int K, int ldc) {
    bind(0, a);
    bind(1, b);
    bind(2, c);
    ComputeProgram& p = weighted_sum_;
    p.set("M", M);
    p.set("N", N);
    p.set("K", K);
    p.set("a_off", 0);
    p.set("b_off", b_off);
    p.set("ldc", ldc);
    p.dispatch(ceil_div(N, kTile), ceil_div(M, kTile), static_cast<GLuint>(batch));
}

void GpuOps::layernorm(GLuint x, GLuint gamma, GLuint beta, GLuint y, int rows, int cols, float eps) {
    bind(0, x);
    bind(1, gamma);
    bind(2, beta);
    bind(3, y);
    layernorm_.set("rows", rows);
    layernorm_.set("cols", cols);
    layernorm_.set("eps", eps);
    dispatch_rows(layernorm_, rows);
}

void GpuOps::gelu(GLuint x, GLuint y, int n, bool output_erf) {
    bind(0, x);
    bind(1, y);
    gelu_.set("n", n);
    gelu_.set("output_erf", output_erf ? 1 : 0);
    dispatch_elements(gelu_, n);
}

void GpuOps::add(GLuint a, GLuint b, GLuint y, int n) {
    bind(0, a);
    bind(1, b);
    bind(2, y);
    add_.set("n", n);
    dispatch_elements(add_, n);
}

void GpuOps::patch_extract(GLuint image, GLuint patches, int channels, int height, int width, int patch) {
    bind(0, image);
    bind(1, patches);
    ComputeProgram& p = patch_extract_;
    p.set("channels", channels);
    p.set("height", height);
    p.set("width", width);
    p.set("patch_size", patch);
    dispatch_elements(p, channels * height * width);
}

void GpuOps::embed_tokens(GLuint patch_embed, GLuint cls_token, GLuint pos, GLuint cls, GLuint tokens, int T, int D,
                          bool add_pos) {
    bind(0, patch_embed);
    bind(1, cls_token);
    bind(2, pos);
    bind(3, cls);
    bind(4, tokens);
    embed_tokens_.set("T", T);
    embed_tokens_.set("D", D);
    embed_tokens_.set("add_pos", add_pos ? 1 : 0);
    dispatch_elements(embed_tokens_, T * D);
}

void GpuOps::gather_rows(GLuint x, GLuint index, GLuint y, int rows, int cols) {
    bind(0, x);
    bind(1, index);
    bind(2, y);
    gather_rows_.set("rows", rows);
    gather_rows_.set("cols", cols);
    dispatch_elements(gather_rows_, rows * cols);
}

void GpuOps::scale_columns(GLuint x, GLuint scale, int rows, int cols) {
    bind(0, x);
    bind(1, scale);
    scale_columns_.set("rows", rows);
    scale_columns_.set("cols", cols);
    dispatch_elements(scale_columns_, rows * cols);
}

void GpuOps::rollout_prepare(GLuint attn, GLuint out, int H, int T) {
    bind(0, attn);
    bind(1, out);
    rollout_prepare_.set("T", T);
    rollout_prepare_.set("H", H);
    dispatch_rows(rollout_prepare_, T);
}

}  // namespace vit::gpu
