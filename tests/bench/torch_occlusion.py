"""PyTorch's side of the occlusion benchmark: the N masked inputs (each with
one patch set to 0) as one batch through a ViT with timm's layout
(tools/vitref), in eval mode under inference_mode, on the given number of
threads; times the batch's forward. Prints `torch_ms median=… min=… threads=…`.
Run by vitviz-bench-occlusion; by hand:

    /usr/bin/python3 tests/bench/torch_occlusion.py --model digits --threads 1 --runs 5

The thread count is pinned in the environment (OMP/OpenBLAS/MKL) before torch
loads, so a 1-thread figure is one thread.
"""
import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SIZES = {"tiny": (192, 3), "base": (768, 12)}


def build(name, torch, VisionTransformer, st):
    if name == "digits":
        d = os.path.join(ROOT, "assets", "digits")
        a = json.load(open(os.path.join(d, "config.json")))["model_args"]
        m = VisionTransformer(img_size=a["img_size"], patch_size=a["patch_size"], in_chans=a["in_chans"],
                              num_classes=a["num_classes"], embed_dim=a["embed_dim"], depth=a["depth"],
                              num_heads=a["num_heads"], mlp_ratio=a["mlp_ratio"], qkv_bias=a["qkv_bias"])
        st.load_timm_into(m, os.path.join(d, "model.safetensors"))
        return m.eval(), torch.randn(a["in_chans"], a["img_size"], a["img_size"])
    dim, heads = SIZES[name]
    torch.manual_seed(0)
    m = VisionTransformer(img_size=224, patch_size=16, embed_dim=dim, depth=12, num_heads=heads).eval()
    return m, torch.randn(3, 224, 224)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", choices=["digits"] + sorted(SIZES), required=True)
    parser.add_argument("--threads", type=int, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    sys.path.insert(0, os.path.join(ROOT, "tools"))
    import torch
    from vitref import safetensors_io as st
    from vitref.model import VisionTransformer, mask_patches

    torch.set_num_threads(args.threads)
    model, x = build(args.model, torch, VisionTransformer, st)
    P = model.patch_size
    n = (x.shape[-1] // P) ** 2
    times = []
    with torch.inference_mode():
        for run in range(args.runs + 1):  # the first is a warm-up
            start = time.perf_counter()
            batch = torch.stack([mask_patches(x[None], [i], P)[0] for i in range(n)])
            model(batch).softmax(dim=-1)
            if run:
                times.append((time.perf_counter() - start) * 1e3)
    print(f"torch_ms median={statistics.median(times):.3f} min={min(times):.3f} threads={torch.get_num_threads()}")


if __name__ == "__main__":
    main()
