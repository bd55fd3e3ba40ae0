"""PyTorch's side of the forward benchmark: times model(x) of a random-weight
ViT with timm's layout (tools/vitref) on one 224×224 image, in eval mode under
inference_mode, on the given number of threads. Prints one line:
`torch_ms median=… min=…`. Run by vitviz-bench; usable by hand:

    /usr/bin/python3 tests/bench/torch_forward.py --model base --threads 2 --runs 10
"""
import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))

import torch  # noqa: E402

from vitref.model import VisionTransformer  # noqa: E402

SIZES = {"tiny": (192, 3), "base": (768, 12)}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=sorted(SIZES), required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    dim, heads = SIZES[args.model]
    model = VisionTransformer(img_size=224, patch_size=16, embed_dim=dim, depth=12, num_heads=heads).eval()
    x = torch.randn(1, 3, 224, 224)
    times = []
    with torch.inference_mode():
        model(x)  # warm-up
        for _ in range(args.runs):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    print(f"torch_ms median={statistics.median(times):.3f} min={min(times):.3f}")


if __name__ == "__main__":
    main()
