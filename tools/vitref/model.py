"""A Vision Transformer with timm's module names and layout.

Mirrors timm's `vision_transformer.py` (VisionTransformer, Block, Attention,
Mlp, PatchEmbed, LayerScale) for the plain ViT: CLS token, learned absolute
positional embedding, pre-norm blocks, head on the CLS row after the final
LayerNorm; with timm's `init_values` (LayerScale ls1/ls2, DINOv2), `pre_norm`
(norm_pre and no patch bias, CLIP), `act_layer` ('gelu' or 'quick_gelu') and
`mlp_layer` ('Mlp' or 'SwiGLUPacked', DINOv2 ViT-g's gated MLP).
timm's token layouts too (`_pos_embed`, `global_pool_nlc`, deit.py's
VisionTransformerDistilled): register tokens, no class token, no_embed_class
positions, global_pool 'avg' with fc_norm, DeiT's distillation token and head.
Left out: dropout, fused attention.

`forward_trace(x)` returns every stage of docs/DESIGN.md#stage-catalogue, with the ids
used there and the batch dimension removed; `gradient_trace(x, c)` the
gradients of logit[c] (autograd) with respect to those stages and every
parameter, and the class-c relevance (Chefer et al. 2021).

Interventions (the C++ core's core/pass/interventions.h) are an `Interventions`
value passed to `forward_trace(x, iv)`; `logit_lens(trace)` and
`occlusion_map(x)` (all N masked inputs as one batch) are the two analyses.
"""
import math
from collections import OrderedDict
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


def resample_abs_pos_embed(pos_embed, new_grid, num_prefix_tokens=1,
                           interpolation="bicubic", antialias=True):
    """timm's resample_abs_pos_embed: pos_embed (1, prefix+g*g, D) -> (1, prefix+g'*g', D).

    The prefix (CLS) rows are kept; the grid part is reshaped to (1, D, g, g),
    resized with F.interpolate(mode, antialias, align_corners=False), flattened back.
    """
    n = pos_embed.shape[1] - num_prefix_tokens
    old = int(math.isqrt(n))
    assert old * old == n, "positional embedding grid is not square"
    if isinstance(new_grid, int):
        new_grid = (new_grid, new_grid)
    if tuple(new_grid) == (old, old):
        return pos_embed
    prefix, grid = pos_embed[:, :num_prefix_tokens], pos_embed[:, num_prefix_tokens:]
    d = pos_embed.shape[-1]
    grid = grid.reshape(1, old, old, d).permute(0, 3, 1, 2)
    grid = F.interpolate(grid, size=tuple(new_grid), mode=interpolation,
                         antialias=antialias, align_corners=False)
    grid = grid.permute(0, 2, 3, 1).reshape(1, -1, d)
    return torch.cat([prefix, grid], dim=1)


@dataclass
class Interventions:
    mask: list = field(default_factory=list)      # patch numbers: pixels set to 0 in the input
    drop: list = field(default_factory=list)      # patch tokens (token n+1) removed after positions
    ablate: list = field(default_factory=list)    # (block, head): context slice set to 0
    no_pos: bool = False                          # positional embedding not added
    permute: list = field(default_factory=list)   # p: patch_embed row n <- unpermuted row p[n]
    temperature: float = 1.0                      # attn = softmax(scores / temperature)


def mask_patches(x, patches, P):
    """x: (B, C, H, W); the listed patches' pixels set to 0 (a copy)."""
    x = x.clone()
    gw = x.shape[-1] // P
    for n in patches:
        r, c = divmod(n, gw)
        x[..., r * P:(r + 1) * P, c * P:(c + 1) * P] = 0
    return x


def attention_rollout(attns):
    """attns: list of (H, T, T). Â = mean_h(attn) + I, rows renormalised;
    R = Â_0, then R = Â_l @ R for l = 1..L-1."""
    r = None
    for a in attns:
        m = a.mean(dim=0)
        m = m + torch.eye(m.shape[-1], dtype=m.dtype)
        m = m / m.sum(dim=-1, keepdim=True)
        r = m if r is None else m @ r
    return r


class LayerScale(nn.Module):
    """timm's LayerScale: x * gamma, gamma (D,) learned (init_values at the start)."""
    def __init__(self, dim, init_values=1e-5):
        super().__init__()
        self.gamma = nn.Parameter(init_values * torch.ones(dim))

    def forward(self, x):
        return x * self.gamma


class QuickGELU(nn.Module):
    """timm's QuickGELU (layers/activations.py): x * sigmoid(1.702 x)."""
    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)


ACTIVATIONS = {"gelu": nn.GELU, "quick_gelu": QuickGELU}  # stage id of the activation = its act_layer name


class PatchEmbed(nn.Module):
    def __init__(self, img_size, patch_size, in_chans, embed_dim, bias=True):
        super().__init__()
        self.img_size = img_size
        self.patch_size = patch_size
        self.grid_size = img_size // patch_size
        self.num_patches = self.grid_size ** 2
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch_size, stride=patch_size, bias=bias)

    def forward(self, x):  # (B, C, H, W) -> (B, N, D)
        return self.proj(x).flatten(2).transpose(1, 2)


class Attention(nn.Module):
    def __init__(self, dim, num_heads, qkv_bias=True):
        super().__init__()
        assert dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, rec=None, prefix="", temperature=1.0, ablate=()):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)                          # (B, H, T, Dh)
        scores = (q * self.scale) @ k.transpose(-2, -1)  # (B, H, T, T)
        attn = (scores / temperature).softmax(dim=-1)
        ctx = attn @ v                                   # (B, H, T, Dh)
        if ablate:
            keep = torch.ones(self.num_heads, dtype=ctx.dtype)
            keep[list(ablate)] = 0
            ctx = ctx * keep[None, :, None, None]
        ctx = ctx.transpose(1, 2).reshape(B, N, C)
        out = self.proj(ctx)
        if rec is not None:
            rec[prefix + "q"] = q
            rec[prefix + "k"] = k
            rec[prefix + "v"] = v
            rec[prefix + "scores"] = scores
            rec[prefix + "attn"] = attn
            rec[prefix + "context"] = ctx
            rec[prefix + "attn_out"] = out
        return out


class Mlp(nn.Module):
    def __init__(self, dim, hidden, act_layer="gelu"):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = ACTIVATIONS[act_layer]()  # nn.GELU(): the erf form
        self.act_name = act_layer
        self.fc2 = nn.Linear(hidden, dim)

    def forward(self, x, rec=None, prefix=""):
        h = self.fc1(x)
        g = self.act(h)
        out = self.fc2(g)
        if rec is not None:
            rec[prefix + "fc1"] = h
            rec[prefix + self.act_name] = g
            rec[prefix + "mlp_out"] = out
        return out


class SwiGLUPacked(nn.Module):
    """timm's SwiGLUPacked (layers/mlp.py GluMlp with act_layer=nn.SiLU, gate_last=False):
    fc1 writes `hidden` features, its halves x1, x2; act(x1) * x2 goes to fc2.
    transformers' Dinov2SwiGLUFFN is the same with fc1/fc2 named weights_in/weights_out."""
    def __init__(self, dim, hidden):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.SiLU()
        self.fc2 = nn.Linear(hidden // 2, dim)

    def forward(self, x, rec=None, prefix=""):
        h = self.fc1(x)
        x1, x2 = h.chunk(2, dim=-1)
        g = self.act(x1) * x2
        out = self.fc2(g)
        if rec is not None:
            rec[prefix + "fc1"] = h
            rec[prefix + "swiglu"] = g
            rec[prefix + "mlp_out"] = out
        return out


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.0, qkv_bias=True, eps=1e-6, init_values=None,
                 act_layer="gelu", mlp_layer="Mlp", mlp_hidden=None):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=eps)
        self.attn = Attention(dim, num_heads, qkv_bias)
        self.ls1 = LayerScale(dim, init_values) if init_values else nn.Identity()
        self.norm2 = nn.LayerNorm(dim, eps=eps)
        hidden = mlp_hidden or int(dim * mlp_ratio)
        self.mlp = SwiGLUPacked(dim, hidden) if mlp_layer == "SwiGLUPacked" else Mlp(dim, hidden, act_layer)
        self.ls2 = LayerScale(dim, init_values) if init_values else nn.Identity()

    def forward(self, x, rec=None, prefix="", temperature=1.0, ablate=()):
        h = self.norm1(x)
        a = self.ls1(self.attn(h, rec, prefix, temperature, ablate))
        x = x + a
        if rec is not None:
            rec[prefix + "ln1"] = h
            rec[prefix + "ls1"] = a
            rec[prefix + "res1"] = x
        h = self.norm2(x)
        m = self.ls2(self.mlp(h, rec, prefix))
        x = x + m
        if rec is not None:
            rec[prefix + "ln2"] = h
            rec[prefix + "ls2"] = m
            rec[prefix + "out"] = x
        return x


# Stage order within a block, as in the catalogue (docs/DESIGN.md#stage-catalogue).
BLOCK_STAGES = ["ln1", "q", "k", "v", "scores", "attn", "context", "attn_out", "res1",
                "ln2", "fc1", "gelu", "mlp_out", "out"]


def block_stages(layer_scale=False, act_layer="gelu", mlp_layer="Mlp"):
    """BLOCK_STAGES of a model with these variants: ls1/ls2 after the branch they
    scale, the activation named by its act_layer (`swiglu` for SwiGLUPacked)."""
    act = "swiglu" if mlp_layer == "SwiGLUPacked" else act_layer
    out = []
    for s in BLOCK_STAGES:
        out.append(act if s == "gelu" else s)
        if layer_scale and s in ("attn_out", "mlp_out"):
            out.append("ls1" if s == "attn_out" else "ls2")
    return out


class VisionTransformer(nn.Module):
    def __init__(self, img_size=224, patch_size=16, in_chans=3, num_classes=1000,
                 embed_dim=768, depth=12, num_heads=12, mlp_ratio=4.0, qkv_bias=True,
                 eps=1e-6, class_token=True, reg_tokens=0, no_embed_class=False,
                 global_pool="token", fc_norm=None, distilled=False,
                 init_values=None, pre_norm=False, act_layer="gelu", mlp_layer="Mlp", mlp_hidden=None):
        super().__init__()
        self.block_stages = block_stages(bool(init_values), act_layer, mlp_layer)
        self.num_classes = num_classes
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.patch_size = patch_size
        self.in_chans = in_chans
        self.eps = eps
        self.patch_embed = PatchEmbed(img_size, patch_size, in_chans, embed_dim, bias=not pre_norm)
        # timm: num_prefix_tokens = class token + registers (+ DeiT's dist token);
        # pos_embed covers them unless no_embed_class
        self.global_pool = global_pool
        self.use_fc_norm = global_pool in ("avg", "avgmax", "max") if fc_norm is None else fc_norm
        self.distilled = distilled
        self.no_embed_class = no_embed_class
        self.num_prefix_tokens = int(class_token) + int(distilled) + reg_tokens
        self.cls_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if class_token else None
        self.dist_token = nn.Parameter(torch.zeros(1, 1, embed_dim)) if distilled else None
        self.reg_token = nn.Parameter(torch.zeros(1, reg_tokens, embed_dim)) if reg_tokens else None
        embed_len = self.patch_embed.num_patches + (0 if no_embed_class else self.num_prefix_tokens)
        self.pos_embed = nn.Parameter(torch.zeros(1, embed_len, embed_dim))
        self.norm_pre = nn.LayerNorm(embed_dim, eps=eps) if pre_norm else None
        self.blocks = nn.ModuleList([Block(embed_dim, num_heads, mlp_ratio, qkv_bias, eps, init_values, act_layer,
                                           mlp_layer, mlp_hidden) for _ in range(depth)])
        self.norm = nn.LayerNorm(embed_dim, eps=eps) if not self.use_fc_norm else nn.Identity()
        self.fc_norm = nn.LayerNorm(embed_dim, eps=eps) if self.use_fc_norm else nn.Identity()
        self.head = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()
        if distilled:
            self.head_dist = nn.Linear(embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    # -- helpers -------------------------------------------------------------
    def embedding_stages(self):
        return ["input", "patches", "patch_embed", "cls", "tokens"] + (["norm_pre"] if self.norm_pre is not None else [])

    def _pos_embed_for(self, gh, gw):
        prefix = 0 if self.no_embed_class else self.num_prefix_tokens
        return resample_abs_pos_embed(self.pos_embed, (gh, gw), num_prefix_tokens=prefix)

    def _prefix_tokens(self, B, dtype):
        """timm's order: CLS, DIST (deit.py), then the registers."""
        to_cat = [p.expand(B, -1, -1).to(dtype) for p in (self.cls_token, self.dist_token) if p is not None]
        if self.reg_token is not None:
            to_cat.append(self.reg_token.expand(B, -1, -1).to(dtype))
        return to_cat

    def _pos_embed(self, emb, gh, gw, iv, rec):
        """timm's VisionTransformer._pos_embed (no_embed_class: add, then concat;
        else concat, then add); rec["cls"] is the concatenation before positions."""
        to_cat = self._prefix_tokens(emb.shape[0], emb.dtype)
        t = torch.cat(to_cat + [emb], dim=1)
        if rec is not None:
            rec["cls"] = t  # the same tensor the positions are added to, so that its gradient is kept
        pos = None if iv.no_pos else self._pos_embed_for(gh, gw)
        if self.no_embed_class:
            return torch.cat(to_cat + [emb if pos is None else emb + pos], dim=1)
        return t if pos is None else t + pos

    def forward_head(self, t):
        """timm's forward_head (global_pool_nlc, fc_norm, head), or deit.py's
        distilled one: (head(x[:, 0]) + head_dist(x[:, 1])) / 2 in eval mode."""
        if self.distilled:
            return (self.head(t[:, 0]) + self.head_dist(t[:, 1])) / 2
        x = t[:, 0] if self.global_pool == "token" else t[:, self.num_prefix_tokens:].mean(dim=1)
        return self.head(self.fc_norm(x))

    def _head_trace(self, t, out):
        """The head's stages: pool and pool_norm (average pooling or fc_norm),
        logits_cls and logits_dist (distilled), logits and probs."""
        z = t[:, 0]
        if self.global_pool == "avg" or self.use_fc_norm:
            z = t[:, self.num_prefix_tokens:].mean(dim=1) if self.global_pool == "avg" else t[:, 0]
            out["pool"] = z[0]
            if self.use_fc_norm:
                z = self.fc_norm(z)
                out["pool_norm"] = z[0]  # timm's fc_norm; the catalogue's stage id
        if self.num_classes == 0:
            return
        if self.distilled:
            a, b = self.head(t[:, 0]), self.head_dist(t[:, 1])
            out["logits_cls"], out["logits_dist"] = a[0], b[0]
            logits = ((a + b) / 2)[0]
        else:
            logits = self.head(z)[0]
        out["logits"] = logits
        out["probs"] = logits.softmax(dim=-1)

    def _forward(self, x, rec=None, iv=None):
        iv = iv or Interventions()
        B, C, H, W = x.shape
        P = self.patch_size
        gh, gw = H // P, W // P
        if iv.mask:
            x = mask_patches(x, iv.mask, P)
        if rec is not None:
            rec["input"] = x
            patches = (x[:, :, :gh * P, :gw * P]
                       .reshape(B, C, gh, P, gw, P).permute(0, 2, 4, 1, 3, 5)
                       .reshape(B, gh * gw, C * P * P))               # (c, y, x) order
            rec["patches"] = patches
            # the same pixels put back (a permutation, no arithmetic), so that
            # the gradient reaches the patches stage on its way to the input
            x = (patches.reshape(B, gh, gw, C, P, P).permute(0, 3, 1, 4, 2, 5)
                 .reshape(B, C, gh * P, gw * P))
        emb = self.patch_embed(x)                                     # (B, N, D)
        if iv.permute:
            emb = emb[:, list(iv.permute)]
        if rec is not None:
            rec["patch_embed"] = emb
        t = self._pos_embed(emb, gh, gw, iv, rec)
        if iv.drop:
            P0 = self.num_prefix_tokens
            keep = [i for i in range(t.shape[1]) if i < P0 or i - P0 not in set(iv.drop)]
            t = t[:, keep]
        if rec is not None:
            rec["tokens"] = t
        if self.norm_pre is not None:
            t = self.norm_pre(t)
            if rec is not None:
                rec["norm_pre"] = t
        for i, blk in enumerate(self.blocks):
            t = blk(t, rec, f"block{i}.", iv.temperature, [h for b, h in iv.ablate if b == i])
        t = self.norm(t)
        if rec is not None:
            rec["norm"] = t
        return t

    def forward_features(self, x):
        return self._forward(x)

    def forward(self, x):
        return self.forward_head(self._forward(x))

    @torch.no_grad()
    def forward_trace(self, x, iv=None):
        """x: (C, H, W) or (1, C, H, W). Returns OrderedDict stage id -> tensor (no batch dim)."""
        if x.dim() == 3:
            x = x.unsqueeze(0)
        assert x.shape[0] == 1
        rec = {}
        t = self._forward(x, rec, iv)
        out = OrderedDict()
        for k in self.embedding_stages():
            out[k] = rec[k][0]
        for i in range(len(self.blocks)):
            for s in self.block_stages:
                out[f"block{i}.{s}"] = rec[f"block{i}.{s}"][0]
        out["norm"] = rec["norm"][0]
        self._head_trace(t, out)
        out["rollout"] = attention_rollout([out[f"block{i}.attn"] for i in range(len(self.blocks))])
        return out

    @torch.no_grad()
    def logit_lens(self, trace):
        """(depth, classes): softmax(head(norm(block{i}.out[0]))) for every block."""
        rows = torch.stack([trace[f"block{i}.out"][0] for i in range(len(self.blocks))])
        return self.head(self.norm(rows)).softmax(dim=-1)

    @torch.no_grad()
    def occlusion_map(self, x, iv=None):
        """x: (C, H, W). (N,): the probability of the top-1 class (under iv) with
        each patch n masked as well; the N masked inputs run as one batch."""
        iv = iv or Interventions()
        top = int(self.forward_trace(x, iv)["logits"].argmax())
        n = (x.shape[-2] // self.patch_size) * (x.shape[-1] // self.patch_size)
        batch = torch.stack([mask_patches(x[None], list(iv.mask) + [i], self.patch_size)[0] for i in range(n)])
        base = Interventions(drop=iv.drop, ablate=iv.ablate, no_pos=iv.no_pos, permute=iv.permute,
                             temperature=iv.temperature)
        probs = self.head(self._forward(batch, None, base)[:, 0]).softmax(dim=-1)
        return probs[:, top]

    def gradient_trace(self, x, cls):
        """The gradient of logit[cls] by autograd. x: (C, H, W).
        Returns (stage id -> gradient, for every stage the logit depends on, no batch dim;
                 parameter name -> gradient, timm names and shapes;
                 relevance R (T, T), Chefer et al. 2021, from the definition)."""
        x = x.detach().clone()[None].requires_grad_(True)
        self.zero_grad(set_to_none=True)
        rec = {}
        t = self._forward(x, rec)
        for v in rec.values():
            if v.requires_grad and not v.is_leaf:
                v.retain_grad()
        logits = self.head(t[:, 0])
        logits.retain_grad()
        logits[0, cls].backward()
        stages = OrderedDict()
        stages["input"] = x.grad[0]
        for k in self.embedding_stages()[1:]:
            stages[k] = rec[k].grad[0]
        for i in range(len(self.blocks)):
            for s in self.block_stages:
                stages[f"block{i}.{s}"] = rec[f"block{i}.{s}"].grad[0]
        stages["norm"] = rec["norm"].grad[0]
        stages["logits"] = logits.grad[0]
        params = OrderedDict((n, p.grad.detach().clone()) for n, p in self.named_parameters())
        T = stages["tokens"].shape[0]
        r = torch.eye(T, dtype=t.dtype)
        for i in range(len(self.blocks)):
            a = rec[f"block{i}.attn"][0].detach()
            ga = stages[f"block{i}.attn"]
            r = r + (ga * a).clamp(min=0).mean(dim=0) @ r
        return stages, params, r

    # -- random init with realistic magnitudes (for test fixtures) ------------
    @torch.no_grad()
    def init_random(self, generator, w_std=0.3, b_range=0.1, ln_range=0.1, tok_std=0.5):
        for name, p in self.named_parameters():
            if name.endswith("norm1.weight") or name.endswith("norm2.weight") or name in ("norm.weight",
                                                                                          "fc_norm.weight",
                                                                                          "norm_pre.weight"):
                p.copy_(1 + (torch.rand(p.shape, generator=generator) * 2 - 1) * ln_range)
            elif name.endswith(".gamma"):  # LayerScale: a learned DINOv2 scale, well below 1
                p.copy_(0.1 + torch.rand(p.shape, generator=generator) * 0.5)
            elif name.endswith(".bias"):
                p.copy_((torch.rand(p.shape, generator=generator) * 2 - 1) * b_range)
            elif name in ("cls_token", "pos_embed", "dist_token", "reg_token"):
                p.copy_(torch.randn(p.shape, generator=generator) * tok_std)
            else:
                # weights: scale so each output has std ~ w_std * sqrt(fan_in)/sqrt(fan_in)
                fan_in = p[0].numel()
                std = w_std if fan_in <= 64 else w_std * math.sqrt(64.0 / fan_in)
                p.copy_(torch.randn(p.shape, generator=generator) * std)
        return self
