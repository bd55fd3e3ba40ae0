"""safetensors read/write, and timm / Hugging Face exporters and config writers.

File format (https://github.com/huggingface/safetensors): 8-byte little-endian
header length n, then n bytes of JSON
  {name: {"dtype": "F32"|"F16"|"BF16", "shape": [...], "data_offsets": [begin, end]},
   "__metadata__": {str: str}}
padded with spaces to a multiple of 8, then the raw little-endian tensor bytes
(offsets are relative to the start of that data section).
"""
import json
import struct

import numpy as np
import torch

DTYPES = ("F32", "F16", "BF16")


# -- bf16 ------------------------------------------------------------------
def f32_to_bf16_bits(a):
    """float32 array -> uint16 bf16 bits, round to nearest even (NaN kept quiet)."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    rounded = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    nan = np.isnan(a)
    rounded[nan] = ((u[nan] >> 16) | 0x40)
    return rounded.astype(np.uint16)


def bf16_bits_to_f32(b):
    b = np.ascontiguousarray(b, dtype=np.uint16)
    return (b.astype(np.uint32) << 16).view(np.float32)


def round_to_dtype(a, dtype):
    """The float32 values a file of `dtype` actually holds for float32 array a."""
    a = np.asarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.copy()
    if dtype == "F16":
        return a.astype(np.float16).astype(np.float32)
    if dtype == "BF16":
        return bf16_bits_to_f32(f32_to_bf16_bits(a)).reshape(a.shape)
    raise ValueError(f"unknown dtype {dtype}")


def _encode(a, dtype):
    a = np.asarray(a, dtype=np.float32)
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    if dtype == "BF16":
        return f32_to_bf16_bits(a).astype("<u2").tobytes()
    raise ValueError(f"unknown dtype {dtype}")


# -- write / read ------------------------------------------------------------
def save_file(tensors, path, dtype="F32", metadata=None):
    """tensors: {name: torch.Tensor | np.ndarray} (float). Written in name order."""
    header = {}
    blobs = []
    offset = 0
    for name in sorted(tensors):
        t = tensors[name]
        a = t.detach().cpu().float().numpy() if isinstance(t, torch.Tensor) else np.asarray(t, np.float32)
        b = _encode(a, dtype)
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    header["__metadata__"] = dict(metadata or {"format": "pt"})
    h = json.dumps(header, separators=(",", ":")).encode("utf-8")
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def load_file(path):
    """-> ({name: float32 np.ndarray}, metadata)"""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    base = 8 + n
    out = {}
    for name, info in header.items():
        b, e = info["data_offsets"]
        raw = data[base + b:base + e]
        dt = info["dtype"]
        if dt == "F32":
            a = np.frombuffer(raw, "<f4").astype(np.float32)
        elif dt == "F16":
            a = np.frombuffer(raw, "<f2").astype(np.float32)
        elif dt == "BF16":
            a = bf16_bits_to_f32(np.frombuffer(raw, "<u2"))
        else:
            raise ValueError(f"{path}: tensor {name}: unknown dtype {dt}")
        out[name] = a.reshape(info["shape"])
    return out, meta


# -- naming ------------------------------------------------------------------
def timm_state_dict(model):
    """timm names; `head.*` absent when the model has no classifier."""
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


# timm module -> Hugging Face ViTLayer module, in every block
HF_VIT_BLOCK = {"norm1": "layernorm_before", "attn.proj": "attention.output.dense", "norm2": "layernorm_after",
                "mlp.fc1": "intermediate.dense", "mlp.fc2": "output.dense"}


def hf_state_dict(model, prefix="vit.", block_modules=None, block_params=None):
    """Hugging Face ViTForImageClassification names (prefix "vit."; "" gives ViTModel's).
    Another HF model's blocks: `block_modules` (timm module -> HF module, with
    .weight and .bias; ViTLayer's by default) and `block_params` (timm
    parameter -> HF parameter, e.g. DINOv2's LayerScale)."""
    sd = model.state_dict()
    D = model.embed_dim
    out = {
        prefix + "embeddings.cls_token": sd["cls_token"],
        prefix + "embeddings.position_embeddings": sd["pos_embed"],
        prefix + "embeddings.patch_embeddings.projection.weight": sd["patch_embed.proj.weight"],
        prefix + "embeddings.patch_embeddings.projection.bias": sd["patch_embed.proj.bias"],
        prefix + "layernorm.weight": sd["norm.weight"],
        prefix + "layernorm.bias": sd["norm.bias"],
    }
    for i in range(len(model.blocks)):
        s, d = f"blocks.{i}.", f"{prefix}encoder.layer.{i}."
        qkv_w = sd[s + "attn.qkv.weight"]
        qkv_b = sd.get(s + "attn.qkv.bias")
        for j, n in enumerate(["query", "key", "value"]):
            out[d + f"attention.attention.{n}.weight"] = qkv_w[j * D:(j + 1) * D]
            if qkv_b is not None:
                out[d + f"attention.attention.{n}.bias"] = qkv_b[j * D:(j + 1) * D]
        for timm_name, hf_name in (block_modules or HF_VIT_BLOCK).items():
            out[d + hf_name + ".weight"] = sd[s + timm_name + ".weight"]
            out[d + hf_name + ".bias"] = sd[s + timm_name + ".bias"]
        for timm_name, hf_name in (block_params or {}).items():
            out[d + hf_name] = sd[s + timm_name]
    if model.num_classes > 0:
        out["classifier.weight"] = sd["head.weight"]
        out["classifier.bias"] = sd["head.bias"]
    return {k: v.detach().clone() for k, v in out.items()}


@torch.no_grad()
def round_model_(model, dtype):
    """Round every parameter in place to the values a `dtype` file holds."""
    for p in model.parameters():
        p.copy_(torch.from_numpy(round_to_dtype(p.detach().float().numpy(), dtype)).to(p.dtype))
    return model


@torch.no_grad()
def load_timm_into(model, path):
    tensors, _ = load_file(path)
    sd = model.state_dict()
    missing = [k for k in sd if k not in tensors]
    extra = [k for k in tensors if k not in sd]
    if missing or extra:
        raise KeyError(f"{path}: missing {missing}, unexpected {extra}")
    for k, v in sd.items():
        if tuple(tensors[k].shape) != tuple(v.shape):
            raise ValueError(f"{path}: {k}: expected {tuple(v.shape)}, found {tensors[k].shape}")
        v.copy_(torch.from_numpy(tensors[k]).to(v.dtype))
    return model


# -- configs -----------------------------------------------------------------
def timm_config(model, architecture, img_size, mean, std, crop_pct=0.9,
                interpolation="bicubic", label_names=None, mlp_ratio=4.0, qkv_bias=True,
                tag=None, model_args=None, token_args=None):
    """timm's hub config.json (as for vit_tiny_patch16_224.augreg_in21k_ft_in1k),
    plus `model_args` (what timm writes when a model was built with custom args):
    every size, or only `model_args` when given (the rest then comes from the
    architecture name and the weights, as for a published timm model);
    `token_args`: the token and pooling kwargs, e.g. reg_tokens, no_embed_class."""
    D = model.embed_dim
    args = {
        "img_size": img_size,
        "patch_size": model.patch_size,
        "in_chans": model.in_chans,
        "embed_dim": D,
        "depth": len(model.blocks),
        "num_heads": model.num_heads,
        "mlp_ratio": mlp_ratio,
        "qkv_bias": qkv_bias,
        "num_classes": model.num_classes,
    } if model_args is None else dict(model_args)
    args.update(token_args or {})
    pcfg = {}
    if tag:
        pcfg["tag"] = tag
    pcfg.update({
        "custom_load": False,
        "input_size": [model.in_chans, img_size, img_size],
        "fixed_input_size": True,
        "interpolation": interpolation,
        "crop_pct": crop_pct,
        "crop_mode": "center",
        "mean": list(mean),
        "std": list(std),
        "num_classes": model.num_classes,
        "pool_size": None,
        "first_conv": "patch_embed.proj",
        "classifier": "head",
    })
    if label_names is not None:
        pcfg["label_names"] = list(label_names)
    return {
        "architecture": architecture,
        "num_classes": model.num_classes,
        "num_features": D,
        "global_pool": model.global_pool,
        "model_args": args,
        "pretrained_cfg": pcfg,
    }


def hf_config(model, img_size, id2label=None, layer_norm_eps=1e-12, size_as_int=False):
    """(config.json, preprocessor_config.json) of a Hugging Face ViTForImageClassification."""
    D = model.embed_dim
    cfg = {
        "architectures": ["ViTForImageClassification"],
        "attention_probs_dropout_prob": 0.0,
        "encoder_stride": model.patch_size,
        "hidden_act": "gelu",
        "hidden_dropout_prob": 0.0,
        "hidden_size": D,
        "image_size": img_size,
        "initializer_range": 0.02,
        "intermediate_size": model.blocks[0].mlp.fc1.out_features,
        "layer_norm_eps": layer_norm_eps,
        "model_type": "vit",
        "num_attention_heads": model.num_heads,
        "num_channels": model.in_chans,
        "num_hidden_layers": len(model.blocks),
        "patch_size": model.patch_size,
        "qkv_bias": model.blocks[0].attn.qkv.bias is not None,
        "torch_dtype": "float32",
        "transformers_version": "4.36.2",
    }
    if id2label is not None:
        cfg["id2label"] = {str(i): n for i, n in enumerate(id2label)}
        cfg["label2id"] = {n: i for i, n in enumerate(id2label)}
    pre = {
        "do_normalize": True,
        "do_rescale": True,
        "do_resize": True,
        "image_mean": [0.5] * model.in_chans,
        "image_processor_type": "ViTImageProcessor",
        "image_std": [0.5] * model.in_chans,
        "resample": 2,
        "rescale_factor": 0.00392156862745098,
        "size": img_size if size_as_int else {"height": img_size, "width": img_size},
    }
    return cfg, pre


def write_json(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")
