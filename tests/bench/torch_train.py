"""PyTorch's side of the training benchmark: times one training step
(forward, F.cross_entropy, backward, torch.optim.AdamW step) of a ViT with
timm's layout (tools/vitref): the digits model on a batch of 1×28×28 images or
ViT-Ti/16 on 3×224×224, on the given number of threads (the BLAS and OpenMP
thread counts are pinned before torch loads). Prints one line:
`torch_ms median=… min=… threads=…`. Run by vitviz-bench-train; usable by hand:

    /usr/bin/python3 tests/bench/torch_train.py --model digits --batch 64 --threads 1 --runs 5
"""
import argparse
import os
import statistics
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--model", choices=["digits", "tiny"], required=True)
parser.add_argument("--batch", type=int, required=True)
parser.add_argument("--threads", type=int, required=True)
parser.add_argument("--runs", type=int, default=5)
args = parser.parse_args()
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = str(args.threads)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from vitref.model import VisionTransformer  # noqa: E402


def main():
    torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    if args.model == "digits":
        model = VisionTransformer(img_size=28, patch_size=7, in_chans=1, num_classes=10, embed_dim=64, depth=4,
                                  num_heads=4, mlp_ratio=2.0)
        x = torch.randn(args.batch, 1, 28, 28)
        classes = 10
    else:
        model = VisionTransformer(img_size=224, patch_size=16, embed_dim=192, depth=12, num_heads=3)
        x = torch.randn(args.batch, 3, 224, 224)
        classes = 1000
    y = torch.randint(0, classes, (args.batch,))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
    model.train()

    def step():
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        opt.step()

    step()  # warm-up
    times = []
    for _ in range(args.runs):
        start = time.perf_counter()
        step()
        times.append((time.perf_counter() - start) * 1e3)
    print(f"torch_ms median={statistics.median(times):.3f} min={min(times):.3f} threads={torch.get_num_threads()}")


if __name__ == "__main__":
    main()
