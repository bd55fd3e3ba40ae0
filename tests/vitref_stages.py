#!/usr/bin/env python3
"""Prints the stages the PyTorch reference (tools/vitref) produces for one
model: one line per stage, "id dim dim ...", in order.

Usage: vitref_stages.py IMG PATCH CHANNELS DIM DEPTH HEADS MLP_RATIO CLASSES
                        [LAYER_SCALE PRE_NORM ACT_LAYER]
(LAYER_SCALE, PRE_NORM: 0 or 1; ACT_LAYER: gelu, quick_gelu, or swiglu for
timm's SwiGLUPacked MLP, whose fc1 is DIM x MLP_RATIO wide; test_stages.cpp
runs it and compares the lines with the core's catalogue).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import torch  # noqa: E402

from vitref import VisionTransformer  # noqa: E402

img, patch, chans, dim, depth, heads, mlp_ratio, classes = (int(a) for a in sys.argv[1:9])
layer_scale, pre_norm, act = (sys.argv[9:12] + ["0", "0", "gelu"][len(sys.argv[9:12]):])
model = VisionTransformer(img_size=img, patch_size=patch, in_chans=chans, num_classes=classes,
                          embed_dim=dim, depth=depth, num_heads=heads, mlp_ratio=mlp_ratio,
                          init_values=1e-5 if layer_scale == "1" else None, pre_norm=pre_norm == "1",
                          act_layer="gelu" if act == "swiglu" else act,
                          mlp_layer="SwiGLUPacked" if act == "swiglu" else "Mlp").eval()
trace = model.forward_trace(torch.zeros(chans, img, img))
for stage_id, tensor in trace.items():
    print(stage_id, *tensor.shape)
