"""PyTorch's side of the forward benchmark: times model(x) of a random-weight
ViT with timm's layout (tools/vitref) on one 224×224 image, in eval mode under
inference_mode, on the given number of threads. Prints one line:
`torch_ms median=… min=… threads=…`. Run by vitviz-bench (a fresh process per case);
usable by hand:

    /usr/bin/python3 tests/bench/torch_forward.py --model base --threads 2 --runs 10

`--onnx PATH` writes the same model (the same random weights) as ONNX instead,
for ONNX Runtime's side (tests/bench/ort_forward.js), and times nothing.

With all the machine's cores, PyTorch runs as a user runs it: its defaults.
With fewer, every thread pool is pinned in the environment before numpy or
torch load (torch.set_num_threads alone leaves a pthread OpenBLAS, which
Debian's libblas.so.3 may be, on every core).
"""
import argparse
import os
import statistics
import sys
import time

SIZES = {"tiny": (192, 3), "base": (768, 12)}
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=sorted(SIZES), required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--onnx", help="write the model as ONNX to this path instead of timing it")
    args = parser.parse_args()

    pinned = args.threads < os.cpu_count()
    if pinned:
        for name in THREAD_VARIABLES:
            os.environ[name] = str(args.threads)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
    import torch
    from vitref.model import VisionTransformer

    if pinned:
        torch.set_num_threads(args.threads)
    torch.manual_seed(0)
    dim, heads = SIZES[args.model]
    model = VisionTransformer(img_size=224, patch_size=16, embed_dim=dim, depth=12, num_heads=heads).eval()
    x = torch.randn(1, 3, 224, 224)
    if args.onnx:
        torch.onnx.export(model, x, args.onnx, input_names=["image"], output_names=["logits"], opset_version=17)
        return
    times = []
    with torch.inference_mode():
        model(x)  # warm-up
        for _ in range(args.runs):
            start = time.perf_counter()
            model(x)
            times.append((time.perf_counter() - start) * 1e3)
    print(f"torch_ms median={statistics.median(times):.3f} min={min(times):.3f} threads={torch.get_num_threads()}")


if __name__ == "__main__":
    main()
