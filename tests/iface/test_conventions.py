#!/usr/bin/python3
"""The CLI conventions of issue 23: quire help CMD and CMD --help for every
command, render --help listing every option its parser takes, --store
before or after the command, -o - (bytes on stdout, the result on stderr),
check inferring the kind, --strict, did-you-mean for commands, the man pages
(man -l), the bash completion and their install."""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

QUIRE = os.environ.get("QUIRE", "build/quire")
SRC = os.environ.get("QUIRE_SOURCE_DIR", ".")
BIN = os.environ.get("QUIRE_BINARY_DIR", os.path.dirname(os.path.abspath(QUIRE)))

failures = []


def expect(ok, what):
    print("%-4s %s" % ("ok" if ok else "FAIL", what))
    if not ok:
        failures.append(what)


def run(args, stdin=None, cwd=None, env=None):
    p = subprocess.run([os.path.abspath(QUIRE)] + args, input=stdin, capture_output=True,
                       timeout=120, cwd=cwd, env=env)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


tmp = tempfile.mkdtemp(prefix="quire-iface-")
spec = os.path.join(tmp, "spec.json")
with open(spec, "w") as f:
    json.dump({"title": "T", "blocks": [{"type": "paragraph", "text": "Hello"}]}, f)
md = os.path.join(tmp, "md.json")
with open(md, "w") as f:
    json.dump({"blocks": [{"type": "paragraph", "text": "## Intro"}]}, f)

# Every command has help, two ways, the same text.
code, out, _ = run(["--help"])
cmds = re.findall(r"^  ([a-z]+) ", out.decode(), re.M)
expect(code == 0 and len(cmds) >= 15, "quire --help lists %d commands" % len(cmds))
for c in cmds:
    c1, o1, _ = run(["help", c])
    c2, o2, _ = run([c, "--help"])
    expect(c1 == 0 and c2 == 0 and o1 == o2 and o1.startswith(b"usage: quire " + c.encode()),
           "quire help %s == quire %s --help" % (c, c))

# render --help lists every option render's parser takes, and the parser
# takes every option the help lists.
code, out, _ = run(["render", "--help"])
helped = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", out.decode().split("options:")[1]))
src = open(os.path.join(SRC, "cli", "cli.c")).read()
body = src[src.index("static int parse_render_args"):]
body = body[:body.index("\n}\n")]
parsed = set(re.findall(r'strcmp\(s, "(-[^"]+)"\)', body))
expect(code == 0 and parsed and parsed <= helped,
       "render --help lists every parsed option (%s)" % sorted(parsed - helped))
for flag in sorted(helped - {"-h", "--help"}):
    c, o, e = run(["render", spec, "-o", os.path.join(tmp, "x.html"), flag, "2"])
    expect("unknown option" not in o.decode(), "render takes %s" % flag)

# Unknown commands get a suggestion.
code, out, _ = run(["rendr", spec])
expect(code == 2 and "did you mean render" in out.decode(), "rendr -> did you mean render?")

# --store before or after the command.
store = os.path.join(tmp, "st")
code, out, _ = run(["--store", store, "create", "-k", "document", "--id", "a1", spec])
expect(code == 0 and json.loads(out)["artifact_id"] == "a1", "quire --store D create")
code, out, _ = run(["--store", store, "log", "a1"])
log = json.loads(out)
expect(code == 0 and log["head"] == 1 and log["artifact_id"] == "a1", "quire --store D log ID")
code2, out2, _ = run(["log", "a1", "--store", store])
expect(code2 == 0 and json.loads(out2)["head"] == 1, "quire log ID --store D")
code3, out3, _ = run(["--store=" + store, "log", "a1"])
expect(code3 == 0 and json.loads(out3)["head"] == 1, "quire --store=D log ID")

# A store error names the folder it looked in (the default follows the cwd).
code, out, _ = run(["log", "nope"], cwd=tmp, env={k: v for k, v in os.environ.items()
                                                 if k != "QUIRE_STORE"})
msg = json.loads(out)["errors"][0]["message"]
expect(code != 0 and os.path.join(tmp, ".quire") in msg, "store error names %s: %s" %
       (os.path.join(tmp, ".quire"), msg))

# -o -: the bytes on stdout, the result line on stderr.
code, out, err = run(["render", spec, "-o", "-", "-k", "document"])
res = json.loads(err.strip().splitlines()[-1])
ok = code == 0 and res["status"] == "ok" and res["size"] == len(out)
if ok:
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        ok = b"Hello" in z.read("word/document.xml")
expect(ok, "render -o - -k document writes the .docx to stdout")
code, out, err = run(["render", spec, "-o", "-", "--to", "html"])
expect(code == 0 and b"<p" in out and b"Hello" in out and '"status":"ok"' in err,
       "render -o - --to html")
code, out, _ = run(["render", spec, "-o", "-"])
expect(code == 2, "render -o - without a format is a usage error")

# check infers the kind from the shape.
for shape, kind in [({"slides": [{"title": "x"}]}, "presentation"),
                    ({"sheets": [{"rows": [[1]]}]}, "spreadsheet"),
                    ({"blocks": []}, "document")]:
    code, out, _ = run(["check", "-"], stdin=json.dumps(shape).encode())
    r = json.loads(out)
    expect(code == 0 and r["kind"] == kind, "check infers %s" % kind)

# --strict turns warnings into errors, and leaves no file.
out_path = os.path.join(tmp, "md.docx")
code, out, _ = run(["render", md, "-o", out_path])
expect(code == 0 and json.loads(out)["warnings"] and os.path.exists(out_path),
       "a warning: status ok, file written")
os.remove(out_path)
code, out, _ = run(["render", md, "-o", out_path, "--strict"])
r = json.loads(out)
expect(code == 1 and r["status"] == "error" and r["errors"][0]["path"] == "/blocks/0/text" and
       not os.path.exists(out_path), "--strict: exit 1, no file")
code, out, _ = run(["check", md, "--strict"])
expect(code == 1, "check --strict: exit 1")

# Library hints speak of the API, the CLI's of its options.
code, out, _ = run(["check", spec, "--max-input", "10"])
hint = json.loads(out)["errors"][0]["hint"]
expect(code == 4 and "--max-input" in hint and "qr_limits" not in hint, "CLI hint: %s" % hint)

# The man pages render, the completion completes.
for page in ["quire.1", "quire-spec.5"]:
    p = subprocess.run(["man", "-l", os.path.join(BIN, page)], capture_output=True,
                       env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="80"))
    text = p.stdout.decode()
    want = "--strict" if page == "quire.1" else "page_break"
    expect(p.returncode == 0 and want in text and "COMMANDS" in text or "OBJECTS" in text,
           "man -l build/%s renders" % page)
    g = subprocess.run(["groff", "-mdoc", "-ww", "-z", os.path.join(BIN, page)],
                       capture_output=True)
    expect(g.returncode == 0 and not g.stderr, "groff -ww finds nothing in %s: %s" %
           (page, g.stderr.decode()[:200]))


def complete(words):
    script = ("source '%s'; COMP_WORDS=(%s); COMP_CWORD=%d; _quire; echo \"${COMPREPLY[*]}\"" %
              (os.path.join(BIN, "quire.bash"), " ".join("'%s'" % w for w in words),
               len(words) - 1))
    return subprocess.run(["bash", "-c", script], capture_output=True).stdout.decode().split()


expect(complete(["quire", "ren"]) == ["render"], "completion: ren -> render")
expect(complete(["quire", "--store", "d", "lo"]) == ["log"], "completion after --store")
expect(complete(["quire", "check", "x", "-k", "p"]) == ["presentation", "pdf"],
       "completion: -k p -> presentation pdf")
expect("--strict" in complete(["quire", "render", "--st"]), "completion: render --st")

# cmake --install puts them in place.
prefix = os.path.join(tmp, "prefix")
p = subprocess.run(["cmake", "--install", BIN, "--prefix", prefix], capture_output=True)
for rel in ["share/man/man1/quire.1", "share/man/man5/quire-spec.5",
            "share/bash-completion/completions/quire"]:
    expect(p.returncode == 0 and os.path.exists(os.path.join(prefix, rel)), "installs " + rel)

shutil.rmtree(tmp)
if failures:
    print("%d failed" % len(failures))
    sys.exit(1)
print("ok")
