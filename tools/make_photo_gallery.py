"""Writes assets/photos/*.jpg, the photo gallery for the real ImageNet
checkpoints, from scikit-image's freely licensed sample images (Debian's
python3-skimage). Licences and credits: assets/photos/CREDITS.md.

    /usr/bin/python3 tools/make_photo_gallery.py
"""
import os

import PIL.Image
import skimage.data

PHOTOS = ["chelsea", "coffee", "astronaut", "rocket"]


def main():
    out_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "photos")
    os.makedirs(out_dir, exist_ok=True)
    for name in PHOTOS:
        PIL.Image.fromarray(getattr(skimage.data, name)()).save(os.path.join(out_dir, name + ".jpg"), quality=90)


if __name__ == "__main__":
    main()
