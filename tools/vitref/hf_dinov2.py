"""Hugging Face's Dinov2Model / Dinov2ForImageClassification, and
Dinov2WithRegistersModel / Dinov2WithRegistersForImageClassification, as the
reference runs them.

transformers' modeling_dinov2.py is the timm-named VisionTransformer of model.py
with LayerScale in every block (Dinov2Layer: norm1, attention, layer_scale1,
residual; norm2, mlp, layer_scale2, residual), plus two differences kept here:
  - Dinov2Embeddings.interpolate_pos_encoding: the positions are returned as
    they are when the patch grid matches the trained one; otherwise the grid
    part is resized with F.interpolate(size=(h, w), mode="bicubic",
    align_corners=False) in float32, without antialias (the CLS row kept);
  - Dinov2ForImageClassification: the classifier, nn.Linear(2 * hidden_size,
    num_labels), reads torch.cat([cls_token, patch_tokens.mean(dim=1)], dim=1)
    of the final layernorm's output.
modeling_dinov2_with_registers.py (HfDinov2Registers) is the same model with
`num_register_tokens` register tokens, embeddings.register_tokens (1, R, D):
  - Dinov2WithRegistersEmbeddings.forward adds the positions (1 + grid² rows)
    to [CLS; patches] and then inserts the registers after CLS, so the order
    is CLS, REG0..REG{R-1}, patches and the registers take no position;
  - its interpolate_pos_encoding is DINOv2's with antialias=True;
  - the classifier reads [CLS, the mean of the patch rows], registers left out
    (sequence_output[:, 1 + num_register_tokens:]).
With use_swiglu_ffn (ViT-g) the MLP is Dinov2SwiGLUFFN: weights_in, SiLU on
one half times the other, weights_out (model.py's SwiGLUPacked).
`hf_dinov2_state_dict` writes transformers' key names, `hf_dinov2_config` the
config.json and BitImageProcessor's preprocessor_config.json.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from . import safetensors_io as st
from .model import VisionTransformer


class HfDinov2(VisionTransformer):
    antialias = False  # interpolate_pos_encoding's F.interpolate flag

    def __init__(self, num_classes, embed_dim, use_swiglu_ffn=False, mlp_ratio=4.0, **kw):
        swiglu = {}
        if use_swiglu_ffn:  # Dinov2SwiGLUFFN: hidden = D * mlp_ratio, then 2/3 of it rounded up to a multiple of 8
            hidden = (int(int(embed_dim * mlp_ratio) * 2 / 3) + 7) // 8 * 8
            swiglu = dict(mlp_layer="SwiGLUPacked", mlp_hidden=2 * hidden)
        super().__init__(num_classes=num_classes, embed_dim=embed_dim, init_values=1.0, mlp_ratio=mlp_ratio,
                         **swiglu, **kw)
        self.use_swiglu_ffn = use_swiglu_ffn
        self.head = nn.Linear(2 * embed_dim, num_classes) if num_classes > 0 else nn.Identity()

    def _pos_embed_for(self, gh, gw):
        num_positions = self.pos_embed.shape[1] - 1
        old = int(math.isqrt(num_positions))
        if (gh, gw) == (old, old):
            return self.pos_embed
        dim = self.pos_embed.shape[-1]
        grid = self.pos_embed[:, 1:].reshape(1, old, old, dim).permute(0, 3, 1, 2)
        grid = F.interpolate(grid.to(torch.float32), size=(gh, gw), mode="bicubic",
                             align_corners=False, antialias=self.antialias).to(self.pos_embed.dtype)
        grid = grid.permute(0, 2, 3, 1).reshape(1, -1, dim)
        return torch.cat([self.pos_embed[:, :1], grid], dim=1)

    def _linear_input(self, t):
        return torch.cat([t[:, 0], t[:, self.num_prefix_tokens:].mean(dim=1)], dim=1)

    def forward_head(self, t):
        return self.head(self._linear_input(t))

    def _head_trace(self, t, out):
        if self.num_classes == 0:  # Dinov2Model: no classifier, nothing pooled
            return
        z = self._linear_input(t)
        out["pool"] = z[0]
        logits = self.head(z)[0]
        out["logits"] = logits
        out["probs"] = logits.softmax(dim=-1)


class HfDinov2Registers(HfDinov2):
    antialias = True

    def __init__(self, num_classes, embed_dim, num_register_tokens=4, **kw):
        super().__init__(num_classes, embed_dim, reg_tokens=num_register_tokens, **kw)
        # position_embeddings: num_patches + 1 rows, none for the registers
        self.pos_embed = nn.Parameter(torch.zeros(1, self.patch_embed.num_patches + 1, embed_dim))

    def _pos_embed(self, emb, gh, gw, iv, rec):
        """Dinov2WithRegistersEmbeddings.forward; rec["cls"] is CLS, the
        registers and the patches before any position is added."""
        cls = self.cls_token.expand(emb.shape[0], -1, -1).to(emb.dtype)
        reg = self.reg_token.expand(emb.shape[0], -1, -1).to(emb.dtype)
        if rec is not None:
            rec["cls"] = torch.cat([cls, reg, emb], dim=1)
        t = torch.cat([cls, emb], dim=1)
        if not iv.no_pos:
            t = t + self._pos_embed_for(gh, gw)
        return torch.cat([t[:, :1], reg, t[:, 1:]], dim=1)


def hf_dinov2_state_dict(model, prefix="dinov2."):
    """transformers' names: Dinov2ForImageClassification's ("dinov2." and
    "classifier."; Dinov2WithRegistersForImageClassification's
    "dinov2_with_registers." and embeddings.register_tokens), with the unused
    mask_token the embeddings hold."""
    fc1, fc2 = ("mlp.weights_in", "mlp.weights_out") if model.use_swiglu_ffn else ("mlp.fc1", "mlp.fc2")
    blocks = {"norm1": "norm1", "attn.proj": "attention.output.dense", "norm2": "norm2",
              "mlp.fc1": fc1, "mlp.fc2": fc2}
    layer_scale = {"ls1.gamma": "layer_scale1.lambda1", "ls2.gamma": "layer_scale2.lambda1"}
    out = st.hf_state_dict(model, prefix, blocks, layer_scale)
    out[prefix + "embeddings.mask_token"] = torch.zeros(1, model.embed_dim)
    if model.reg_token is not None:
        out[prefix + "embeddings.register_tokens"] = model.reg_token.detach().clone()
    return out


def hf_dinov2_config(model, img_size, shortest_edge, crop, mean, std, id2label=None):
    """(config.json, preprocessor_config.json) as facebook/dinov2-small-imagenet1k-1-layer's
    (or dinov2-with-registers-small-imagenet1k-1-layer's for HfDinov2Registers:
    Dinov2WithRegistersConfig's keys too, sorted as transformers writes them)."""
    registers = isinstance(model, HfDinov2Registers)
    family = "Dinov2WithRegisters" if registers else "Dinov2"
    cfg = {
        "architectures": [family + ("ForImageClassification" if model.num_classes > 0 else "Model")],
        "attention_probs_dropout_prob": 0.0,
        "drop_path_rate": 0.0,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "hidden_size": model.embed_dim,
        "image_size": img_size,
        "initializer_range": 0.02,
        "layer_norm_eps": 1e-06,
        "layerscale_value": 1.0,
        "mlp_ratio": 4,
        "model_type": "dinov2",
        "num_attention_heads": model.num_heads,
        "num_channels": model.in_chans,
        "num_hidden_layers": len(model.blocks),
        "patch_size": model.patch_size,
        "qkv_bias": True,
        "torch_dtype": "float32",
        "transformers_version": "4.47.0",
        "use_swiglu_ffn": model.use_swiglu_ffn,
    }
    if id2label is not None:
        cfg["id2label"] = {str(i): n for i, n in enumerate(id2label)}
        cfg["label2id"] = {n: i for i, n in enumerate(id2label)}
    if registers:
        depth = len(model.blocks)
        cfg.update({"apply_layernorm": True, "model_type": "dinov2_with_registers",
                    "num_register_tokens": model.reg_token.shape[1], "out_features": [f"stage{depth}"],
                    "out_indices": [depth], "reshape_hidden_states": True,
                    "stage_names": ["stem"] + [f"stage{i}" for i in range(1, depth + 1)]})
        cfg = dict(sorted(cfg.items()))
    pre = {
        "crop_size": {"height": crop, "width": crop},
        "do_center_crop": True,
        "do_convert_rgb": True,
        "do_normalize": True,
        "do_rescale": True,
        "do_resize": True,
        "image_mean": list(mean),
        "image_processor_type": "BitImageProcessor",
        "image_std": list(std),
        "resample": 3,
        "rescale_factor": 0.00392156862745098,
        "size": {"shortest_edge": shortest_edge},
    }
    return cfg, pre
