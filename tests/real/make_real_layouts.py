#!/usr/bin/python3
"""Builds checkpoints with exactly the layouts of the real ViTs the README
tells users to download, with random weights, and what PyTorch computes on
them. Run by ctest before tests/real/test_real_layouts.cpp (the files are
large, so they are made in the build folder, not committed):

    /usr/bin/python3 tests/real/make_real_layouts.py OUT_DIR

OUT_DIR/<name>/ gets model.safetensors (F32, the real key names),
config.json as published (timm hub form without model_args, or Hugging Face's
with id2label, plus preprocessor_config.json), and expected/*.npy for a few
stages; OUT_DIR/chelsea.png is the input (PNG, so both sides decode the same
pixels). Deterministic: fixed seeds, the same threads.
"""
import json
import os
import sys

import numpy as np
import torch
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from vitref import VisionTransformer  # noqa: E402
from vitref import preprocess as pp  # noqa: E402
from vitref import safetensors_io as st  # noqa: E402

IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]
HALF = [0.5, 0.5, 0.5]
STAGES = ["input", "patch_embed", "block0.attn", "norm", "logits", "probs", "rollout"]

# name: (naming, architecture or hub id, embed_dim, heads, classes, mean, std, crop_pct)
MODELS = {
    "vit_tiny_patch16_224": ("timm", "vit_tiny_patch16_224", 192, 3, 1000, HALF, HALF, 0.9),
    "vit_base_patch16_224": ("timm", "vit_base_patch16_224", 768, 12, 1000, HALF, HALF, 0.9),
    "deit_small_patch16_224": ("timm", "deit_small_patch16_224", 384, 6, 1000, IMAGENET_MEAN, IMAGENET_STD, 0.875),
    "vit_small_patch16_224.dino": ("timm", "vit_small_patch16_224", 384, 6, 0, IMAGENET_MEAN, IMAGENET_STD, 0.9),
    "google--vit-base-patch16-224": ("hf", "google/vit-base-patch16-224", 768, 12, 1000, HALF, HALF, 1.0),
}


def timm_hub_config(architecture, tag, dim, classes, mean, std, crop_pct):
    """config.json as timm publishes it on the hub (no model_args)."""
    return {
        "architecture": architecture,
        "num_classes": classes,
        "num_features": dim,
        "global_pool": "token",
        "pretrained_cfg": {
            "tag": tag,
            "custom_load": False,
            "input_size": [3, 224, 224],
            "fixed_input_size": True,
            "interpolation": "bicubic",
            "crop_pct": crop_pct,
            "crop_mode": "center",
            "mean": mean,
            "std": std,
            "num_classes": classes,
            "pool_size": None,
            "first_conv": "patch_embed.proj",
            "classifier": "head",
        },
    }


def imagenet_labels():
    with open(os.path.join(ROOT, "assets", "imagenet_labels.txt")) as f:
        return [line.rstrip("\n") for line in f]


def build(out_dir, name, spec, image_path, seed):
    naming, arch, dim, heads, classes, mean, std, crop_pct = spec
    torch.manual_seed(seed)
    model = VisionTransformer(img_size=224, patch_size=16, embed_dim=dim, depth=12, num_heads=heads,
                              num_classes=classes, eps=1e-12 if naming == "hf" else 1e-6).eval()
    model.init_random(torch.Generator().manual_seed(seed))
    folder = os.path.join(out_dir, name)
    os.makedirs(os.path.join(folder, "expected"), exist_ok=True)

    image = pp.load_image(image_path)
    if naming == "timm":
        st.save_file(st.timm_state_dict(model), os.path.join(folder, "model.safetensors"))
        tag = name.split(".")[1] if "." in name else "augreg_in21k_ft_in1k"
        st.write_json(timm_hub_config(arch, tag, dim, classes, mean, std, crop_pct), os.path.join(folder, "config.json"))
        x = pp.timm_preprocess(image, 224, crop_pct, "bicubic", mean, std)
    else:
        st.save_file(st.hf_state_dict(model), os.path.join(folder, "model.safetensors"))
        config, preprocessor = st.hf_config(model, 224, id2label=imagenet_labels(), size_as_int=False)
        config["_name_or_path"] = arch
        st.write_json(config, os.path.join(folder, "config.json"))
        st.write_json(preprocessor, os.path.join(folder, "preprocessor_config.json"))
        x = pp.hf_preprocess(image, 224, mean, std)

    trace = model.double().forward_trace(x)
    for stage in STAGES:
        if stage in trace:
            np.save(os.path.join(folder, "expected", stage + ".npy"),
                    np.ascontiguousarray(trace[stage].float().numpy()))
    print(f"{name}: {naming} layout, D {dim}, {heads} heads, {classes} classes")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    torch.set_num_threads(2)
    image_path = os.path.join(out_dir, "chelsea.png")
    Image.open(os.path.join(ROOT, "assets", "photos", "chelsea.jpg")).convert("RGB").save(image_path)
    for seed, (name, spec) in enumerate(MODELS.items()):
        build(out_dir, name, spec, image_path, seed)


if __name__ == "__main__":
    main()
