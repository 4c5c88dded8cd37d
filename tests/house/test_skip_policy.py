"""The one skip policy (tests/lib/shared.py), on real suites:
- a LibreOffice suite on a machine without soffice is skipped (77), and fails
  (1) under QUIRE_REQUIRE_TOOLS=1;
- the golden suite without ../shared runs every render and skips only the
  validator steps (exit 0, 'N skipped' on its last line), and fails under
  QUIRE_REQUIRE_TOOLS=1."""
import os
import subprocess
import sys
import tempfile

SRC = os.environ.get("QUIRE_SOURCE_DIR",
                     os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
QUIRE = os.environ.get("QUIRE") or os.path.join(SRC, "build", "quire")
failed = passed = 0


def run(script, env_extra, path=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("QUIRE_REQUIRE_TOOLS", "QUIRE_REQUIRE_SHARED")}
    env.update(env_extra)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, os.path.join(SRC, "tests", script)], env=env,
                          capture_output=True, text=True, timeout=600)


def check(ok, what, p):
    global failed, passed
    if ok:
        passed += 1
        print("ok   " + what)
    else:
        failed += 1
        print("FAIL %s: exit %d\n%s\n%s" % (what, p.returncode, p.stdout[-1500:], p.stderr[-1500:]))


with tempfile.TemporaryDirectory() as bare:
    # a PATH with python3 and nothing else: no soffice, no pdftoppm
    os.symlink(sys.executable, os.path.join(bare, "python3"))
    p = run("fidelity/test_cross_format.py", {"QUIRE": QUIRE}, path=bare)
    check(p.returncode == 77 and "soffice is not installed" in p.stdout + p.stderr,
          "LibreOffice suite without soffice: skipped (77), saying why", p)
    p = run("fidelity/test_cross_format.py", {"QUIRE": QUIRE, "QUIRE_REQUIRE_TOOLS": "1"}, path=bare)
    check(p.returncode not in (0, 77) and "QUIRE_REQUIRE_TOOLS=1" in p.stdout + p.stderr,
          "LibreOffice suite without soffice under QUIRE_REQUIRE_TOOLS=1: fails", p)

with tempfile.TemporaryDirectory() as nowhere:
    env = {"QUIRE": QUIRE, "QUIRE_SHARED": os.path.join(nowhere, "shared"),
           "QUIRE_GOLDEN_CASES": "doc-every-block,sheet-multi,deck-layouts"}
    p = run("golden/test_golden.py", env)
    last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
    check(p.returncode == 0 and last.endswith(", 0 failed, 2 skipped") and
          "skipped: ../shared/tools/ooxml-validate not found" in p.stdout,
          "golden suite without ../shared: renders checked, the 2 validator steps skipped", p)
    p = run("golden/test_golden.py", dict(env, QUIRE_REQUIRE_TOOLS="1"))
    check(p.returncode == 1, "golden suite without ../shared under QUIRE_REQUIRE_TOOLS=1: fails", p)

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
