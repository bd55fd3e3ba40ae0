#!/usr/bin/env python3
"""Prints the stages the PyTorch reference (tools/vitref) produces for one
model: one line per stage, "id dim dim ...", in order.

Usage: vitref_stages.py IMG PATCH CHANNELS DIM DEPTH HEADS MLP_RATIO CLASSES
(test_stages.cpp runs it and compares the lines with the core's catalogue).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import torch  # noqa: E402

from vitref import VisionTransformer  # noqa: E402

img, patch, chans, dim, depth, heads, mlp_ratio, classes = (int(a) for a in sys.argv[1:9])
model = VisionTransformer(img_size=img, patch_size=patch, in_chans=chans, num_classes=classes,
                          embed_dim=dim, depth=depth, num_heads=heads, mlp_ratio=mlp_ratio).eval()
trace = model.forward_trace(torch.zeros(chans, img, img))
for stage_id, tensor in trace.items():
    print(stage_id, *tensor.shape)
