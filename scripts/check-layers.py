#!/usr/bin/env python3
"""Check that every #include points down the layers of layers.txt.

    scripts/check-layers.py [ROOT]      (ROOT: the source tree, default: this one)

layers.txt names each folder and the folders below it that its files may
include. For every .c and .h under a listed folder (subfolders included),
each #include "x.h" is resolved as the compiler would (the including file's
own folder first, then the folders on the include path) and must land in the
file's own folder or one it lists. A header name used in two folders is an
error too: with bare includes it would be ambiguous. Exit 0 when all is well,
1 with one line per offending include (file:line: what, and where it may go).
"""
import os
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def layers(root):
    out = {}
    with open(os.path.join(root, "layers.txt"), encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^([a-z]+):(.*)$", line)
            if m:
                out[m.group(1)] = m.group(2).split()
    return out


def sources(root, folder):
    for d, _, files in os.walk(os.path.join(root, folder)):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.join(d, name)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    table = layers(root)
    problems = []
    owner = {}  # header name -> folder
    for folder in table:
        for path in sources(root, folder):
            if path.endswith(".h"):
                name = os.path.basename(path)
                if name in owner and owner[name] != folder:
                    problems.append("%s: header name also in %s/: rename one (bare includes "
                                    "would be ambiguous)" % (os.path.relpath(path, root),
                                                             owner[name]))
                owner.setdefault(name, folder)
    for folder, below in table.items():
        allowed = set(below) | {folder}
        for path in sources(root, folder):
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8", errors="replace") as f:
                for no, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    inc = m.group(1)
                    local = os.path.normpath(os.path.join(os.path.dirname(path), inc))
                    if os.path.exists(local):
                        target = os.path.relpath(local, root).split(os.sep)[0]
                    else:
                        target = owner.get(os.path.basename(inc))
                    if target is None or target not in table or target in allowed:
                        continue
                    problems.append("%s:%d: includes \"%s\" from %s/, which %s/ may not reach "
                                    "(layers.txt: %s: %s)" % (rel, no, inc, target, folder, folder,
                                                              " ".join(below) or "nothing"))
    for p in problems:
        print(p)
    if problems:
        print("check-layers: %d include(s) point up or sideways; move the code down or the "
              "include up" % len(problems))
        return 1
    print("check-layers: every include of %d folders points down" % len(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
