#!/usr/bin/python3
"""Writes assets/imagenet_labels.txt: the 1000 ImageNet-1k class names, one a
line, in class-index order (line i+1 = class i).

Credit: the names are `_IMAGENET_CATEGORIES` from torchvision
(torchvision/models/_meta.py, BSD-3-Clause, Debian's python3-torchvision).

Run: /usr/bin/python3 tools/make_imagenet_labels.py
"""
import os

from torchvision.models._meta import _IMAGENET_CATEGORIES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    names = list(_IMAGENET_CATEGORIES)
    assert len(names) == 1000, len(names)
    for n in names:
        assert "\n" not in n and n.strip() == n, repr(n)
    path = os.path.join(ROOT, "assets", "imagenet_labels.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(names) + "\n")
    print(f"wrote {path}: {len(names)} labels")


if __name__ == "__main__":
    main()
