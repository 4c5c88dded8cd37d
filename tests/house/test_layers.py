"""scripts/check-layers.py: the tree passes, and a planted include that points
up (core/ reaching render/), sideways (fonts/ reaching layout/) or a header
name used in two folders fails it, naming the file and line."""
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CHECK = os.path.join(SRC, "scripts", "check-layers.py")


def run(root):
    p = subprocess.run([sys.executable, CHECK, root], capture_output=True, text=True)
    return p.returncode, p.stdout


def copy_tree(dst):
    shutil.copy(os.path.join(SRC, "layers.txt"), dst)
    with open(os.path.join(SRC, "layers.txt")) as f:
        folders = [l.split(":")[0] for l in f if l[:1].isalpha()]
    for d in folders:
        shutil.copytree(os.path.join(SRC, d), os.path.join(dst, d))


def plant(root, rel, line):
    path = os.path.join(root, rel)
    with open(path) as f:
        text = f.read()
    with open(path, "w") as f:
        f.write(line + "\n" + text)


failed = []
code, out = run(SRC)
if code != 0:
    failed.append("the tree fails its own check:\n" + out)

cases = [
    ("core/arena.c", '#include "backends.h"', "core/arena.c:1: includes \"backends.h\" from render/"),
    ("fonts/itemize.c", '#include "style.h"', "fonts/itemize.c:1: includes \"style.h\" from layout/"),
    ("spec/tree.c", '#include "../pdf/pdf_int.h"', "spec/tree.c:1: includes \"../pdf/pdf_int.h\" from pdf/"),
]
for rel, line, want in cases:
    with tempfile.TemporaryDirectory() as tmp:
        copy_tree(tmp)
        plant(tmp, rel, line)
        code, out = run(tmp)
        if code != 1 or want not in out:
            failed.append("planted %r in %s: exit %d, output:\n%s" % (line, rel, code, out))

with tempfile.TemporaryDirectory() as tmp:
    copy_tree(tmp)
    with open(os.path.join(tmp, "render", "buf.h"), "w") as f:
        f.write("/* a second buf.h */\n")
    code, out = run(tmp)
    if code != 1 or "header name also in" not in out:
        failed.append("a duplicated header name passed: exit %d\n%s" % (code, out))

for f in failed:
    print("FAIL", f)
print("%d passed, %d failed" % (len(cases) + 2 - len(failed), len(failed)))
sys.exit(1 if failed else 0)
