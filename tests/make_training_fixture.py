#!/usr/bin/python3
"""Writes tests/fixtures/training/: what PyTorch computes for the training
pieces of core/train/training.h, for tests/core/train/test_training.cpp.

- AdamW: torch.optim.AdamW (lr 0.01, betas (0.9, 0.999), eps 1e-8) on a 6×5
  matrix with weight decay 0.05 and a 7-vector without (two param groups, as
  the core decays matrices only), three steps with the gradients
  adamw_grad{s}_{matrix,vector}.npy (s = 1..3) →
  adamw_after_{matrix,vector}.npy from adamw_start_{matrix,vector}.npy.
- Cross-entropy: F.cross_entropy (mean over the batch) of ce_logits.npy (8×10)
  with ce_labels.npy (float32 class indices) → ce_loss.npy (1) and its
  gradient ce_grad.npy (8×10).

    /usr/bin/python3 tests/make_training_fixture.py
"""
import os

import numpy as np
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "training")
LR, BETAS, EPS, WD = 0.01, (0.9, 0.999), 1e-8, 0.05


def save(name, t):
    np.save(os.path.join(OUT, name + ".npy"), np.ascontiguousarray(t.detach().numpy().astype(np.float32)))


def main():
    os.makedirs(OUT, exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    params = {"matrix": torch.randn(6, 5), "vector": torch.randn(7)}
    for name, p in params.items():
        save(f"adamw_start_{name}", p)
    live = {n: p.clone().requires_grad_(True) for n, p in params.items()}
    opt = torch.optim.AdamW([{"params": [live["matrix"]], "weight_decay": WD},
                             {"params": [live["vector"]], "weight_decay": 0.0}], lr=LR, betas=BETAS, eps=EPS)
    for step in range(1, 4):
        for name, p in live.items():
            g = torch.randn(p.shape) * (0.1 if step == 2 else 1.0)
            save(f"adamw_grad{step}_{name}", g)
            p.grad = g
        opt.step()
    for name, p in live.items():
        save(f"adamw_after_{name}", p)

    logits = (torch.randn(8, 10) * 3).requires_grad_(True)
    labels = torch.randint(0, 10, (8,))
    loss = F.cross_entropy(logits, labels)
    loss.backward()
    save("ce_logits", logits)
    save("ce_labels", labels.float())
    save("ce_loss", loss.reshape(1))
    save("ce_grad", logits.grad)


if __name__ == "__main__":
    main()
