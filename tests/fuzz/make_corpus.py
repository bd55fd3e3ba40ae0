#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora (tests/fuzz/corpus/<target>/): a few
small valid files of every form each loader reads and a few broken ones, all
made here from the standard library (the images are encoded by hand), plus the
committed fixtures' config files, images and lessons and the built-in lessons
of assets/lessons. Re-run to regenerate; the files are committed."""
import json
import pathlib
import struct
import zlib

HERE = pathlib.Path(__file__).resolve().parent
FIXTURES = HERE.parent / "fixtures"


def write(target, name, data):
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)


# --- safetensors: 8-byte little-endian header length, JSON header, data ----------------
def safetensors(header, data=b""):
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + data


def safetensors_seeds():
    f32 = struct.pack("<4f", 1.0, -2.0, 0.5, 3.0)
    write("safetensors", "f32.safetensors",
          safetensors({"w": {"dtype": "F32", "shape": [2, 2], "data_offsets": [0, 16]}}, f32))
    write("safetensors", "mixed.safetensors", safetensors({
        "__metadata__": {"format": "pt"},
        "a": {"dtype": "F16", "shape": [2], "data_offsets": [0, 4]},
        "b": {"dtype": "BF16", "shape": [1, 2], "data_offsets": [4, 8]},
        "c": {"dtype": "I64", "shape": [1], "data_offsets": [8, 16]},
        "empty": {"dtype": "F32", "shape": [0, 3], "data_offsets": [16, 16]},
        "scalar": {"dtype": "U8", "shape": [], "data_offsets": [16, 17]}},
        bytes([0x00, 0x3C, 0x00, 0xC0, 0x80, 0x3F, 0x00, 0x40]) + struct.pack("<q", 7) + b"\x01"))
    write("safetensors", "overlap.safetensors", safetensors({
        "a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]},
        "b": {"dtype": "F32", "shape": [2], "data_offsets": [4, 12]}}, bytes(12)))
    write("safetensors", "short_data.safetensors",
          safetensors({"w": {"dtype": "F32", "shape": [4], "data_offsets": [0, 16]}}, bytes(8)))
    write("safetensors", "bad_dtype.safetensors",
          safetensors({"w": {"dtype": "F33", "shape": [1], "data_offsets": [0, 4]}}, bytes(4)))
    write("safetensors", "truncated_header.safetensors", struct.pack("<Q", 200) + b'{"w": {"dtype"')
    # A real header (the timm F16 fixture's), its data cut short.
    real = (FIXTURES / "timm_f16_noqkvbias" / "model.safetensors").read_bytes()
    length = struct.unpack("<Q", real[:8])[0]
    write("safetensors", "timm_header_cut.safetensors", real[:8 + length + 256])


# --- checkpoint: first byte picks fuzz_checkpoint.cpp's fixture weights, then config.json -----
CHECKPOINT_FIXTURES = ["timm_reg4", "timm_deit_distilled", "timm_gap_fcnorm", "timm_clip_quickgelu",
                       "timm_dinov2", "timm_avg_cls", "hf_dinov2_reg", "hf_bf16"]


def checkpoint_seeds():
    for i, name in enumerate(CHECKPOINT_FIXTURES):
        config = (FIXTURES / name / "config.json").read_bytes()
        write("checkpoint", name + ".json", bytes([i]) + config)
        stated = json.loads(config)  # the same weights with settings they contradict
        args = stated.setdefault("model_args", {})
        args.update({"qkv_bias": False, "init_values": 0, "no_embed_class": False, "global_pool": ""})
        write("checkpoint", name + "_contradicted.json", bytes([i]) + json.dumps(stated).encode())


# --- config: first byte even = config.json, odd = preprocessor_config.json ------------
def config_seeds():
    for fixture in sorted(FIXTURES.glob("*/config.json")):
        write("config", fixture.parent.name + ".json", b"\x00" + fixture.read_bytes())
    for fixture in sorted(FIXTURES.glob("*/preprocessor_config.json")):
        write("config", "pre_" + fixture.parent.name + ".json", b"\x01" + fixture.read_bytes())
    write("config", "pre_deit.json", b"\x01" + json.dumps({
        "do_center_crop": True, "crop_size": {"height": 224, "width": 224}, "resample": 3,
        "size": {"shortest_edge": 256}, "do_normalize": False}).encode())
    write("config", "pre_convnext.json", b"\x01" + json.dumps({
        "crop_pct": 0.875, "size": {"shortest_edge": 224}, "image_mean": [0.5], "image_std": [0.25]}).encode())
    write("config", "timm_minimal.json", b"\x00" + json.dumps({
        "architecture": "vit_small_patch16_384.augreg_in21k", "label_names": ["a", "b"],
        "pretrained_cfg": {"crop_mode": "squash", "input_size": [1, 28, 28]}}).encode())
    write("config", "broken.json", b'\x00{"hidden_size": 64, "id2label": {"x": 3}, "image_size": [32, 16')


# --- images, encoded by hand ------------------------------------------------------------
def png(width, height, bit_depth, colour_type, rows, palette=None):
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0))
    if palette:
        out += chunk(b"PLTE", palette)
    return out + chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + r for r in rows))) + chunk(b"IEND", b"")


def bmp24(width, height):
    row = bytes((x * 40) % 256 for x in range(width * 3))
    row += bytes((-len(row)) % 4)
    pixels = row * height
    header = struct.pack("<2sIHHI", b"BM", 54 + len(pixels), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    return header + info + pixels


def tga_rgb(width, height):
    header = struct.pack("<BBBHHBHHHHBB", 0, 0, 2, 0, 0, 0, 0, 0, width, height, 24, 0)
    return header + bytes((i * 17) % 256 for i in range(width * height * 3))


def gif_2x2():
    # 2 colours, LZW minimum code size 2: codes are 3 bits; a clear code after
    # every two pixels keeps them at 3 bits. Codes: clear 0 1 clear 1 0 end.
    codes, bits, value = [4, 0, 1, 4, 1, 0, 5], 0, 0
    for i, code in enumerate(codes):
        value |= code << (3 * i)
        bits += 3
    data = value.to_bytes((bits + 7) // 8, "little")
    return (b"GIF89a" + struct.pack("<HHBBB", 2, 2, 0x80, 0, 0) + bytes([0, 0, 0, 255, 255, 255]) +
            b"\x2c" + struct.pack("<HHHHB", 0, 0, 2, 2, 0) + b"\x02" + bytes([len(data)]) + data + b"\x00\x3b")


def jpeg_flat(width, height, components, sampling):
    # Baseline JPEG, every block flat (DC difference 0, then end of block):
    # one-symbol Huffman tables make each block two '0' bits.
    def segment(marker, body):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(body) + 2) + body
    out = b"\xff\xd8" + segment(0xDB, b"\x00" + bytes([1] * 64))
    sof = struct.pack(">BHHB", 8, height, width, components)
    for c in range(components):
        sof += bytes([c + 1, sampling if c == 0 else 0x11, 0])
    out += segment(0xC0, sof)
    one_symbol = bytes([1] + [0] * 15) + b"\x00"
    out += segment(0xC4, b"\x00" + one_symbol) + segment(0xC4, b"\x10" + one_symbol)
    out += segment(0xDA, bytes([components]) + b"".join(bytes([c + 1, 0x00]) for c in range(components)) +
                   b"\x00\x3f\x00")
    h, v = sampling >> 4, sampling & 15
    mcus = -(-width // (8 * h)) * -(-height // (8 * v))
    blocks = mcus * (h * v + components - 1)
    bits = 2 * blocks
    out += b"\x00" * (bits // 8) + (bytes([(1 << (8 - bits % 8)) - 1]) if bits % 8 else b"")
    return out + b"\xff\xd9"


def image_seeds():
    for fixture in ["digits_sample", "headless"]:
        write("image", fixture + ".png", b"\x00" + (FIXTURES / fixture / "image.png").read_bytes())
    grey = [bytes((x * 60 + y * 20) % 256 for x in range(4)) for y in range(3)]
    write("image", "grey8.png", b"\x01" + png(4, 3, 8, 0, grey))
    rgba16 = [b"".join(struct.pack(">4H", x * 9000, y * 20000, 30000, 65535 - x) for x in range(3)) for y in range(2)]
    write("image", "rgba16.png", b"\x00" + png(3, 2, 16, 6, rgba16))
    write("image", "palette.png", b"\x00" + png(4, 2, 2, 3, [b"\x1b", b"\xe4"], bytes(range(12))))
    write("image", "grey_alpha.png", b"\x01" + png(2, 2, 8, 4, [b"\x10\xff\x80\x40", b"\xff\x00\x00\xff"]))
    write("image", "bad_crc.png", b"\x00" + png(4, 3, 8, 0, grey)[:-4] + b"\x00\x00\x00\x00")  # IEND's CRC
    write("image", "rgb.bmp", b"\x00" + bmp24(5, 3))
    write("image", "rgb.tga", b"\x01" + tga_rgb(4, 2))
    write("image", "two.gif", b"\x00" + gif_2x2())
    write("image", "grey.jpg", b"\x01" + jpeg_flat(8, 8, 1, 0x11))
    write("image", "ycc420.jpg", b"\x00" + jpeg_flat(20, 12, 3, 0x22))
    write("image", "progressive.jpg", b"\x00" + (FIXTURES / "progressive.jpg").read_bytes())
    write("image", "rgb.ppm", b"\x00" + b"P6\n3 2\n255\n" + bytes(range(0, 18 * 14, 14)))
    write("image", "truncated.png", b"\x00" + png(4, 3, 8, 0, grey)[:40])


# --- lesson: the built-in lessons, the editor's fixture, and a few broken ones -------------
def lesson_seeds():
    for lesson in sorted((HERE.parent.parent / "assets" / "lessons").glob("*.json")):
        write("lesson", lesson.name, lesson.read_bytes())
    for lesson in sorted((FIXTURES / "lessons").glob("*.json")):
        write("lesson", "fixture_" + lesson.name, lesson.read_bytes())
    write("lesson", "broken.json", b'{"title": "x", "steps": [{"title": "a", "highlight": {"cell": [1, 2')
    write("lesson", "train.json", json.dumps({"steps": [
        {"title": "a", "train": {"epochs": 2, "until_step": 3, "seed": 1, "window": True}},
        {"title": "b", "highlight": {"row": 2}, "interventions": {"mask_patches": "1-3", "temperature": 0.5}}]}).encode())


if __name__ == "__main__":
    safetensors_seeds()
    config_seeds()
    checkpoint_seeds()
    image_seeds()
    lesson_seeds()
