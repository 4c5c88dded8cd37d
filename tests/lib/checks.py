"""Counted checks for the script-style tests (one main(), many checks):

    from checks import check, done
    check(p.returncode == 0, "render: exit 0")   # prints "FAIL render: exit 0" when false
    done()   # prints "N passed, N failed"; exits 1 on a failure, SKIP (77)
             # when a ../shared file was missing (shared.need), else 0
"""
import sys

from shared import SKIP, skipped

passed = 0
failed = 0


def check(cond, what):
    """Count one check; print it when it fails. Returns cond."""
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL " + what, flush=True)
    return cond


def done():
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else SKIP if skipped() else 0)
