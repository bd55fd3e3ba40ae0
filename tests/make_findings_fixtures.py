#!/usr/bin/python3
"""Writes what the analysis views of core/findings/ should compute, by PyTorch,
for the timm_f32 fixture: tests/fixtures/timm_f32/findings/*.npy.

Run after tests/make_fixtures.py:  /usr/bin/python3 tests/make_findings_fixtures.py
It reads PyTorch's own stages (timm_f32/expected/*.npy) and the patch projection
of timm_f32/model.safetensors, and computes in float64:
  attention_distance.npy  depth × H   mean attention distance in pixels (prefix tokens left out)
  token_norms.npy         depth × T   ‖block{i}.out[t]‖
  sink_scores.npy         depth × H × T  attention column sums
  cls_masks.npy           depth × H × N  DINO's top-mass masks, share 0.6
  pca_rgb.npy             N × 3       last block's patch tokens on 3 components, min-max per component
  pca_fg_rgb.npy          N × 3       DINOv2's two-step form, threshold 0.5 (black background)
  filter_components.npy   8 × C·P·P   principal components of the patch filters
  pca_joint_rgb.npy       3 × N × 3   one PCA over the last block's patch tokens of three inputs
                                      together (the fixture's input, it flipped left-right, it
                                      flipped upside down; the model run on each in float64)
  pca_joint_fg_rgb.npy    3 × N × 3   the same in DINOv2's two-step form (joint threshold, joint second PCA)
PCA signs follow core/findings/pca.h (each component's largest |coordinate| positive);
the test compares colours up to sign anyway.
"""
import json
import os
import sys

import numpy as np
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from vitref import safetensors_io as st  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixtures import timm_fixture_model  # noqa: E402

FIXTURE = os.path.join(ROOT, "tests", "fixtures", "timm_f32")
SHARE = 0.6
THRESHOLD = 0.5
PREFIX = 1  # CLS only in this fixture


def stage(name):
    return torch.from_numpy(np.load(os.path.join(FIXTURE, "expected", name + ".npy"))).double()


def attention_distance(attn, grid, patch):
    ys, xs = torch.meshgrid(torch.arange(grid), torch.arange(grid), indexing="ij")
    cells = torch.stack([ys.flatten(), xs.flatten()], 1).double()
    dist = patch * torch.cdist(cells, cells)
    return (attn[:, PREFIX:, PREFIX:] * dist).sum(-1).mean(-1)


def pca(x, k):
    x = x - x.mean(0)
    _, s, vh = torch.linalg.svd(x, full_matrices=False)
    v = vh[:k].T
    z = x @ v
    at = z.abs().argmax(0)
    sign = torch.sign(z[at, torch.arange(k)])
    return v * sign, z * sign


def min_max(z):
    return (z - z.min(0).values) / (z.max(0).values - z.min(0).values)


def two_step(x):
    _, z = pca(x, 1)
    fg = min_max(z)[:, 0] >= THRESHOLD
    rgb = torch.zeros(x.shape[0], 3, dtype=x.dtype)
    rgb[fg] = min_max(pca(x[fg], 3)[1])
    return rgb


def flipped_inputs():
    """The fixture's input (C × H × W), it flipped left-right and upside down: the inputs of the joint PCA."""
    x = torch.from_numpy(np.load(os.path.join(FIXTURE, "expected", "input.npy"))).double()
    return [x, torch.flip(x, [-1]), torch.flip(x, [-2])]


def joint_colours(xs, colour):
    """`colour` (one- or two-step) of the patch rows of every stage in `xs` stacked, split back per input."""
    rgb = colour(torch.cat([x[PREFIX:] for x in xs]))
    return rgb.reshape(len(xs), -1, 3)


def cls_mask(attn):
    a = attn[:, 0, PREFIX:]
    val, idx = torch.sort(a)
    val /= torch.sum(val, dim=1, keepdim=True)
    keep = torch.cumsum(val, dim=1) > (1 - SHARE)
    return torch.stack([keep[h][torch.argsort(idx[h])] for h in range(a.shape[0])]).double()


def main():
    meta = json.load(open(os.path.join(FIXTURE, "config.json")))["model_args"]
    patch, depth = meta["patch_size"], meta["depth"]
    grid = meta["img_size"] // patch
    attns = [stage(f"block{b}.attn") for b in range(depth)]
    outs = [stage(f"block{b}.out") for b in range(depth)]
    weights, _ = st.load_file(os.path.join(FIXTURE, "model.safetensors"))
    filters = torch.from_numpy(np.asarray(weights["patch_embed.proj.weight"])).double().flatten(1)
    last = outs[-1][PREFIX:]
    result = {
        "attention_distance": torch.stack([attention_distance(a, grid, patch) for a in attns]),
        "token_norms": torch.stack([o.norm(dim=-1) for o in outs]),
        "sink_scores": torch.stack([a.sum(dim=-2) for a in attns]),
        "cls_masks": torch.stack([cls_mask(a) for a in attns]),
        "pca_rgb": min_max(pca(last, 3)[1]),
        "pca_fg_rgb": two_step(last),
        "filter_components": pca(filters, 8)[0].T,
    }
    model = timm_fixture_model(FIXTURE)
    lasts = [model.forward_trace(x)[f"block{depth - 1}.out"] for x in flipped_inputs()]
    result["pca_joint_rgb"] = joint_colours(lasts, lambda x: min_max(pca(x, 3)[1]))
    result["pca_joint_fg_rgb"] = joint_colours(lasts, two_step)
    alone = torch.stack([min_max(pca(x[PREFIX:], 3)[1]) for x in lasts])
    joint = result["pca_joint_rgb"]
    apart = torch.minimum((joint - alone).abs(), (1 - joint - alone).abs()).amax((0, 1)).min()  # up to sign
    print(f"  joint PCA colours differ from each input's own (up to sign) by {apart:.3f}")
    out = os.path.join(FIXTURE, "findings")
    os.makedirs(out, exist_ok=True)
    for name, value in result.items():
        np.save(os.path.join(out, name + ".npy"), np.ascontiguousarray(value.numpy(), dtype=np.float32))
        print(f"  findings/{name}.npy {tuple(value.shape)}")


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
