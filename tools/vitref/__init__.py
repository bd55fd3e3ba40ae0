"""vitref: the PyTorch reference for ViT Visualizer.

A Vision Transformer with exactly timm's module names (`model.py`), a
safetensors reader/writer and timm / Hugging Face exporters
(`safetensors_io.py`), and the eval-time image preprocessing the C++ core
mirrors (`preprocess.py`). Only Debian's python3-torch, numpy and PIL are
needed: no timm, no safetensors package.
"""
from .model import VisionTransformer, Interventions, resample_abs_pos_embed, attention_rollout  # noqa: F401
