"""The eval-time preprocessing the C++ core (core/formats/image.cpp) mirrors, in float.

timm (resolve_data_config + transforms_factory eval transform), done in float
instead of on PIL uint8:
  PIL decode -> RGB (or L for 1 channel) -> float in [0,1] (uint8/255)
  -> resize shorter side to floor(S / crop_pct) keeping aspect ratio, the other
     side int(size * long / short) as torchvision, with
     F.interpolate(mode=bicubic|bilinear, antialias=True, align_corners=False)
  -> centre crop S×S (torchvision: top = int(round((h - S) / 2.0)))
  -> (x - mean) / std.
Hugging Face ViTImageProcessor: resize straight to S×S (bilinear, antialias),
rescale 1/255, normalise; no crop.
"""
import math

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image


def load_image(path, channels=3, dtype=torch.float64):
    img = Image.open(path)
    img = img.convert("L" if channels == 1 else "RGB")
    a = np.asarray(img, dtype=np.float64) / 255.0
    if a.ndim == 2:
        a = a[None]
    else:
        a = a.transpose(2, 0, 1)
    return torch.from_numpy(np.ascontiguousarray(a)).to(dtype)  # (C, H, W)


def resize(x, h, w, interpolation):
    """x: (C, H, W) float -> (C, h, w), antialiased (PIL-like filters; bicubic a = -0.5)."""
    return F.interpolate(x[None], size=(h, w), mode=interpolation, antialias=True,
                         align_corners=False)[0]


def center_crop(x, h, w):
    H, W = x.shape[-2:]
    top = int(round((H - h) / 2.0))
    left = int(round((W - w) / 2.0))
    return x[:, top:top + h, left:left + w]


def timm_resize_size(H, W, scale):
    """torchvision Resize(int): shorter side -> scale, longer int(scale * long / short)."""
    if H <= W:
        return scale, int(scale * W / H)
    return int(scale * H / W), scale


def timm_preprocess(x, image_size, crop_pct, interpolation, mean, std):
    scale = math.floor(image_size / crop_pct)
    H, W = x.shape[-2:]
    h, w = timm_resize_size(H, W, scale)
    if (h, w) != (H, W):
        x = resize(x, h, w, interpolation)
    x = center_crop(x, image_size, image_size)
    m = torch.tensor(mean, dtype=x.dtype)[:, None, None]
    s = torch.tensor(std, dtype=x.dtype)[:, None, None]
    return (x - m) / s


def hf_preprocess(x, image_size, mean, std, interpolation="bilinear"):
    H, W = x.shape[-2:]
    if (H, W) != (image_size, image_size):
        x = resize(x, image_size, image_size, interpolation)
    m = torch.tensor(mean, dtype=x.dtype)[:, None, None]
    s = torch.tensor(std, dtype=x.dtype)[:, None, None]
    return (x - m) / s
