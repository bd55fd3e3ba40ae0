#!/usr/bin/env python3
"""Claim: an #include never runs up a floor. The floors, lowest first:

  core/  base < tensor < model < hub < formats < loading < pass < explain
         < findings < train   (a folder includes its own floor and those below)
  gpu/   over core/;  app/cli and app/gui over core/ and gpu/; core/ includes
         neither gpu/ nor app/, gpu/ never app/.
  app/gui/  logic < services < views < panels < controllers < shell: the
         window-free logic; what the machine offers (GL, files, fonts, what the
         app asks of its window); the pictures; the panels around them; App,
         its controllers and drivers; what opens the window and runs App.
  app/gui/logic/  describe < ask < jobs < state < cache, layout, link < lesson
         < monkey: the describers and colour maps; the questions; the jobs on
         the worker; the app's state, keys, screens and options; the caches,
         the window's geometry and the page's link; lessons and hand-outs; the
         monkey test's events.

Usage: check_layers.py SOURCE_ROOT [FILE...]. Reads every .cpp/.h under core/,
gpu/ and app/ (or only the FILEs named, for a test that plants an include),
resolves each #include "folder/file.h" to its folder, and exits 1 listing each
include that runs up a floor, with the floors of both ends.
"""
import pathlib
import re
import sys

CORE_FLOORS = ["base", "tensor", "model", "hub", "formats", "loading", "pass", "explain", "findings", "train"]
GUI_FLOORS = ["logic", "services", "views", "panels", "controllers", "shell"]  # under app/gui
APP_FOLDERS = (*GUI_FLOORS, "cli")  # under app/gui and app/
LOGIC_FLOORS = [["describe"], ["ask"], ["jobs"], ["state"], ["cache", "layout", "link"], ["lesson"], ["monkey"]]
LOGIC_FLOOR = {folder: i for i, floor in enumerate(LOGIC_FLOORS) for folder in floor}
LOGIC_INCLUDE = re.compile(r'^\s*#\s*include\s+"logic/([a-z_]+)/')
INCLUDE = re.compile(r'^\s*#\s*include\s+"(?:([a-z_]+)/)?([^"/]+)"')
FIRST_FOLDER = re.compile(r'^\s*#\s*include\s+"([a-z_]+)/')  # an include's first folder, however deep


def gpu_headers(root):
    """gpu/'s own headers, which the app and the tests include by bare name."""
    return {p.name for p in (root / "gpu").glob("*.h")}


def problems_of(root, path, gpu):
    """Each include of `path` that runs up a floor, as a line naming both ends."""
    rel = path.relative_to(root)
    top = rel.parts[0]
    mine = CORE_FLOORS.index(rel.parts[1]) if top == "core" and rel.parts[1] in CORE_FLOORS else None
    in_gui = rel.parts[:2] == ("app", "gui") and len(rel.parts) > 3 and rel.parts[2] in GUI_FLOORS
    gui_floor = GUI_FLOORS.index(rel.parts[2]) if in_gui else None
    in_logic = in_gui and rel.parts[2] == "logic" and len(rel.parts) > 4 and rel.parts[3] in LOGIC_FLOOR
    logic_floor = LOGIC_FLOOR[rel.parts[3]] if in_logic else None
    for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
        where = f"{rel}:{number}: {line.strip()}: "
        first = FIRST_FOLDER.match(line)
        if gui_floor is not None and first and first.group(1) in GUI_FLOORS:
            theirs = GUI_FLOORS.index(first.group(1))
            if theirs > gui_floor:
                yield where + f"{rel.parts[2]}/ (app floor {gui_floor}) includes {first.group(1)}/ (floor {theirs})"
        inner = LOGIC_INCLUDE.match(line)
        if logic_floor is not None and inner and LOGIC_FLOOR.get(inner.group(1), -1) > logic_floor:
            mine_name, theirs_name = rel.parts[3], inner.group(1)
            yield where + (f"logic/{mine_name}/ (logic floor {logic_floor}) includes logic/{theirs_name}/ "
                           f"(floor {LOGIC_FLOOR[theirs_name]})")
        m = INCLUDE.match(line)
        if not m:
            continue
        folder, name = m.group(1), m.group(2)
        if mine is not None and folder in CORE_FLOORS and CORE_FLOORS.index(folder) > mine:
            yield where + f"{rel.parts[1]}/ (core floor {mine}) includes {folder}/ (floor {CORE_FLOORS.index(folder)})"
        if top in ("core", "gpu") and folder in APP_FOLDERS:
            yield where + f"{top}/ includes the app's {folder}/"
        if top == "core" and folder is None and name in gpu:
            yield where + "core/ includes gpu/"


def main():
    root = pathlib.Path(sys.argv[1]).resolve()
    files = [pathlib.Path(f).resolve() for f in sys.argv[2:]] or [
        p for folder in ("core", "gpu", "app") for p in sorted((root / folder).rglob("*"))
        if p.suffix in (".cpp", ".h")]
    gpu = gpu_headers(root)
    problems = [p for f in files for p in problems_of(root, f, gpu)]
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print(f"{len(files)} files: no include runs up a floor (core: {' < '.join(CORE_FLOORS)}; core < gpu < app; "
          f"app/gui: {' < '.join(GUI_FLOORS)}; app/gui/logic: {' < '.join(', '.join(f) for f in LOGIC_FLOORS)})")


if __name__ == "__main__":
    main()
