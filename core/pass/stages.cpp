// The stage catalogue table (docs/DESIGN.md#stage-catalogue) and the few functions that read it:
// ids, the ordered stage list of a model, shapes and input stages. This is the
// only file that spells a stage id.
#include "pass/stages.h"

#include "base/parse.h"

namespace vit {

namespace {

using D = Dim;
using K = StageKind;
constexpr StageGroup kEmbed = StageGroup::Embedding, kBlock = StageGroup::Block, kHead = StageGroup::Head;
constexpr Palette kSigned = Palette::Diverging, kShares = Palette::Sequential;
constexpr bool kStream = true, kNone = true;

const char* const kLayerNorm = "y = (x - mean(x)) / sqrt(var(x) + eps) * gamma + beta, per token";
const char* const kQkvLine =
    "qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)\n"
    "q, k, v = qkv[0], qkv[1], qkv[2]";

// clang-format off
const std::vector<StageDef> kTable = {
    {K::Input, "input", kEmbed, {D::C, D::S, D::S}, K::Input, false, kNone, kSigned,
     "normalised image", "Normalised input image",
     "x[c] = (pixel[c] / 255 - mean[c]) / std[c]",
     "x = transforms.Normalize(mean=mean, std=std)(transforms.ToTensor()(img))",
     "dx = the rows of dX folded back into (C, S, S): patching undone"},
    {K::Patches, "patches", kEmbed, {D::N, D::PatchDim}, K::Input, false, false, kSigned,
     "cut + flatten patches", "Cut into patches and flatten",
     "X[n] = flatten(x[:, P*r : P*r+P, P*s : P*s+P]), n = r * grid + s, order (c, y, x)",
     "patches = x.unfold(1, P, P).unfold(2, P, P).permute(1, 2, 0, 3, 4).reshape(N, C*P*P)",
     "dX = dE W   (N x D times D x C*P*P)"},
    {K::PatchEmbed, "patch_embed", kEmbed, {D::N, D::D}, K::Patches, false, false, kSigned,
     "linear projection", "Patch embedding (linear projection)",
     "E = X W^T + b  (the same as a Conv2d with kernel = stride = P)",
     "self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size)\n"
     "x = self.proj(x).flatten(2).transpose(1, 2)",
     "dE = dZ[1:], the patch rows of the gradient (the CLS row goes to x_cls)"},
    {K::Cls, "cls", kEmbed, {D::T0, D::D}, K::PatchEmbed, false, false, kSigned,
     "prepend CLS token", "CLS token prepended",
     "Z = [x_cls; E], the CLS row on top (timm's order: CLS, DIST, REG0..., then the patches)",
     "x = torch.cat((cls_token.expand(B, -1, -1), x), dim=1)\n"
     "x = torch.cat([cls_token, reg_token, x], dim=1)  # registers (no_embed_class: after x + pos_embed)",
     "dZ = dZ0 (adding positions passes the gradient on; dE_pos = dZ0 too)"},
    {K::Tokens, "tokens", kEmbed, {D::T, D::D}, K::Cls, false, false, kSigned,
     "+ position embedding", "Position embedding added (encoder input)",
     "Z0 = Z + E_pos (no_embed_class: positions on the patch rows only; HF DINOv2 registers: none on the registers)",
     "x = x + self.pos_embed",
     "dZ0 = dx1 + LN1 backward(dLN1): the residual stream and block 0's attention branch\n"
     "LN backward: dxh = dy * gamma;  dx = (dxh - mean(dxh) - xh * mean(dxh * xh)) / sigma"},
    {K::NormPre, "norm_pre", kEmbed, {D::T, D::D}, K::Tokens, false, false, kSigned,
     "LayerNorm before the blocks", "LayerNorm before the blocks (norm_pre, CLIP)",
     kLayerNorm,
     "x = self.norm_pre(x)  # pre_norm=True: nn.LayerNorm(embed_dim), no bias in patch_embed",
     "dnorm_pre = dx1 + LN1 backward(dLN1) of block 0; then dZ0 = LN backward(dnorm_pre)",
     Variant::NormPre},
    {K::Ln1, "ln1", kBlock, {D::T, D::D}, K::Ln1, kStream, false, kSigned,
     "LayerNorm before attention", "LayerNorm before attention",
     kLayerNorm,
     "x_norm = self.norm1(x)  # self.norm1 = nn.LayerNorm(dim, eps=eps)",
     "dLN1 = [dQ dK dV] Wqkv: the heads merged back, the three projections summed"},
    {K::Q, "q", kBlock, {D::H, D::T, D::Dh}, K::Ln1, false, false, kSigned,
     "queries per head", "queries (Q)",
     "Q = LN1(x) Wq^T + bq, split into H heads of Dh",
     kQkvLine,
     "dQ_h = dS_h K_h / sqrt(Dh)"},
    {K::K, "k", kBlock, {D::H, D::T, D::Dh}, K::Ln1, false, false, kSigned,
     "keys per head", "keys (K)",
     "K = LN1(x) Wk^T + bk, split into H heads of Dh",
     kQkvLine,
     "dK_h = dS_h^T Q_h / sqrt(Dh)"},
    {K::V, "v", kBlock, {D::H, D::T, D::Dh}, K::Ln1, false, false, kSigned,
     "values per head", "values (V)",
     "V = LN1(x) Wv^T + bv, split into H heads of Dh",
     kQkvLine,
     "dV_h = A_h^T dO_h"},
    {K::Scores, "scores", kBlock, {D::H, D::T, D::T}, K::Q, false, false, kSigned,
     "scores Q·Kᵀ/√Dh", "scaled dot-product scores",
     "S_h = Q_h K_h^T / sqrt(Dh)",
     "attn = (q @ k.transpose(-2, -1)) * self.scale  # self.scale = head_dim ** -0.5",
     "dS_h = A_h * (dA_h - rowsum(dA_h * A_h)), * elementwise"},
    {K::Attn, "attn", kBlock, {D::H, D::T, D::T}, K::Scores, false, false, kShares,
     "softmax: attention", "attention weights (softmax)",
     "A_h = softmax(S_h), along each row",
     "attn = attn.softmax(dim=-1)",
     "dA_h = dO_h V_h^T"},
    {K::Context, "context", kBlock, {D::T, D::D}, K::Attn, false, false, kSigned,
     "attention · V", "weighted sum of values",
     "O_h = A_h V_h, heads side by side: O = [O_1 ... O_H]",
     "x = (attn @ v).transpose(1, 2).reshape(B, N, C)",
     "dO = dY Wo, then split into the H heads"},
    {K::AttnOut, "attn_out", kBlock, {D::T, D::D}, K::Context, false, false, kSigned,
     "output projection", "attention output projection",
     "Y = O Wo^T + bo",
     "x = self.proj(x)  # self.proj = nn.Linear(dim, dim)",
     "dY = dx1 (the residual adds the branch, so it gets the stream's gradient)"},
    {K::Ls1, "ls1", kBlock, {D::T, D::D}, K::AttnOut, false, false, kSigned,
     "LayerScale (attention)", "LayerScale of the attention branch",
     "Y' = Y * gamma1, per feature (gamma1 learned, D values)",
     "x = self.ls1(x)  # LayerScale: x * self.gamma, init_values=1e-5",
     "dY' = dx1;  dY = dY' * gamma1, dgamma1 = sum over tokens of dY' * Y",
     Variant::LayerScale},
    {K::Res1, "res1", kBlock, {D::T, D::D}, K::Res1, kStream, false, kSigned,
     "+ residual (attention)", "first residual (attention added)",
     "x1 = x + Attn(LN1(x))",
     "x = x + self.attn(self.norm1(x))",
     "dx1 = dx_out + LN2 backward(dLN2): the stream and the MLP branch\n"
     "LN backward: dxh = dy * gamma;  dx = (dxh - mean(dxh) - xh * mean(dxh * xh)) / sigma"},
    {K::Ln2, "ln2", kBlock, {D::T, D::D}, K::Res1, false, false, kSigned,
     "LayerNorm before MLP", "LayerNorm before the MLP",
     kLayerNorm,
     "x_norm = self.norm2(x)  # self.norm2 = nn.LayerNorm(dim, eps=eps)",
     "dLN2 = dH W1"},
    {K::Fc1, "fc1", kBlock, {D::T, D::F}, K::Ln2, false, false, kSigned,
     "MLP fc1 (widen)", "MLP first layer (fc1)",
     "H = LN2(x1) W1^T + b1",
     "x = self.fc1(x)  # self.fc1 = nn.Linear(in_dim, hid_dim)",
     "dH = dGELU * GELU'(H), GELU'(h) = Phi(h) + h phi(h)"},
    {K::Gelu, "gelu", kBlock, {D::T, D::M}, K::Fc1, false, false, kSigned,
     "GELU", "GELU activation",
     "GELU(h) = h * Phi(h) = 0.5 h (1 + erf(h / sqrt(2)))",
     "x = self.act(x)  # self.act = nn.GELU()",
     "dGELU = dF W2",
     Variant::Gelu},
    {K::QuickGelu, "quick_gelu", kBlock, {D::T, D::M}, K::Fc1, false, false, kSigned,
     "QuickGELU", "QuickGELU activation (OpenAI CLIP)",
     "QuickGELU(h) = h * sigmoid(1.702 h)",
     "x = self.act(x)  # act_layer='quick_gelu': x * torch.sigmoid(1.702 * x)",
     "dQuickGELU = dF W2",
     Variant::QuickGelu},
    {K::SwiGlu, "swiglu", kBlock, {D::T, D::M}, K::Fc1, false, false, kSigned,
     "SwiGLU gate", "SwiGLU: one half of fc1 gates the other (DINOv2 ViT-g)",
     "G = SiLU(H[:, :M]) * H[:, M:],  SiLU(a) = a * sigmoid(a)",
     "x1, x2 = self.fc1(x).chunk(2, dim=-1)  # SwiGLUPacked: fc1 = nn.Linear(dim, 2 * hid_dim)\n"
     "x = self.act(x1) * x2  # self.act = nn.SiLU()",
     "dSwiGLU = dF W2",
     Variant::SwiGlu},
    {K::MlpOut, "mlp_out", kBlock, {D::T, D::D}, K::Gelu, false, false, kSigned,
     "MLP fc2 (narrow)", "MLP second layer (fc2)",
     "F = GELU(H) W2^T + b2",
     "x = self.fc2(x)  # self.fc2 = nn.Linear(hid_dim, out_dim)",
     "dF = dx_out"},
    {K::Ls2, "ls2", kBlock, {D::T, D::D}, K::MlpOut, false, false, kSigned,
     "LayerScale (MLP)", "LayerScale of the MLP branch",
     "F' = F * gamma2, per feature (gamma2 learned, D values)",
     "x = self.ls2(x)  # LayerScale: x * self.gamma, init_values=1e-5",
     "dF' = dx_out;  dF = dF' * gamma2, dgamma2 = sum over tokens of dF' * F",
     Variant::LayerScale},
    {K::Out, "out", kBlock, {D::T, D::D}, K::Res1, false, false, kSigned,
     "+ residual (MLP)", "block output (MLP added)",
     "x_out = x1 + MLP(LN2(x1))",
     "x = x + self.mlp(self.norm2(x))",
     "dx_out = the next block's dx (or the final LayerNorm's backward after the last block)"},
    {K::Norm, "norm", kHead, {D::T, D::D}, K::Norm, kStream, false, kSigned,
     "final LayerNorm", "Final LayerNorm",
     kLayerNorm,
     "x = self.norm(x)  # self.norm = nn.LayerNorm(embed_dim, eps=eps)",
     "dnorm = dlogits W_head in the CLS row, 0 in the others (only the CLS row is classified)"},
    {K::Pool, "pool", kHead, {D::Pooled}, K::Norm, false, false, kSigned,
     "pool tokens", "Pooled features (what the head reads)",
     "z = mean of the patch rows of norm (avg: CLS and register rows left out), or the CLS row (token);\n"
     "HF DINOv2 classifier: z = [CLS row, mean of the patch rows], 2D values",
     "x = x[:, self.num_prefix_tokens:].mean(dim=1) if self.global_pool == 'avg' else x[:, 0]\n"
     "x = torch.cat([x[:, 0], x[:, 1:].mean(dim=1)], dim=1)  # transformers' Dinov2ForImageClassification",
     "none: the backward pass does not follow pooled models",
     Variant::Pool},
    {K::FcNorm, "pool_norm", kHead, {D::D}, K::Pool, false, false, kSigned,
     "LayerNorm after pooling", "LayerNorm of the pooled features (fc_norm)",
     "z' = (z - mean(z)) / sqrt(var(z) + eps) * gamma + beta; the final norm is then an identity",
     "x = self.fc_norm(x)  # nn.LayerNorm when use_fc_norm, and self.norm = nn.Identity()",
     "none: the backward pass does not follow pooled models",
     Variant::FcNorm},
    {K::LogitsCls, "logits_cls", kHead, {D::Classes}, K::Norm, false, false, kSigned,
     "CLS head scores", "Class-token head (DeiT distilled)",
     "logits_cls = z_cls W_head^T + b_head, z_cls = norm row 0",
     "x = self.head(x[:, 0])",
     "none: the backward pass does not follow distilled models",
     Variant::Distilled},
    {K::LogitsDist, "logits_dist", kHead, {D::Classes}, K::Norm, false, false, kSigned,
     "DIST head scores", "Distillation-token head (DeiT distilled)",
     "logits_dist = z_dist W_dist^T + b_dist, z_dist = norm row 1",
     "x_dist = self.head_dist(x[:, 1])",
     "none: the backward pass does not follow distilled models",
     Variant::Distilled},
    {K::Logits, "logits", kHead, {D::Classes}, K::Norm, false, false, kSigned,
     "classifier scores", "Classifier head (logits)",
     "logits = z W_head^T + b_head, z the CLS row (or pool / fc_norm); DeiT distilled: (logits_cls + logits_dist) / 2",
     "x = self.head(x[:, 0])  # self.head = nn.Linear(embed_dim, num_classes)\n"
     "x = (self.head(x[:, 0]) + self.head_dist(x[:, 1])) / 2  # DeiT distilled (eval)",
     "dlogits = one-hot(c): the gradient of logit[c] starts here",
     Variant::Head},
    {K::Probs, "probs", kHead, {D::Classes}, K::Logits, false, false, kShares,
     "softmax: probabilities", "Class probabilities (softmax)",
     "p_k = exp(logit_k) / sum_j exp(logit_j)",
     "probs = logits.softmax(dim=-1)",
     "none: logit[c] is computed before the softmax, so nothing flows back through probs",
     Variant::Head},
    {K::Rollout, "rollout", kHead, {D::T, D::T}, K::Rollout, false, kNone, kShares,
     "attention rollout", "Attention rollout over all blocks",
     "R = A'_(L-1) ... A'_0, A'_l = rows_normalised(mean_h(A_l) + I)",
     "a = attn.mean(dim=1) + torch.eye(T)  # each block: mean over heads, plus the residual\n"
     "a = a / a.sum(dim=-1, keepdim=True)  # rows sum to 1 again\n"
     "rollout = a @ rollout  # multiply through the blocks, starting from torch.eye(T)",
     "none: rollout is drawn from the attention, the prediction does not use it"},
};
// clang-format on

const char* const kBlockPrefix = "block";

int64_t size_of(Dim d, const ModelSizes& s) {
    switch (d) {
        case Dim::C: return s.C;
        case Dim::S: return s.S;
        case Dim::N: return s.N;
        case Dim::PatchDim: return s.PatchDim;
        case Dim::T0: return s.T0;
        case Dim::T: return s.T;
        case Dim::D: return s.D;
        case Dim::H: return s.H;
        case Dim::Dh: return s.Dh;
        case Dim::M: return s.M;
        case Dim::F: return s.F;
        case Dim::Classes: return s.Classes;
        case Dim::Pooled: return s.Pooled;
    }
    return 0;
}

}  // namespace

ModelSizes model_sizes(const ModelConfig& c, int grid, int dropped) {
    ModelSizes s;
    s.C = c.channels;
    s.S = int64_t(grid) * c.patch_size;
    s.N = int64_t(grid) * grid;
    s.PatchDim = c.patch_dim();
    s.T0 = s.N + c.prefix_tokens();
    s.T = s.T0 - dropped;
    s.D = c.embed_dim;
    s.H = c.num_heads;
    s.Dh = c.num_heads > 0 ? c.head_dim() : 0;
    s.M = c.mlp_dim;
    s.F = c.fc1_dim();
    s.Classes = c.num_classes;
    s.Pooled = c.pooled_dim();
    return s;
}

const std::vector<StageDef>& stage_table() { return kTable; }

const StageDef& stage_def(StageKind kind) { return kTable.at(static_cast<size_t>(kind)); }

std::string stage_id(StageKind kind, int block) {
    const StageDef& def = stage_def(kind);
    if (def.group != StageGroup::Block) return def.name;
    return kBlockPrefix + std::to_string(block) + "." + def.name;
}

std::optional<StageRef> parse_stage_id(const std::string& id) {
    std::string name = id;
    int block = -1;
    const std::string prefix = kBlockPrefix;
    if (id.compare(0, prefix.size(), prefix) == 0) {
        const size_t dot = id.find('.', prefix.size());
        const std::optional<int> index =
            dot == std::string::npos ? std::nullopt : to_int(id.substr(prefix.size(), dot - prefix.size()), 0, 999999);
        if (!index) return std::nullopt;
        block = *index;
        name = id.substr(dot + 1);
    }
    for (const StageDef& def : kTable)
        if (name == def.name && (def.group == StageGroup::Block) == (block >= 0)) return StageRef{def.kind, block};
    return std::nullopt;
}

bool has_variant(const ModelConfig& c, Variant variant) {
    switch (variant) {
        case Variant::All: return true;
        case Variant::LayerScale: return c.layer_scale;
        case Variant::NormPre: return c.norm_pre;
        case Variant::Gelu: return c.activation == Activation::Gelu;
        case Variant::QuickGelu: return c.activation == Activation::QuickGelu;
        case Variant::SwiGlu: return c.activation == Activation::SwiGlu;
        case Variant::Pool: return c.global_pool == GlobalPool::Avg || c.global_pool == GlobalPool::ClsAvg || c.fc_norm;
        case Variant::FcNorm: return c.fc_norm;
        case Variant::Distilled: return c.dist_token && c.num_classes > 0;
        case Variant::Head: return c.num_classes > 0;
    }
    return false;
}

std::vector<StageRef> stage_list(int depth, bool has_head) {
    ModelConfig plain;  // GELU, no LayerScale, no norm_pre
    plain.depth = depth;
    plain.num_classes = has_head ? 1 : 0;
    return stage_list(plain);
}

std::vector<std::string> stage_ids(int depth, bool has_head) {
    std::vector<std::string> ids;
    for (const StageRef& s : stage_list(depth, has_head)) ids.push_back(stage_id(s));
    return ids;
}

std::vector<StageRef> stage_list(const ModelConfig& c) {
    std::vector<StageRef> list;
    auto add_group = [&](StageGroup group, int block) {
        for (const StageDef& def : kTable)
            if (def.group == group && has_variant(c, def.variant)) list.push_back({def.kind, block});
    };
    add_group(StageGroup::Embedding, -1);
    for (int b = 0; b < c.depth; ++b) add_group(StageGroup::Block, b);
    add_group(StageGroup::Head, -1);
    return list;
}

std::vector<int64_t> stage_shape(StageKind kind, const ModelSizes& sizes) {
    std::vector<int64_t> shape;
    for (Dim d : stage_def(kind).shape) shape.push_back(size_of(d, sizes));
    return shape;
}

std::optional<StageRef> stage_input(const StageRef& s, int depth, bool norm_pre) {
    const StageDef& def = stage_def(s.kind);
    if (def.from_none) return std::nullopt;
    if (!def.from_stream) return StageRef{def.from, s.block};
    const int block = def.group == StageGroup::Block ? s.block : depth;  // the head follows the last block
    if (block <= 0) return StageRef{norm_pre ? StageKind::NormPre : StageKind::Tokens, -1};
    return StageRef{StageKind::Out, block - 1};
}

std::optional<StageRef> stage_input(const StageRef& s, const ModelConfig& c) {
    std::optional<StageRef> in = stage_input(s, c.depth, c.norm_pre);
    if (in && in->kind == StageKind::Gelu) in->kind = activation_stage(c.activation);
    return in;
}

StageKind activation_stage(Activation activation) {
    switch (activation) {
        case Activation::Gelu: return StageKind::Gelu;
        case Activation::QuickGelu: return StageKind::QuickGelu;
        case Activation::SwiGlu: return StageKind::SwiGlu;
    }
    return StageKind::Gelu;
}

}  // namespace vit
