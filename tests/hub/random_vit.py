#!/usr/bin/env python3
"""A timm ViT checkpoint with random weights at a real model's size (F16 of random
sign and size 2^-7 to 2^-6), written where
a stand-in Hub serves it (the real checkpoint is not fetched: no test reaches the
internet). The layout is timm's VisionTransformer with a class token and no
classifier (num_classes 0, as DINO's): config.json and model.safetensors in F16.
Usage: random_vit.py FOLDER [--dim 384] [--heads 6] [--depth 12] [--patch 16] [--size 224] [--reg 0] [--swiglu]
(the defaults: vit_small_patch16_224, the shape of timm/vit_small_patch16_224.dino; --swiglu:
DINOv2 ViT-g's MLP, timm's SwiGLUPacked with mlp_ratio 2.66667 * 2, so fc1 is 2 x hidden wide;
--reg R: R register tokens after CLS, positions on the patch grid only, as timm's _reg4_dinov2 models).
"""
import argparse
import json
import os
import random
import struct


def random_halves(count, rng):
    """`count` F16 numbers of random sign and size 2^-7 … 2^-6 (random bits, the exponent fixed), as bytes."""
    data = bytearray(rng.randbytes(2 * count))
    data[1::2] = data[1::2].translate(HIGH_BYTE)  # the high byte: sign kept, exponent 8 (2^-7), two mantissa bits
    return bytes(data)


HIGH_BYTE = bytes((b & 0x83) | 0x20 for b in range(256))
ONE = struct.pack("<e", 1.0)


SWIGLU_RATIO = 2.66667 * 2  # timm's vit_giant_patch14_dinov2


def tensors(dim, depth, patch, size, rng, swiglu=False, reg=0):
    """timm's names and shapes: random weights, LayerNorm gains of 1; {name: (shape, bytes)}."""
    fc1 = int(dim * SWIGLU_RATIO) // 2 * 2 if swiglu else 4 * dim  # GluMlp halves it: even
    hidden = fc1 // 2 if swiglu else fc1
    shapes = {"cls_token": (1, 1, dim), "pos_embed": (1, (size // patch) ** 2 + (0 if reg else 1), dim),
              "patch_embed.proj.weight": (dim, 3, patch, patch), "patch_embed.proj.bias": (dim,)}
    if reg:
        shapes["reg_token"] = (1, reg, dim)
    for i in range(depth):
        b = "blocks.%d." % i
        shapes.update({b + "norm1.weight": (dim,), b + "norm1.bias": (dim,),
                       b + "attn.qkv.weight": (3 * dim, dim), b + "attn.qkv.bias": (3 * dim,),
                       b + "attn.proj.weight": (dim, dim), b + "attn.proj.bias": (dim,),
                       b + "norm2.weight": (dim,), b + "norm2.bias": (dim,),
                       b + "mlp.fc1.weight": (fc1, dim), b + "mlp.fc1.bias": (fc1,),
                       b + "mlp.fc2.weight": (dim, hidden), b + "mlp.fc2.bias": (dim,)})
    shapes.update({"norm.weight": (dim,), "norm.bias": (dim,)})
    out = {}
    for name, shape in shapes.items():
        count = 1
        for n in shape:
            count *= n
        gain = name.endswith(("norm1.weight", "norm2.weight", "norm.weight"))
        out[name] = (shape, ONE * count if gain else random_halves(count, rng))
    return out


def write_safetensors(path, named):
    # The mark the app reads as "random weights" (core/formats/checkpoint.h kRandomWeightsKey).
    header, offset = {"__metadata__": {"vitviz.random_weights": "seeded random weights, never trained"}}, 0
    for name, (shape, data) in named.items():
        header[name] = {"dtype": "F16", "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for _, data in named.values():
            f.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder")
    for flag, default in (("--dim", 384), ("--heads", 6), ("--depth", 12), ("--patch", 16), ("--size", 224)):
        parser.add_argument(flag, type=int, default=default)
    parser.add_argument("--reg", type=int, default=0)
    parser.add_argument("--swiglu", action="store_true")
    a = parser.parse_args()
    os.makedirs(a.folder, exist_ok=True)
    config = {"architecture": "vit_random_patch%d_%d" % (a.patch, a.size), "num_classes": 0, "global_pool": "token",
              "model_args": {"img_size": a.size, "patch_size": a.patch, "embed_dim": a.dim, "depth": a.depth,
                             "num_heads": a.heads, "num_classes": 0},
              "pretrained_cfg": {"input_size": [3, a.size, a.size], "interpolation": "bicubic", "crop_pct": 0.875,
                                 "crop_mode": "center", "mean": [0.485, 0.456, 0.406], "std": [0.229, 0.224, 0.225],
                                 "num_classes": 0}}
    if a.reg:
        config["model_args"].update({"reg_tokens": a.reg, "no_embed_class": True})
    if a.swiglu:
        config["model_args"].update({"mlp_ratio": SWIGLU_RATIO, "mlp_layer": "SwiGLUPacked", "act_layer": "silu"})
    with open(os.path.join(a.folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    write_safetensors(os.path.join(a.folder, "model.safetensors"), tensors(a.dim, a.depth, a.patch, a.size,
                                                                          random.Random(0), a.swiglu, a.reg))


if __name__ == "__main__":
    main()
