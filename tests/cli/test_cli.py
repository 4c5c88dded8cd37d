#!/usr/bin/python3
"""The quire command's contract: exit codes, the one-line JSON result, atomic
output, stdin, usage errors. Uses the html backend (always built first) for
renders; other formats are covered by their own suites."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
from shared import unittest_exit  # noqa: E402

QUIRE = os.environ.get("QUIRE", "build/quire")


def run(args, stdin=None):
    p = subprocess.run([QUIRE] + args, input=stdin, capture_output=True, timeout=60)
    out = p.stdout.decode("utf-8")
    lines = out.splitlines()
    return p.returncode, lines, p.stderr.decode("utf-8", "replace")


def result(lines):
    assert len(lines) == 1, "expected exactly one line of JSON, got %r" % lines
    return json.loads(lines[0])


class CliTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="quire-cli-")

    def write(self, name, content):
        p = os.path.join(self.dir, name)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(p, mode) as f:
            f.write(content)
        return p

    def assert_no_output(self, out):
        self.assertFalse(os.path.exists(out), "a failed render left %s" % out)
        leftovers = [n for n in os.listdir(self.dir) if n.startswith(".")]
        self.assertEqual(leftovers, [], "temp files left behind")

    def test_render_ok_shape(self):
        spec = self.write("s.json", '{"title":"T","blocks":[{"type":"paragraph","text":"hi"}]}')
        out = os.path.join(self.dir, "r.html")
        code, lines, _ = run(["render", spec, "-o", out])
        self.assertEqual(code, 0)
        r = result(lines)
        self.assertEqual(r["status"], "ok")
        self.assertEqual(r["path"], out)
        self.assertEqual(r["kind"], "html")
        self.assertEqual(r["mime_type"], "text/html")
        self.assertEqual(r["size"], os.path.getsize(out))
        self.assertEqual(r["warnings"], [])

    def test_stdin(self):
        out = os.path.join(self.dir, "r.html")
        code, lines, _ = run(["render", "-", "-o", out], stdin=b'{"blocks":[{"type":"heading","text":"H"}]}')
        self.assertEqual(code, 0, lines)
        self.assertTrue(os.path.exists(out))

    def big_spec(self, paragraphs=6000):
        """A document spec well past 64 KiB, with 2-, 3- and 4-byte UTF-8
        characters falling across every read boundary."""
        blocks = ['{"type":"paragraph","text":"p%d \u00e9t\u00e9 \u20ac \U0001F600 %s"}' % (i, "x" * (i % 7))
                  for i in range(paragraphs)]
        return ('{"title":"Big","blocks":[%s]}' % ",".join(blocks)).encode("utf-8")

    def test_stdin_larger_than_64k(self):
        spec = self.big_spec()
        self.assertGreater(len(spec), 4 * 65536)
        out = os.path.join(self.dir, "big.html")
        code, lines, _ = run(["render", "-", "-o", out], stdin=spec)
        self.assertEqual(code, 0, lines)
        with open(out, encoding="utf-8") as f:
            html = f.read()
        self.assertIn("p0 \u00e9t\u00e9 \u20ac \U0001F600 ", html)
        self.assertIn("p5999 \u00e9t\u00e9 \u20ac \U0001F600 <", html)
        # the same bytes from a file give the same output
        out2 = os.path.join(self.dir, "big2.html")
        code, lines, _ = run(["render", self.write("big.json", spec), "-o", out2])
        self.assertEqual(code, 0, lines)
        with open(out2, encoding="utf-8") as f:
            self.assertEqual(f.read(), html)

    def test_stdin_errors_past_64k(self):
        spec = self.big_spec()
        out = os.path.join(self.dir, "big.html")
        # bad UTF-8 far into the stream, after a JSON syntax error: the UTF-8 error
        # is the one reported, at its byte offset
        at = spec.index(b'"p', 300000) + 1
        bad = spec[:200] + b"}" + spec[201:at] + b"\xe2\x82(" + spec[at + 3:]
        code, lines, _ = run(["render", "-", "-o", out], stdin=bad)
        self.assertEqual(code, 1, lines)
        errs = result(lines)["errors"]
        self.assertEqual([e["message"] for e in errs], ["invalid UTF-8 at byte %d" % at])
        self.assert_no_output(out)
        # over max_input from a pipe, by less than the limit again: the whole size is named
        code, lines, _ = run(["render", "-", "-o", out, "--max-input", "200000"], stdin=spec)
        self.assertEqual(code, 4, lines)
        self.assertEqual(result(lines)["errors"][0]["message"],
                         "input is %d bytes; the limit max_input is 200000 bytes" % len(spec))
        # by more: the pipe is read no further than twice the limit
        code, lines, _ = run(["render", "-", "-o", out, "--max-input", "100000"], stdin=spec)
        self.assertEqual(code, 4, lines)
        self.assertEqual(result(lines)["errors"][0]["message"],
                         "input is more than 200000 bytes; the limit max_input is 100000 bytes")
        self.assert_no_output(out)
        # and from a file, refused before reading
        code, lines, _ = run(["render", self.write("big.json", spec), "-o", out, "--max-input", "100000"])
        self.assertEqual(code, 4, lines)
        self.assertEqual(result(lines)["errors"][0]["message"],
                         "input is %d bytes; the limit max_input is 100000 bytes" % len(spec))
        self.assert_no_output(out)

    def test_string_spec_accepted(self):
        inner = json.dumps({"blocks": [{"type": "paragraph", "text": "x"}]})
        spec = self.write("s.json", json.dumps(inner))
        out = os.path.join(self.dir, "r.html")
        code, lines, _ = run(["render", spec, "-o", out])
        self.assertEqual(code, 0, lines)

    def spec_error(self, content, kind=None, ext="html"):
        spec = self.write("bad.json", content)
        out = os.path.join(self.dir, "out." + ext)
        args = ["render", spec, "-o", out] + (["-k", kind] if kind else [])
        code, lines, err = run(args)
        r = result(lines)
        self.assertEqual(r["status"], "error")
        self.assert_no_output(out)
        return code, r, err

    def test_malformed_json(self):
        code, r, err = self.spec_error('{"blocks": [}')
        self.assertEqual(code, 1)
        self.assertIn("line 1", r["errors"][0]["message"])
        self.assertIn("column", r["errors"][0]["message"])

    def test_invalid_utf8(self):
        code, r, _ = self.spec_error(b'{"blocks":[{"type":"paragraph","text":"a\xff"}]}')
        self.assertEqual(code, 1)
        self.assertIn("byte", r["errors"][0]["message"])

    def test_not_an_object(self):
        code, r, _ = self.spec_error('[1,2]')
        self.assertEqual(code, 1)
        self.assertEqual(r["errors"][0]["path"], "")

    def test_unknown_key_did_you_mean(self):
        code, r, err = self.spec_error('{"blocks":[{"type":"paragraph","runs":[{"text":"a","bolt":true}]}]}')
        self.assertEqual(code, 1)
        e = r["errors"][0]
        self.assertEqual(e["path"], "/blocks/0/runs/0/bolt")
        self.assertIn("bold", e["hint"])
        self.assertIn("/blocks/0/runs/0/bolt", err)

    def test_wrong_type(self):
        code, r, _ = self.spec_error('{"blocks":[{"type":"heading","text":"x","level":"two"}]}')
        self.assertEqual(code, 1)
        self.assertEqual(r["errors"][0]["path"], "/blocks/0/level")

    def test_all_errors_reported_and_capped(self):
        blocks = [{"type": "heading", "text": "x", "level": 9} for _ in range(50)]
        code, r, _ = self.spec_error(json.dumps({"blocks": blocks}))
        self.assertEqual(code, 1)
        self.assertEqual(r["error"], "50 spec errors")
        self.assertEqual(len(r["errors"]), 20)
        self.assertEqual(r["errors_omitted"], 30)
        self.assertEqual([e["path"] for e in r["errors"]], ["/blocks/%d/level" % i for i in range(20)])

    def test_result_stays_small(self):
        blocks = [{"type": "paragraph", "runs": [{"text": "x", "link": "javascript:" + "a" * 3000}]}
                  for _ in range(100)]
        code, r, _ = self.spec_error(json.dumps({"blocks": blocks}))
        self.assertEqual(code, 1)
        self.assertLess(len(json.dumps(r)), 4000)

    def test_unknown_kind(self):
        spec = self.write("s.json", '{"blocks":[]}')
        code, lines, _ = run(["render", spec, "-o", os.path.join(self.dir, "x.html"), "-k", "hologram"])
        self.assertEqual(code, 2)
        self.assertEqual(result(lines)["status"], "error")

    def test_kind_format_mismatch(self):
        spec = self.write("s.json", '{"slides":[]}')
        out = os.path.join(self.dir, "x.html")
        code, lines, _ = run(["render", spec, "-o", out, "-k", "presentation"])
        self.assertEqual(code, 2)
        self.assert_no_output(out)

    def test_usage_errors(self):
        for args in ([], ["render"], ["render", "x.json"], ["bogus"], ["render", "x.json", "-o", "a.txt"],
                     ["render", "x.json", "-o", "a.html", "--frobnicate"]):
            code, lines, _ = run(args)
            self.assertEqual(code, 2, args)
            self.assertEqual(result(lines)["status"], "error")

    def test_missing_file_is_io_error(self):
        nope = os.path.join(self.dir, "nope.json")
        code, lines, _ = run(["render", nope, "-o", os.path.join(self.dir, "a.html")])
        self.assertEqual(code, 3)
        self.assertEqual(result(lines)["status"], "error")
        self.assertEqual(result(lines)["errors"][0]["message"],
                         "cannot open %s: No such file or directory" % nope)
        # a folder opens but cannot be read
        code, lines, _ = run(["render", self.dir, "-o", os.path.join(self.dir, "a.html")])
        self.assertEqual(code, 3)
        self.assertEqual(result(lines)["errors"][0]["message"], "cannot read %s" % self.dir)
        self.assert_no_output(os.path.join(self.dir, "a.html"))

    def test_unwritable_output_folder(self):
        spec = self.write("s.json", '{"blocks":[]}')
        code, lines, _ = run(["render", spec, "-o", os.path.join(self.dir, "no/such/dir/a.html")])
        self.assertEqual(code, 3)

    def test_input_limit(self):
        spec = self.write("s.json", '{"blocks":[{"type":"paragraph","text":"%s"}]}' % ("a" * 5000))
        out = os.path.join(self.dir, "a.html")
        code, lines, _ = run(["render", spec, "-o", out, "--max-input", "1000"])
        self.assertEqual(code, 4)
        self.assertIn("max_input", result(lines)["errors"][0]["message"])
        self.assert_no_output(out)

    def test_output_limit(self):
        spec = self.write("s.json", '{"blocks":[{"type":"paragraph","text":"%s"}]}' % ("a" * 5000))
        out = os.path.join(self.dir, "a.html")
        code, lines, _ = run(["render", spec, "-o", out, "--max-output", "1000"])
        self.assertEqual(code, 4)
        self.assert_no_output(out)

    def test_failed_render_keeps_old_file(self):
        out = self.write("keep.html", "old")
        spec = self.write("bad.json", '{"blocks":[{"type":"nope"}]}')
        code, lines, _ = run(["render", spec, "-o", out])
        self.assertEqual(code, 1)
        with open(out) as f:
            self.assertEqual(f.read(), "old")

    def test_check(self):
        spec = self.write("s.json", '{"slides":[{"title":"x"}]}')
        code, lines, _ = run(["check", spec, "-k", "presentation"])
        self.assertEqual(code, 0, lines)
        self.assertEqual(result(lines)["status"], "ok")
        code, lines, _ = run(["check", spec, "-k", "document"])
        self.assertEqual(code, 1)

    def test_check_honours_max_input(self):
        # Past the default 64 MiB (whitespace, cheap to parse): refused by
        # default, accepted when --max-input allows it, refused again below it.
        body = '{"sheets":[{"rows":[["a",1]]}]}'
        spec = self.write("big.json", body + " " * (64 << 20))
        size = os.path.getsize(spec)
        code, lines, _ = run(["check", spec, "-k", "spreadsheet"])
        self.assertEqual(code, 4, lines)
        self.assertIn("max_input", json.dumps(result(lines)))
        code, lines, _ = run(["check", spec, "-k", "spreadsheet", "--max-input", str(size)])
        self.assertEqual(code, 0, lines)
        self.assertEqual(result(lines), {"status": "ok", "kind": "spreadsheet", "errors": [], "warnings": []})
        with open(spec, "rb") as f:
            code, lines, _ = run(["check", "-", "-k", "spreadsheet", "--max-input", str(size)],
                                 stdin=f.read())
        self.assertEqual(code, 0, lines)
        code, lines, _ = run(["check", spec, "-k", "spreadsheet", "--max-input", str(size - 1)])
        self.assertEqual(code, 4, lines)
        self.assertIn("max_input", json.dumps(result(lines)))

    def test_fmt_is_idempotent(self):
        spec = self.write("s.json", '{"blocks":[{"text":"a","type":"paragraph"}],"title":"T"}')
        p1 = subprocess.run([QUIRE, "fmt", spec], capture_output=True)
        self.assertEqual(p1.returncode, 0)
        once = p1.stdout.decode()
        self.assertTrue(once.endswith("\n"))
        self.assertLess(once.index('"type"'), once.index('"text"'))
        p2 = subprocess.run([QUIRE, "fmt", "-"], input=p1.stdout, capture_output=True)
        self.assertEqual(p2.stdout.decode(), once)
        self.assertEqual(json.loads(once), {"title": "T", "blocks": [{"type": "paragraph", "text": "a"}]})

    def test_help_and_version(self):
        p = subprocess.run([QUIRE, "--help"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertIn("render", p.stdout)
        p = subprocess.run([QUIRE, "--version"], capture_output=True, text=True)
        self.assertEqual(p.returncode, 0)
        self.assertTrue(p.stdout.startswith("quire "))


if __name__ == "__main__":
    sys.exit(unittest_exit(unittest.main(exit=False, verbosity=1).result))
