#!/usr/bin/env python3
"""Claim: comments only point at what the repository holds.

Usage: check_comment_references.py SOURCE_ROOT. Reads the comments (and Python
docstrings) of every .cpp/.h/.comp/.py/.cmake/.sh file and CMakeLists.txt under
core/, app/, gpu/, tests/ and tools/, and reports, as file:line:
  - a repository path (one starting with core/, app/, gpu/, tests/, tools/,
    assets/ or docs/) that names no file or folder; a path is checked up to its
    first placeholder (`*`, `<stage id>`, `{i}`);
  - docs/DESIGN.md cited without one of its sections as an anchor
    (docs/DESIGN.md#stage-catalogue), or with an anchor no heading makes;
  - the design document cited without its folder;
  - the notebooks' folder, which is not in the repository (say which notebook
    instead: "the toy notebook the project started from");
  - an "issue N" tag (the tracker's numbers mean nothing in the code).
Exits 1 when anything is reported. This file is not read: it spells what it
looks for.
"""
import io
import pathlib
import re
import sys
import tokenize

TOP_FOLDERS = ("core", "app", "gpu", "tests", "tools", "assets", "docs")
SOURCE_FOLDERS = ("core", "app", "gpu", "tests", "tools")
SLASH_COMMENT_SUFFIXES = (".cpp", ".h", ".comp")
HASH_COMMENT_SUFFIXES = (".cmake", ".sh")

REPO_PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP_FOLDERS) + r")/[\w./*<>{}-]*)")
PLACEHOLDER = re.compile(r"[*<>{}]")
DESIGN_CITE = re.compile(r"docs/DESIGN\.md(#[\w-]+)?")
BARE_DESIGN = re.compile(r"(?<!docs/)\bDESIGN\.md")
ISSUE_TAG = re.compile(r"\b[Ii]ssues? #?\d+")
NOTEBOOK_FOLDER = re.compile(r"(?<![\w/])seeds/")


def slash_comments(text):
    """(line, comment text) of every // and /* */ comment, skipping string and char literals."""
    out, i, line, n = [], 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append((line, text[i + 2:end]))
            i = end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end
            for k, part in enumerate(text[i + 2:end].split("\n")):
                out.append((line + k, part))
            line += text.count("\n", i, end)
            i = end + 2
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            open_paren = text.find("(", i)
            close = text.find(")" + text[i + 2:open_paren] + '"', open_paren)
            end = n if close < 0 else close + open_paren - i
            line += text.count("\n", i, end)
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return out


def hash_comments(text):
    """(line, comment text) of every # comment outside quotes (shell, CMake)."""
    out = []
    for number, raw in enumerate(text.splitlines(), 1):
        quote = None
        for k, c in enumerate(raw):
            if quote:
                quote = None if c == quote else quote
            elif c in "\"'":
                quote = c
            elif c == "#" and (k == 0 or raw[k - 1] in " \t(;"):
                out.append((number, raw[k + 1:]))
                break
    return out


def python_comments(text):
    """(line, text) of every # comment and every string that stands as a statement (docstrings)."""
    out, statement_start = [], True
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.COMMENT:
            out.append((tok.start[0], tok.string))
        elif tok.type == tokenize.STRING and statement_start:
            out.extend((tok.start[0] + k, part) for k, part in enumerate(tok.string.split("\n")))
        if tok.type not in (tokenize.COMMENT, tokenize.NL):
            statement_start = tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
    return out


def comments_of(path):
    text = path.read_text(encoding="utf-8")
    if path.suffix in SLASH_COMMENT_SUFFIXES:
        return slash_comments(text)
    if path.suffix == ".py":
        return python_comments(text)
    return hash_comments(text)


def anchors_of(markdown):
    """GitHub's anchors of a Markdown file's headings."""
    headings = re.findall(r"^#+\s+(.+?)\s*$", markdown, re.MULTILINE)
    return {"#" + re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def problems(comment, root, design_anchors):
    for m in REPO_PATH.finditer(comment):
        path = PLACEHOLDER.split(m.group(1))[0].rstrip(".,:;'`")
        if not (root / path).exists():
            yield f"names {m.group(1)!r}, which the repository does not hold"
    for m in DESIGN_CITE.finditer(comment):
        if m.group(1) is None:
            yield "cites docs/DESIGN.md without a section (docs/DESIGN.md#heading-anchor)"
        elif m.group(1) not in design_anchors:
            yield f"cites docs/DESIGN.md{m.group(1)}, a section docs/DESIGN.md does not have"
    if BARE_DESIGN.search(comment):
        yield "cites DESIGN.md: the design document is docs/DESIGN.md"
    if NOTEBOOK_FOLDER.search(comment):
        yield "names seeds/, which is not in the repository: describe the notebook instead"
    for m in ISSUE_TAG.finditer(comment):
        yield f"carries the tag {m.group(0)!r}: say what the code does instead"


def source_files(root):
    for folder in SOURCE_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and (path.suffix in SLASH_COMMENT_SUFFIXES + HASH_COMMENT_SUFFIXES + (".py",)
                                   or path.name == "CMakeLists.txt"):
                yield path


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    design = root / "docs" / "DESIGN.md"
    design_anchors = anchors_of(design.read_text(encoding="utf-8")) if design.exists() else set()
    bad, count = [], 0
    for path in source_files(root):
        if path.resolve() == pathlib.Path(__file__).resolve():
            continue
        count += 1
        rel = path.relative_to(root).as_posix()
        for number, comment in comments_of(path):
            bad.extend(f"{rel}:{number}: {p}" for p in problems(comment, root, design_anchors))
    if bad:
        print("comments that point at nothing the repository holds:")
        print("\n".join(bad))
        sys.exit(1)
    print(f"the comments of {count} files name only paths and sections the repository holds")


if __name__ == "__main__":
    main()
