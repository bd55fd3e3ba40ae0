#!/usr/bin/python3
"""Writes the reference fixtures the C++ tests compare against.

Run from anywhere:  /usr/bin/python3 tests/make_fixtures.py
Deterministic (fixed seeds, one thread): re-running reproduces the files.

For each fixture, tests/fixtures/<name>/ holds
  model.safetensors   random ViT weights (timm or Hugging Face key names)
  config.json         timm form or HF form (+ preprocessor_config.json for HF)
  image.png           a small picture (from skimage's bundled images)
  expected/<stage id>.npy   float32, C order, every stage of docs/DESIGN.md#stage-catalogue
  expected/meta.json  what the C++ side needs to reproduce them (image_size, ...)
  expected/grad.<stage id>.npy, grad.param.<timm name>.npy, relevance.npy
                      (models with a head) the gradients of logit[grad_class]
                      (the top class) by autograd, and Chefer et al.'s relevance

The model is built in float32 (tools/vitref), its weights are rounded to the
dtype the file stores (F16/BF16), and the expected tensors are computed in
float64 from those rounded weights and the float64 preprocessed image, then
stored as float32.
"""
import json
import os
import shutil
import sys

import numpy as np
import torch
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools"))

from vitref import Interventions, VisionTransformer  # noqa: E402
from vitref import hf_dinov2  # noqa: E402
from vitref import preprocess as pp  # noqa: E402
from vitref import safetensors_io as st  # noqa: E402

OUT = os.path.join(ROOT, "tests", "fixtures")
IMAGENET_MEAN = [0.485, 0.456, 0.406]
IMAGENET_STD = [0.229, 0.224, 0.225]


def make_image(path, source, h, w, grey=False, previous=None):
    """A small picture from skimage's bundled data, resized with PIL (LANCZOS).
    Without skimage, the fixture's previous image bytes (`previous`) are kept."""
    try:
        from skimage import data
    except ImportError:
        if previous is None:
            raise
        print(f"  (no skimage: keeping the committed {os.path.basename(os.path.dirname(path))}/image.png)")
        with open(path, "wb") as f:
            f.write(previous)
        return
    a = getattr(data, source)()
    img = Image.fromarray(a).convert("L" if grey else "RGB")
    img = img.resize((w, h), Image.LANCZOS)
    img.save(path, optimize=False)


def build(seed, **kw):
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    m = VisionTransformer(**kw).eval()
    m.init_random(g)
    return m


def write_expected(d, trace, meta):
    ed = os.path.join(d, "expected")
    os.makedirs(ed)
    for k, v in trace.items():
        np.save(os.path.join(ed, k + ".npy"), np.ascontiguousarray(v.detach().numpy().astype(np.float32)))
    meta = dict(meta)
    meta["stages"] = list(trace.keys())
    meta["shapes"] = {k: list(v.shape) for k, v in trace.items()}
    st.write_json(meta, os.path.join(ed, "meta.json"))


def write_gradients(d, model, x, cls):
    """expected/grad.<stage>.npy, grad.param.<timm name>.npy and relevance.npy for
    logit[cls] by autograd in float64; meta.json gains grad_class and the lists."""
    stages, params, rel = model.gradient_trace(x, cls)
    ed = os.path.join(d, "expected")
    grads = [("grad." + k, v) for k, v in stages.items()] + [("grad.param." + k, v) for k, v in params.items()]
    for k, v in grads + [("relevance", rel)]:
        np.save(os.path.join(ed, k + ".npy"), np.ascontiguousarray(v.detach().numpy().astype(np.float32)))
    path = os.path.join(ed, "meta.json")
    meta = json.load(open(path))
    meta["grad_class"] = cls
    meta["grad_stages"] = list(stages.keys())
    meta["grad_params"] = list(params.keys())
    st.write_json(meta, path)


def check_roundtrip(model, path, naming, dtype):
    """The file reloads to exactly the (rounded) weights the expected tensors used."""
    tensors, _ = st.load_file(path)
    ref = st.timm_state_dict(model) if naming == "timm" else st.hf_state_dict(model)
    assert sorted(tensors) == sorted(ref), (sorted(tensors), sorted(ref))
    for k, v in ref.items():
        assert np.array_equal(tensors[k], v.float().numpy()), k


def fixture(name, *, seed, model_kw, dtype, naming, image, img_size, run_size=None,
            crop_pct=0.875, interpolation="bicubic", mean=IMAGENET_MEAN, std=IMAGENET_STD,
            labels=None, architecture="vit_test", hf_size_as_int=False, variant=None, eps=None,
            model_args=None, tag=None, image_from=None, token_args=None):
    """One fixture folder. `variant`: timm's init_values / pre_norm / act_layer
    (tools/vitref); `model_args`: the config's model_args instead of every size
    (a published timm model's form: the architecture name says the rest);
    `token_args`: timm's token and pooling kwargs (reg_tokens, no_embed_class,
    class_token, global_pool, fc_norm; distilled for DeiT);
    `image_from`: the fixture whose image.png stands in when this one has none
    yet and skimage is missing (`image` must then name that picture and size)."""
    d = os.path.join(OUT, name)
    previous_image = None
    own = os.path.join(d, "image.png")
    for path in (own, os.path.join(OUT, image_from or name, "image.png")):
        if previous_image is None and os.path.isfile(path):
            with open(path, "rb") as f:
                previous_image = f.read()
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    eps = eps or (1e-12 if naming == "hf" else 1e-6)
    m = build(seed, img_size=img_size, eps=eps, **model_kw, **(token_args or {}), **(variant or {}))
    st.round_model_(m, dtype)
    sd = st.timm_state_dict(m) if naming == "timm" else st.hf_state_dict(m)
    path = os.path.join(d, "model.safetensors")
    st.save_file(sd, path, dtype=dtype, metadata={"format": "pt"})
    check_roundtrip(m, path, naming, dtype)

    C = model_kw.get("in_chans", 3)
    if naming == "timm":
        cfg = st.timm_config(m, architecture, img_size, mean, std, crop_pct=crop_pct,
                             interpolation=interpolation, label_names=labels,
                             mlp_ratio=model_kw.get("mlp_ratio", 4.0),
                             qkv_bias=model_kw.get("qkv_bias", True), tag=tag, model_args=model_args,
                             token_args={k: v for k, v in (token_args or {}).items() if k != "distilled"})
        st.write_json(cfg, os.path.join(d, "config.json"))
    else:
        cfg, pre = st.hf_config(m, img_size, id2label=labels, layer_norm_eps=eps,
                                size_as_int=hf_size_as_int)
        st.write_json(cfg, os.path.join(d, "config.json"))
        st.write_json(pre, os.path.join(d, "preprocessor_config.json"))

    src, ih, iw, grey = image
    ipath = os.path.join(d, "image.png")
    if image_from:
        with open(ipath, "wb") as f:
            f.write(previous_image)
    else:
        make_image(ipath, src, ih, iw, grey, previous_image)

    S = run_size or img_size
    x = pp.load_image(ipath, channels=C)
    meta = {"fixture": name, "naming": naming, "dtype": dtype, "ln_eps": eps,
            "image_size": S, "model_img_size": img_size, "source_image_hw": [ih, iw],
            "source_image_mode": "L" if grey else "RGB", "channels": C}
    if naming == "timm":
        x = pp.timm_preprocess(x, S, crop_pct, interpolation, mean, std)
        scale = int(np.floor(S / crop_pct))
        rh, rw = pp.timm_resize_size(ih, iw, scale)
        meta.update({"preprocess": "timm", "crop_pct": crop_pct, "interpolation": interpolation,
                     "resize_hw": [rh, rw],
                     "crop_top_left": [int(round((rh - S) / 2.0)), int(round((rw - S) / 2.0))],
                     "mean": list(mean), "std": list(std)})
    else:
        x = pp.hf_preprocess(x, S, [0.5] * C, [0.5] * C, "bilinear")
        meta.update({"preprocess": "hf", "interpolation": "bilinear", "resize_hw": [S, S],
                     "mean": [0.5] * C, "std": [0.5] * C})

    md = m.double()
    trace = md.forward_trace(x)
    # sanity: patch embedding equals the stride-P convolution; forward() agrees
    conv = md.patch_embed(x[None])[0]
    assert torch.allclose(conv, trace["patch_embed"], atol=1e-12)
    if m.num_classes > 0:
        assert torch.allclose(md(x[None])[0], trace["logits"], atol=1e-12)
        meta["top1"] = int(trace["logits"].argmax())
    a0 = trace["block0.attn"]
    meta["block0_attn_max_mean"] = round(float(a0.max(dim=-1).values.mean()), 6)
    write_expected(d, trace, meta)
    if m.num_classes > 0 and not token_args:  # the backward pass follows the plain layout only
        write_gradients(d, md, x, meta["top1"])
    print(f"{name}: {dtype} {naming} T={trace['tokens'].shape[0]} D={trace['tokens'].shape[1]} "
          f"stages={len(trace)} attn row max mean={meta['block0_attn_max_mean']:.3f}")


def token_fixtures():
    """timm's token layouts (random weights, timm key names and config.json):
    registers with positions on the patch grid only (vit_small_patch14_reg4_dinov2's
    reg_tokens=4, no_embed_class=True), no class token with average pooling
    (vit_medium_patch16_gap_256-like, here with fc_norm), average pooling beside
    a CLS token with fc_norm, and DeiT distilled (dist_token, head_dist)."""
    small = dict(patch_size=8, in_chans=3, embed_dim=48, depth=2, num_heads=3, mlp_ratio=2.0, qkv_bias=True)
    fixture("timm_reg4", seed=6, dtype="F32", naming="timm", model_kw=dict(small, num_classes=6),
            token_args=dict(reg_tokens=4, no_embed_class=True),
            img_size=32, crop_pct=1.0, image=("chelsea", 40, 52, False), image_from="timm_f32", architecture="vit_test_patch8_reg4_32")
    fixture("timm_gap_fcnorm", seed=7, dtype="F32", naming="timm", model_kw=dict(small, num_classes=6),
            token_args=dict(class_token=False, global_pool="avg", fc_norm=True),
            img_size=32, crop_pct=1.0, image=("astronaut", 36, 28, False), image_from="hf_bf16", architecture="vit_test_patch8_gap_32")
    fixture("timm_avg_cls", seed=8, dtype="F32", naming="timm", model_kw=dict(small, num_classes=6),
            token_args=dict(global_pool="avg"),
            img_size=32, crop_pct=1.0, image=("coffee", 64, 64, False), image_from="timm_f16_noqkvbias",
            architecture="vit_test_patch8_32")
    fixture("timm_deit_distilled", seed=9, dtype="F32", naming="timm", model_kw=dict(small, num_classes=6),
            token_args=dict(distilled=True),
            img_size=32, crop_pct=1.0, image=("chelsea", 40, 52, False), image_from="timm_f32",
            architecture="deit_test_distilled_patch8_32")


OPENAI_CLIP_MEAN = [0.48145466, 0.4578275, 0.40821073]  # timm.data.constants
OPENAI_CLIP_STD = [0.26862954, 0.26130258, 0.27577711]


def variant_fixtures():
    """timm's DINOv2 and CLIP towers, tiny, with their published names: the
    config carries only img_size and num_classes in model_args, so LayerScale,
    norm_pre, the eps and the activation must come from the architecture name
    (timm's vit_small_patch14_dinov2: init_values=1e-5; vit_base_patch16_clip_224:
    pre_norm=True, norm_layer=nn.LayerNorm; ..._clip_quickgelu_224: act_layer='quick_gelu')."""
    # DINOv2: patch 14, 6 heads (small), positions for 84 px (6x6) resampled to 56 px (4x4):
    # bicubic with antialias, as timm's resample_abs_pos_embed when it loads the weights at another size
    fixture("timm_dinov2", seed=6, dtype="F32", naming="timm",
            model_kw=dict(patch_size=14, in_chans=3, num_classes=5, embed_dim=24, depth=2,
                          num_heads=6, mlp_ratio=4.0, qkv_bias=True),
            variant=dict(init_values=1e-5), img_size=84, run_size=56, crop_pct=1.0,
            interpolation="bicubic", image=("chelsea", 40, 52, False), image_from="timm_f32",
            architecture="vit_small_patch14_dinov2", tag="lvd142m",
            model_args={"img_size": 84, "num_classes": 5})
    # DINOv2 ViT-g's SwiGLU MLP: the name says it (timm's vit_giant_patch14_dinov2 sets
    # mlp_layer=SwiGLUPacked, mlp_ratio=2.66667 * 2); fc1 32 -> 170, halves of 85, fc2 85 -> 32
    fixture("timm_dinov2_swiglu", seed=9, dtype="F32", naming="timm",
            model_kw=dict(patch_size=14, in_chans=3, num_classes=5, embed_dim=32, depth=2,
                          num_heads=4, mlp_ratio=2.66667 * 2, qkv_bias=True),
            variant=dict(init_values=1e-5, mlp_layer="SwiGLUPacked"), img_size=56, crop_pct=1.0,
            interpolation="bicubic", image=("coffee", 64, 64, False), image_from="timm_f16_noqkvbias",
            architecture="vit_giant_patch14_dinov2", tag="lvd142m",
            model_args={"img_size": 56, "num_classes": 5, "num_heads": 4})
    for name, arch, act, seed in (("timm_clip", "vit_base_patch16_clip_224", "gelu", 7),
                                  ("timm_clip_quickgelu", "vit_base_patch16_clip_quickgelu_224", "quick_gelu", 8)):
        fixture(name, seed=seed, dtype="F32", naming="timm",
                model_kw=dict(patch_size=16, in_chans=3, num_classes=6, embed_dim=24, depth=2,
                              num_heads=12, mlp_ratio=4.0, qkv_bias=True),
                variant=dict(pre_norm=True, act_layer=act), eps=1e-5, img_size=64, crop_pct=0.9,
                interpolation="bicubic", mean=OPENAI_CLIP_MEAN, std=OPENAI_CLIP_STD,
                image=("astronaut", 60, 70, False), image_from="timm_posinterp", architecture=arch, tag="openai",
                model_args={"img_size": 64, "num_classes": 6})


def hf_dinov2_fixture(name="hf_dinov2", seed=10, model_class=hf_dinov2.HfDinov2, prefix="dinov2.", **model_kw):
    """`hf_dinov2`: transformers' Dinov2ForImageClassification (tools/vitref/hf_dinov2.py),
    tiny, in its own key names with config.json (model_type "dinov2") and BitImageProcessor's
    preprocessor_config.json; positions trained for 84 px (6x6 patches of 14) and run
    at the processor's 56 px crop (4x4), so transformers' interpolation runs.
    `hf_dinov2_reg`: the same for Dinov2WithRegistersForImageClassification
    (model_class HfDinov2Registers, key prefix "dinov2_with_registers.");
    `hf_dinov2_swiglu`: Dinov2ForImageClassification with use_swiglu_ffn (ViT-g's MLP)."""
    S, shortest = 56, 64
    d = os.path.join(OUT, name)
    previous_image = open(os.path.join(OUT, "timm_f32", "image.png"), "rb").read()
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    g = torch.Generator().manual_seed(seed)
    torch.manual_seed(seed)
    m = model_class(num_classes=5, embed_dim=24, img_size=84, patch_size=14, in_chans=3, depth=2,
                    num_heads=6, mlp_ratio=4.0, qkv_bias=True, eps=1e-6, **model_kw).eval()
    m.init_random(g)
    path = os.path.join(d, "model.safetensors")
    st.save_file(hf_dinov2.hf_dinov2_state_dict(m, prefix), path, dtype="F32", metadata={"format": "pt"})
    labels = ["tabby cat", "coffee mug", "astronaut", "rocket", "moon"]
    cfg, pre = hf_dinov2.hf_dinov2_config(m, 84, shortest, S, IMAGENET_MEAN, IMAGENET_STD, id2label=labels)
    st.write_json(cfg, os.path.join(d, "config.json"))
    st.write_json(pre, os.path.join(d, "preprocessor_config.json"))
    with open(os.path.join(d, "image.png"), "wb") as f:
        f.write(previous_image)
    x = pp.timm_preprocess(pp.load_image(os.path.join(d, "image.png")), S, S / shortest, "bicubic",
                           IMAGENET_MEAN, IMAGENET_STD)  # BitImageProcessor: shortest edge, centre crop
    md = m.double()
    trace = md.forward_trace(x)
    assert torch.allclose(md(x[None])[0], trace["logits"], atol=1e-12)
    write_expected(d, trace, {"fixture": name, "naming": "hf_dinov2", "dtype": "F32", "ln_eps": 1e-6,
                              "image_size": S, "model_img_size": 84, "channels": 3,
                              "top1": int(trace["logits"].argmax())})
    print(f"{name}: T={trace['tokens'].shape[0]} stages={len(trace)} top1={int(trace['logits'].argmax())}")


def digits_fixture():
    """`digits_sample`: the shipped digits model (assets/digits, not copied) on one of
    its held-out sample PNGs: checks the 1-channel path and the shipped weights."""
    mdir = os.path.join(ROOT, "assets", "digits")
    sdir = os.path.join(mdir, "samples")
    if not os.path.isfile(os.path.join(mdir, "model.safetensors")) or not os.path.isdir(sdir):
        print("digits_sample: skipped (no assets/digits yet: run tools/train_digits.py)")
        return
    cfg = json.load(open(os.path.join(mdir, "config.json")))
    a, pc = cfg["model_args"], cfg["pretrained_cfg"]
    m = VisionTransformer(img_size=a["img_size"], patch_size=a["patch_size"], in_chans=a["in_chans"],
                          num_classes=a["num_classes"], embed_dim=a["embed_dim"], depth=a["depth"],
                          num_heads=a["num_heads"], mlp_ratio=a["mlp_ratio"], qkv_bias=a["qkv_bias"]).eval()
    st.load_timm_into(m, os.path.join(mdir, "model.safetensors"))
    sample = sorted(f for f in os.listdir(sdir) if f.endswith("-7.png"))[0]
    d = os.path.join(OUT, "digits_sample")
    if os.path.exists(d):
        shutil.rmtree(d)
    os.makedirs(d)
    shutil.copyfile(os.path.join(sdir, sample), os.path.join(d, "image.png"))
    S = pc["input_size"][1]
    x = pp.load_image(os.path.join(d, "image.png"), channels=1)
    x = pp.timm_preprocess(x, S, pc["crop_pct"], pc["interpolation"], pc["mean"], pc["std"])
    trace = m.double().forward_trace(x)
    label = int(sample.split("-")[1].split(".")[0])
    top1 = int(trace["logits"].argmax())
    write_expected(d, trace, {"fixture": "digits_sample", "model_dir": "assets/digits",
                              "sample": sample, "label": label, "top1": top1, "naming": "timm",
                              "dtype": "F32", "ln_eps": 1e-6, "image_size": S, "channels": 1,
                              "preprocess": "timm", "crop_pct": pc["crop_pct"],
                              "interpolation": pc["interpolation"], "mean": pc["mean"], "std": pc["std"]})
    print(f"digits_sample: {sample} label {label} top1 {top1} p={float(trace['probs'][top1]):.3f}")


# Interventions on timm_f32 (4×4 patches, 3 heads, 2 blocks): each alone and
# all together. Keys as the C++ Interventions (core/pass/interventions.h).
INTERVENTION_CASES = {
    "mask": dict(mask=[0, 5, 6, 15]),
    "drop": dict(drop=[1, 2, 3, 8, 12]),
    "ablate": dict(ablate=[[0, 1], [1, 0], [1, 2]]),
    "no_pos": dict(no_pos=True),
    "permute": dict(permute=[3, 7, 0, 12, 5, 9, 14, 1, 10, 2, 15, 6, 11, 4, 13, 8]),
    "temperature": dict(temperature=2.5),
    "combined": dict(mask=[4, 9], drop=[0, 10, 11], ablate=[[1, 1]], no_pos=True,
                     permute=[15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0], temperature=0.7),
}


def timm_fixture_model(src):
    """The reference model (tools/vitref) of the timm fixture folder `src`, its weights loaded, in float64."""
    a = json.load(open(os.path.join(src, "config.json")))["model_args"]
    m = VisionTransformer(img_size=a["img_size"], patch_size=a["patch_size"], in_chans=a.get("in_chans", 3),
                          num_classes=a["num_classes"], embed_dim=a["embed_dim"], depth=a["depth"],
                          num_heads=a["num_heads"], mlp_ratio=a.get("mlp_ratio", 4.0),
                          qkv_bias=a.get("qkv_bias", True)).eval()
    st.load_timm_into(m, os.path.join(src, "model.safetensors"))
    return m.double()


def intervention_fixtures():
    """tests/fixtures/interventions/<case>/: the timm_f32 model on its own input
    (timm_f32/expected/input.npy) under each case of INTERVENTION_CASES, in
    float64: every stage (<stage id>.npy), lens.npy (depth × classes logit lens),
    occlusion.npy (N), and case.json (the interventions, kept token patches)."""
    src = os.path.join(OUT, "timm_f32")
    m = timm_fixture_model(src)
    x = torch.from_numpy(np.load(os.path.join(src, "expected", "input.npy"))).double()
    root = os.path.join(OUT, "interventions")
    if os.path.exists(root):
        shutil.rmtree(root)
    for case, kw in INTERVENTION_CASES.items():
        iv = Interventions(**{k: (tuple(map(tuple, v)) if k == "ablate" else v) for k, v in kw.items()})
        trace = m.forward_trace(x, iv)
        d = os.path.join(root, case)
        os.makedirs(d)
        out = dict(trace)
        out["lens"] = m.logit_lens(trace)
        out["occlusion"] = m.occlusion_map(x, iv)
        for k, v in out.items():
            np.save(os.path.join(d, k + ".npy"), np.ascontiguousarray(v.detach().numpy().astype(np.float32)))
        n = x.shape[-1] // m.patch_size * (x.shape[-2] // m.patch_size)
        order = kw.get("permute") or list(range(n))
        kept = [order[i] for i in range(n) if i not in set(kw.get("drop", []))]
        st.write_json({"case": case, "interventions": kw, "stages": list(trace.keys()), "token_patches": kept,
                       "top1": int(trace["logits"].argmax())}, os.path.join(d, "case.json"))
        print(f"interventions/{case}: T={trace['tokens'].shape[0]} top1={int(trace['logits'].argmax())}")


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    fixture("timm_f32", seed=1, dtype="F32", naming="timm",
            model_kw=dict(patch_size=8, in_chans=3, num_classes=10, embed_dim=48, depth=2,
                          num_heads=3, mlp_ratio=4.0, qkv_bias=True),
            img_size=32, crop_pct=0.875, interpolation="bicubic",
            image=("chelsea", 40, 52, False), architecture="vit_test_patch8_32",
            labels=[f"label {i}" for i in range(10)])
    fixture("hf_bf16", seed=2, dtype="BF16", naming="hf",
            model_kw=dict(patch_size=8, in_chans=3, num_classes=5, embed_dim=64, depth=2,
                          num_heads=4, mlp_ratio=4.0, qkv_bias=True),
            img_size=32, image=("astronaut", 36, 28, False),
            labels=["tabby cat", "coffee mug", "astronaut", "rocket", "moon"])
    fixture("timm_f16_noqkvbias", seed=3, dtype="F16", naming="timm",
            model_kw=dict(patch_size=8, in_chans=3, num_classes=7, embed_dim=32, depth=1,
                          num_heads=2, mlp_ratio=4.0, qkv_bias=False),
            img_size=64, crop_pct=1.0, interpolation="bicubic", mean=[0.5] * 3, std=[0.5] * 3,
            image=("coffee", 64, 64, False), architecture="vit_test_patch8_64")
    fixture("timm_posinterp", seed=4, dtype="F32", naming="timm",
            model_kw=dict(patch_size=8, in_chans=3, num_classes=4, embed_dim=48, depth=2,
                          num_heads=4, mlp_ratio=2.0, qkv_bias=True),
            img_size=32, run_size=48, crop_pct=0.9, interpolation="bicubic",
            image=("astronaut", 60, 70, False), architecture="vit_test_patch8_32")
    fixture("headless", seed=5, dtype="F32", naming="timm",
            model_kw=dict(patch_size=8, in_chans=3, num_classes=0, embed_dim=48, depth=2,
                          num_heads=4, mlp_ratio=4.0, qkv_bias=True),
            img_size=32, crop_pct=1.0, interpolation="bilinear",
            image=("camera", 30, 36, True), architecture="vit_test_patch8_32.dino")
    token_fixtures()
    variant_fixtures()
    hf_dinov2_fixture()
    hf_dinov2_fixture("hf_dinov2_reg", 11, hf_dinov2.HfDinov2Registers, "dinov2_with_registers.", num_register_tokens=4)
    hf_dinov2_fixture("hf_dinov2_swiglu", 12, use_swiglu_ffn=True)
    digits_fixture()
    intervention_fixtures()
    total = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(OUT) for f in fs)
    print(f"fixtures: {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
