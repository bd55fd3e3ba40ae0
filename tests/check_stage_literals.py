#!/usr/bin/env python3
"""Claim: a stage id of the catalogue is spelled as a string literal in exactly
one non-test source file, core/pass/stages.cpp; everything else reads the table.

Usage: check_stage_literals.py SOURCE_ROOT. Reads the names from the table's
rows in core/pass/stages.cpp, then looks in the code (not the comments) of every
.cpp/.h under core/, app/ and gpu/ for "name", ".name", "block{i}.name" or the
prefix "block{i}." as a whole literal. Exits 1 and lists each offending line,
or when the table itself names no stage.
"""
import pathlib
import re
import sys

# Literals equal to a stage name that mean something else (file: literal, why).
NOT_STAGE_IDS = {
    ("core/formats/checkpoint.cpp", "norm"): "timm's module name of the final LayerNorm weights (norm.weight)",
    ("core/formats/checkpoint.cpp", "ls1"): "timm's LayerScale module (blocks.N.ls1.gamma)",
    ("core/formats/checkpoint.cpp", "ls2"): "timm's LayerScale module (blocks.N.ls2.gamma)",
    ("core/formats/key_layouts.cpp", "norm"): "timm's module name of the final LayerNorm (transformers' layernorm)",
    ("core/model/parameters.cpp", "norm_pre"): "timm's parameter name norm_pre.weight",
    ("core/model/config.cpp", "gelu"): "timm's act_layer name in model_args",
    ("core/model/config.cpp", "quick_gelu"): "timm's act_layer name in model_args",
    ("core/formats/model_writer.cpp", "quick_gelu"): "timm's act_layer name in model_args",
}

root = pathlib.Path(sys.argv[1])
table = root / "core" / "pass" / "stages.cpp"
names = re.findall(r'\{K::\w+, "(\w+)"', table.read_text())
if len(names) < 20:
    sys.exit(f"{table}: found only {len(names)} stage rows; the table format changed?")

literal = re.compile(r'"(?:(?:block\d*)?\.?(?:' + "|".join(map(re.escape, names)) + r')|block\d*\.)"')


def code_of(line):
    """The line without a trailing // comment (a // inside a string literal stays)."""
    for m in re.finditer(r"//", line):
        if line[: m.start()].count('"') % 2 == 0:
            return line[: m.start()]
    return line
bad = []
for path in sorted(p for d in ("core", "app", "gpu") for p in (root / d).rglob("*") if p.suffix in (".cpp", ".h")):
    rel = path.relative_to(root).as_posix()
    if rel == "core/pass/stages.cpp":
        continue
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        for m in literal.finditer(code_of(line)):
            text = m.group(0)[1:-1]
            if (rel, text) in NOT_STAGE_IDS:
                continue
            bad.append(f"{rel}:{number}: stage id literal \"{text}\": {line.strip()}")
if bad:
    print("stage ids spelled outside core/pass/stages.cpp (read the table instead):")
    print("\n".join(bad))
    sys.exit(1)
print(f"{len(names)} stage names are spelled only in core/pass/stages.cpp")
