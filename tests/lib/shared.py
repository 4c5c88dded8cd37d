"""Where ../shared is, and what a test does when it is not there.

The validators (../shared/tools/ooxml-validate, pdf-check, office-smoke) and
the benchmark workloads (../shared/bench/gen_specs.py) live beside the
project, not in it. A plain clone has no ../shared: a check that needs it
prints "skipped: ../shared/<what> not found" and the test exits with SKIP
(77), which ctest reports as skipped (tests/CMakeLists.txt sets
SKIP_RETURN_CODE). CI sets QUIRE_REQUIRE_SHARED=1, and then a missing file
fails the test instead: CI must never skip them.

    from shared import need, SKIP, skipped
    tool = need("tools/ooxml-validate")     # a path, or None after printing why
    ...
    sys.exit(1 if failed else SKIP if skipped() else 0)
"""
import os
import sys

SKIP = 77
_SRC = os.environ.get("QUIRE_SOURCE_DIR",
                      os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
SHARED = os.environ.get("QUIRE_SHARED") or os.path.normpath(os.path.join(_SRC, "..", "shared"))
_skipped = []


def need(rel):
    """The path of ../shared/REL, or None (printed as skipped) when it is absent."""
    path = os.path.join(SHARED, rel)
    if os.path.exists(path):
        return path
    msg = "../shared/%s not found" % rel
    if os.environ.get("QUIRE_REQUIRE_SHARED") == "1":
        sys.exit("FAIL %s (QUIRE_REQUIRE_SHARED=1)" % msg)
    if msg not in _skipped:
        _skipped.append(msg)
        print("skipped: " + msg, flush=True)
    return None


def skipped():
    """What was skipped so far (the messages)."""
    return list(_skipped)


def unittest_exit(result):
    """The exit code of a unittest run: 1 on failure, SKIP when a test was
    skipped for a missing ../shared file, else 0."""
    if not result.wasSuccessful():
        return 1
    return SKIP if _skipped else 0


def require(test, rel):
    """need() inside a unittest method or setUpClass (TEST is the test or its
    class): the path, or the test is skipped."""
    path = need(rel)
    if path is None:
        import unittest
        raise unittest.SkipTest("../shared/%s not found" % rel)
    return path
