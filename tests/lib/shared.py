"""The one skip policy of quire's script suites: what a test does when a
file of ../shared or a tool (LibreOffice, pdftoppm, ...) is not there.

The validators (../shared/tools/ooxml-validate, pdf-check, office-smoke) and
the benchmark workloads (../shared/bench/gen_specs.py) live beside the
project, not in it; LibreOffice and the poppler tools are installed by
scripts/setup.sh. A suite skips only the STEP that needs what is missing
(printing "skipped: <why>") and runs every other step:

  - it fails (exit 1) when any step that ran failed;
  - it is skipped (exit 77, ctest's SKIP_RETURN_CODE) when nothing ran, as
    for a suite that compares with LibreOffice on a machine without it;
  - it passes (exit 0) otherwise, its skipped steps listed in its output and
    counted on its last line ("12 passed, 0 failed, 1 skipped").

CI sets QUIRE_REQUIRE_TOOLS=1 (QUIRE_REQUIRE_SHARED=1 is the older name):
then whatever is missing fails the suite at once, so CI can never pass a
suite whose steps did not run.

    from shared import need, need_tool, finish
    tool = need("tools/ooxml-validate")     # a path, or None after printing why
    soffice = need_tool("soffice")          # the same for a program on PATH
    ...
    sys.exit(finish(passed, failed))

    # unittest suites: require(self, REL) / require_tool(self, NAME) skip
    # the test that needs it; the run ends with
    sys.exit(unittest_exit(unittest.main(exit=False).result))
"""
import os
import shutil
import sys

SKIP = 77
_SRC = os.environ.get("QUIRE_SOURCE_DIR",
                      os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SHARED = os.environ.get("QUIRE_SHARED") or os.path.normpath(os.path.join(_SRC, "..", "shared"))
_skipped = []


def required():
    """Whether a missing file or tool is a failure (CI)."""
    return "1" in (os.environ.get("QUIRE_REQUIRE_TOOLS"), os.environ.get("QUIRE_REQUIRE_SHARED"))


def missing(msg):
    """Record a step skipped for what MSG says is missing (a failure under
    QUIRE_REQUIRE_TOOLS=1)."""
    if required():
        sys.exit("FAIL %s (QUIRE_REQUIRE_TOOLS=1: CI must run every step)" % msg)
    if msg not in _skipped:
        _skipped.append(msg)
        print("skipped: " + msg, flush=True)


def need(rel):
    """The path of ../shared/REL, or None (printed as skipped) when it is absent."""
    path = os.path.join(SHARED, rel)
    if os.path.exists(path):
        return path
    missing("../shared/%s not found" % rel)
    return None


def need_tool(name):
    """The path of program NAME on PATH, or None (printed as skipped)."""
    path = shutil.which(name)
    if path:
        return path
    missing("%s is not installed (scripts/setup.sh installs it)" % name)
    return None


def skipped():
    """What was skipped so far (the messages)."""
    return list(_skipped)


def finish(passed, failed):
    """A script suite's exit code, after its closing line: 1 when a step
    failed, SKIP when nothing ran, else 0."""
    print("%d passed, %d failed, %d skipped" % (passed, failed, len(_skipped)))
    if failed:
        return 1
    return SKIP if passed == 0 and _skipped else 0


def unittest_exit(result):
    """The exit code of a unittest run: 1 on failure, SKIP when every test
    was skipped (or none ran), else 0."""
    bad = len(result.failures) + len(result.errors)
    skipped_tests = len(result.skipped)
    print("%d passed, %d failed, %d skipped" % (result.testsRun - bad - skipped_tests, bad,
                                                 skipped_tests), flush=True)
    if not result.wasSuccessful():
        return 1
    if result.testsRun == 0 or skipped_tests == result.testsRun:
        return SKIP
    return 0


def require(test, rel):
    """need() inside a unittest method or setUpClass (TEST is the test or its
    class): the path, or the test is skipped."""
    path = need(rel)
    if path is None:
        import unittest
        raise unittest.SkipTest("../shared/%s not found" % rel)
    return path


def require_tool(test, name):
    """need_tool() inside a unittest method or setUpClass: the path, or the
    test is skipped."""
    path = need_tool(name)
    if path is None:
        import unittest
        raise unittest.SkipTest("%s is not installed" % name)
    return path


def assert_ooxml_valid(test, *paths):
    """The test fails unless ../shared's ooxml-validate passes every file
    (skipped without ../shared)."""
    import subprocess
    p = subprocess.run([require(test, "tools/ooxml-validate")] + list(paths), capture_output=True,
                       text=True)
    test.assertEqual(p.returncode, 0, p.stdout + p.stderr)
