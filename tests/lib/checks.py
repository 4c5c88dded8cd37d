"""Counted checks for the script-style tests (one main(), many checks):

    from checks import check, done
    check(p.returncode == 0, "render: exit 0")   # prints "FAIL render: exit 0" when false
    done()   # the skip policy's closing line and exit (shared.finish): 1 on a
             # failure, SKIP (77) when nothing ran, else 0
"""
import sys

from shared import finish

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
    sys.exit(finish(passed, failed))
