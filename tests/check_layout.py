#!/usr/bin/env python3
"""Claim: the source tree keeps the shape a newcomer can read.

Usage: check_layout.py SOURCE_ROOT. Four rules:
  (a) no folder under core/, app/, gpu/ or tests/ holds more than 25 source
      files (.cpp, .h, .c, .comp) directly;
  (b) no function in a .cpp or .h under core/, app/ or gpu/ is longer than 80
      lines, counted from the first line of its signature to its closing brace.
      Free functions, member functions defined in a class body and lambdas at
      namespace scope all count; a lambda inside a function is part of it.
  (c) the README's layout table and the folder list say the same: every folder
      under core/, gpu/ and app/ that holds source files is a row of the table
      (or lies inside a row's folder that the row names as its parts, like
      app/gui/logic/'s state/), and every folder a row names exists;
  (d) no line of a .cpp or .h under core/, app/, gpu/ or tests/ is longer than
      120 characters (.clang-format's ColumnLimit).
Exits 1 and lists every offender, longest first.

Rule (b) reads the code with a small brace scanner: comments, string and
character literals (raw strings too) and preprocessor lines are blanked first,
so their braces do not count. Each '{' at namespace or class scope is then
classified by the text before it: namespace, class, function body or other
(an initialiser), and only function bodies are measured.
"""
import pathlib
import re
import sys

MAX_FILES_PER_FOLDER = 25
MAX_FUNCTION_LINES = 80
MAX_LINE_CHARACTERS = 120
SOURCE_SUFFIXES = (".cpp", ".h", ".c", ".comp")
FOLDER_ROOTS = ("core", "app", "gpu", "tests")
FUNCTION_ROOTS = ("core", "app", "gpu")
FUNCTION_SUFFIXES = (".cpp", ".h")


def blank_non_code(text):
    """text with comments, literals and preprocessor lines turned to spaces;
    newlines stay, so offsets map to the same line numbers."""
    out = list(text)
    i, n = 0, len(text)
    line_start = True  # only whitespace so far on this line

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line_start = True
            i += 1
            continue
        if c in " \t\r\f\v":
            i += 1
            continue
        if line_start and c == "#":  # directive, with its continuation lines
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                if text.startswith("/*", j):  # a block comment may span lines
                    end = text.find("*/", j + 2)
                    j = n if end < 0 else end + 2
                    continue
                j += 1
            blank(i, j)
            i = j
            continue
        line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == '"':
            raw = re.search(r'(?:\b(?:u8|u|U|L)?R)$', text[max(0, i - 3):i])
            if raw:
                m = re.match(r'"([^()\\\s]{0,16})\(', text[i:])
                close = ")" + m.group(1) + '"' if m else '"'
                j = text.find(close, i + 1)
                j = n if j < 0 else j + len(close)
            else:
                j = skip_quoted(text, i, '"')
            blank(i + 1, j - 1)
            i = j
        elif c == "'":
            # 1'000'000: a digit separator, not a character literal
            if i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum() \
                    and re.search(r"\b\d[\w']*$", text[max(0, i - 40):i]):
                i += 1
                continue
            j = skip_quoted(text, i, "'")
            blank(i + 1, j - 1)
            i = j
        else:
            i += 1
    return "".join(out)


def skip_quoted(text, i, quote):
    """Index just past the literal opening at text[i] (escapes honoured;
    an unclosed literal ends at the end of its line)."""
    j = i + 1
    while j < len(text) and text[j] != quote and text[j] != "\n":
        j += 2 if text[j] == "\\" else 1
    return min(j + 1, len(text))


ACCESS_LABEL = re.compile(r"^\s*(?:(?:public|private|protected)\s*:(?!:)\s*)+")
FUNCTION_TAIL = re.compile(
    r"\)\s*(?:(?:const|volatile|noexcept|override|final|mutable|&&|&)\s*"
    r"|noexcept\s*\([^()]*\)\s*|->[^;{}=]+)*$")
INIT_LIST = re.compile(r"\)\s*(?:noexcept\s*)?:(?!:)")


def classify(head):
    """What a '{' opens, judged by the code since the last statement at its level."""
    head = ACCESS_LABEL.sub("", head).strip()
    bare = re.sub(r"^template\s*<.*?>\s*(?=[A-Za-z_])", "", head, flags=re.S)
    if re.match(r"(?:inline\s+)?namespace\b", bare) or re.match(r"extern\s*\"", bare) \
            or re.fullmatch(r"extern\s*\"?\s*\"?", bare):
        return "namespace"
    if re.match(r"(?:typedef\s+)?(?:class|struct|union|enum)\b", bare) and "(" not in bare:
        return "class"
    if FUNCTION_TAIL.search(head):
        return "function"
    if INIT_LIST.search(head) and re.search(r"[)}]\s*$", head):
        return "function"  # constructor body after its initialiser list
    return "other"


def function_name(head):
    """A readable name for a function head (the identifier before its parameters)."""
    head = ACCESS_LABEL.sub("", head)
    head = INIT_LIST.split(head)[0] + ")" if INIT_LIST.search(head) else head
    m = re.search(r"(operator\s*(?:\(\)|[^\s(]+)|[~\w:]+)\s*(?:\[[^\]]*\]\s*)?\((?:[^()]|\([^()]*\))*\)"
                  r"[^()]*$", head)
    if m:
        return m.group(1)
    m = re.search(r"(\w+)\s*=\s*\[", head)  # a lambda held in a variable
    return m.group(1) if m else head.strip().split("\n")[0][:60]


def long_functions(path, text):
    """(lines, 'path:line name') for every function over the limit in one file."""
    code = blank_non_code(text)
    line_of = [0] * (len(code) + 1)
    line = 1
    for k, c in enumerate(code):
        line_of[k] = line
        if c == "\n":
            line += 1
    line_of[len(code)] = line

    found = []
    stack = []  # kinds of the open braces
    head_start = 0  # where the current head begins (after ';', '{' or a closing scope)
    for k, c in enumerate(code):
        if c == ";" and all(s in ("namespace", "class") for s in stack):
            head_start = k + 1
        elif c == "{":
            if all(s in ("namespace", "class") for s in stack):
                head = code[head_start:k]
                kind = classify(head)
                stack.append(kind)
                if kind == "function":
                    start = head_start + len(head) - len(head.lstrip())
                    start += len(ACCESS_LABEL.match(code[start:k]).group(0)) \
                        if ACCESS_LABEL.match(code[start:k]) else 0
                    stack[-1] = ("function", line_of[start], function_name(head))
                    kind = "function"
                if kind != "other":
                    head_start = k + 1
            else:
                stack.append("inner")
        elif c == "}":
            if not stack:
                continue  # unbalanced: let the compiler say so
            top = stack.pop()
            if isinstance(top, tuple):
                _, first, name = top
                length = line_of[k] - first + 1
                if length > MAX_FUNCTION_LINES:
                    found.append((length, f"{path}:{first}: {name} is {length} lines"))
            if all(s in ("namespace", "class") for s in stack) and top != "other":
                head_start = k + 1
    return found


def crowded_folders(root):
    out = []
    for top in FOLDER_ROOTS:
        for folder in [root / top, *sorted(p for p in (root / top).rglob("*") if p.is_dir())]:
            count = sum(1 for p in folder.iterdir() if p.is_file() and p.suffix in SOURCE_SUFFIXES)
            if count > MAX_FILES_PER_FOLDER:
                out.append(f"{folder.relative_to(root).as_posix()}/ holds {count} source files")
    return out


def layout_table_mismatches(root):
    """Folders with sources that no README row names, and rows naming no folder (rule c)."""
    readme = (root / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    rows = {m.group(1).rstrip("/"): m.group(2) for m in re.finditer(r"^\| `([\w/]+)/?`[^|]*\| (.*)\|$", table, re.M)}
    out = [f"README layout row `{r}/` names no folder" for r in sorted(rows) if not (root / r).is_dir()]
    for top in ("core", "gpu", "app"):
        for d in sorted(p for p in (root / top).rglob("*") if p.is_dir()):
            if not any(f.suffix in SOURCE_SUFFIXES for f in d.iterdir()):
                continue
            rel = d.relative_to(root).as_posix()
            parent = d.parent.relative_to(root).as_posix()
            if rel in rows or (parent in rows and (f"`{d.name}/`" in rows[parent] or f"`{rel}/`" in rows[parent])):
                continue
            out.append(f"README layout table has no row for `{rel}/`")
    return out


def long_lines(root):
    """'path:line: N characters' for every C++ line past MAX_LINE_CHARACTERS."""
    found = []
    for top in FOLDER_ROOTS:
        for path in sorted((root / top).rglob("*")):
            if path.suffix in FUNCTION_SUFFIXES and path.is_file():
                rel = path.relative_to(root).as_posix()
                for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                    if len(line) > MAX_LINE_CHARACTERS:
                        found.append(f"{rel}:{number}: {len(line)} characters")
    return found


def main():
    root = pathlib.Path(sys.argv[1])
    folders = crowded_folders(root) + layout_table_mismatches(root)
    functions = []
    for top in FUNCTION_ROOTS:
        for path in sorted((root / top).rglob("*")):
            if path.suffix in FUNCTION_SUFFIXES and path.is_file():
                rel = path.relative_to(root).as_posix()
                functions += long_functions(rel, path.read_text(encoding="utf-8"))
    lines = long_lines(root)
    if lines:
        print(f"lines longer than {MAX_LINE_CHARACTERS} characters (clang-format -i FILE wraps code):")
        print("\n".join("  " + f for f in lines))
    if folders:
        print(f"folders with more than {MAX_FILES_PER_FOLDER} source files (split them by concept), or not in the README:")
        print("\n".join("  " + f for f in folders))
    if functions:
        print(f"functions longer than {MAX_FUNCTION_LINES} lines (split them into named parts):")
        print("\n".join("  " + f for _, f in sorted(functions, key=lambda f: -f[0])))
    if folders or functions or lines:
        sys.exit(1)
    print(f"every folder holds at most {MAX_FILES_PER_FOLDER} source files and is in the README's layout table; "
          f"every function is at most {MAX_FUNCTION_LINES} lines; every line at most {MAX_LINE_CHARACTERS} characters")


if __name__ == "__main__":
    main()
