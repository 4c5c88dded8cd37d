#!/usr/bin/python3
"""test_cli_fonts.py: `quire fonts TEXT` and `quire fonts --spec SPEC [-k KIND]`.

Runs the built binary ($QUIRE) and checks the JSON lines it prints: the
spans (text, script, family, file, direction), the JSON pointer of each
text of a spec, the characters no font covers, and the exit codes.
"""
import json
import os
import subprocess
import sys
import tempfile

QUIRE = os.environ.get("QUIRE")
failures = []


def run(*args):
    p = subprocess.run([QUIRE, "fonts", *args], capture_output=True)
    lines = [json.loads(l) for l in p.stdout.decode("utf-8").splitlines() if l.strip()]
    return p.returncode, lines


def check(name, cond, detail=""):
    if not cond:
        failures.append("%s %s" % (name, detail))


def spans(lines):
    return [l for l in lines if "text" in l]


def main():
    if not QUIRE or not os.path.exists(QUIRE):
        print("QUIRE is not set to the built binary", file=sys.stderr)
        return 1

    rc, lines = run("Version 2 (نسخه)")
    s = spans(lines)
    check("ltr rc", rc == 0, rc)
    check("ltr tiles", "".join(x["text"] for x in s) == "Version 2 (نسخه)", s)
    check("ltr first", s[0]["text"] == "Version 2 " and s[0]["script"] == "latin"
          and s[0]["family"] == "DejaVu Sans" and s[0]["direction"] == "ltr", s[0])
    check("ltr paragraph", all(x["paragraph"] == "ltr" for x in s), s)
    ar = [x for x in s if x["text"] == "نسخه"]
    check("arabic span", len(ar) == 1 and ar[0]["script"] == "arabic"
          and ar[0]["family"] == "Noto Sans Arabic" and ar[0]["direction"] == "rtl"
          and ar[0]["file"].endswith("NotoSansArabic-Regular.ttf")
          and ar[0]["slot"] == "complex" and ar[0]["lang"] == "ar", ar)
    check("bracket joins arabic", [x["script"] for x in s if x["text"] == "("] == ["arabic"], s)

    rc, lines = run("123 سلام world")
    check("rtl paragraph", all(x["paragraph"] == "rtl" for x in spans(lines)), lines)
    check("digits join arabic", spans(lines)[0]["text"].startswith("123")
          and spans(lines)[0]["script"] == "arabic", lines)

    rc, lines = run("季度报告。四半期レポート。분기")
    fam = {x["text"]: x["family"] for x in spans(lines)}
    check("cjk sc", fam.get("季度报告。") == "Noto Sans CJK SC", fam)
    check("cjk jp", fam.get("四半期") == "Noto Sans CJK JP", fam)
    check("cjk kr", fam.get("분기") == "Noto Sans CJK KR", fam)
    rc, lines = run("--lang", "zh-TW", "季度报告")
    check("lang tc", spans(lines)[0]["family"] == "Noto Sans CJK TC", lines)

    rc, lines = run("Han 𠀀 here")
    miss = [l for l in lines if "missing" in l]
    check("missing", rc == 0 and miss == [{"missing": "U+20000", "char": "𠀀"}], lines)

    with tempfile.TemporaryDirectory() as d:
        spec = os.path.join(d, "spec.json")
        with open(spec, "w", encoding="utf-8") as f:
            json.dump({"title": "Rapport", "lang": "ja", "blocks": [
                {"type": "heading", "level": 1, "text": "季度报告"},
                {"type": "paragraph", "runs": ["Read (", {"text": "हिन्दी", "bold": True}, ")"]},
                {"type": "list", "items": ["שלום world"]},
            ]}, f, ensure_ascii=False)
        rc, lines = run("--spec", spec)
        check("spec rc", rc == 0, (rc, lines))
        by_path = {}
        for l in spans(lines):
            by_path.setdefault(l["path"], []).append(l)
        check("spec title", [x["text"] for x in by_path.get("/title", [])] == ["Rapport"], by_path)
        head = by_path.get("/blocks/0/text", [])
        check("spec lang flavour", len(head) == 1 and head[0]["family"] == "Noto Sans CJK JP"
              and head[0]["lang"] == "ja", head)
        para = [l for p, ls in by_path.items() if p.startswith("/blocks/1") for l in ls]
        check("spec runs", [(x["run"], x["text"], x["script"]) for x in para] ==
              [(0, "Read ", "latin"), (0, "(", "devanagari"), (1, "हिन्दी", "devanagari"),
               (2, ")", "devanagari")], para)
        lst = [l for p, ls in by_path.items() if p.startswith("/blocks/2") for l in ls]
        check("spec list", lst and lst[0]["paragraph"] == "rtl" and lst[0]["script"] == "hebrew",
              lst)
        rc, lines = run("--spec", spec, "-k", "pdf")
        check("spec -k", rc == 0 and len(spans(lines)) > 3, rc)

        bad = os.path.join(d, "bad.json")
        with open(bad, "w") as f:
            f.write('{"blocks":[{"type":"heading","level":9,"text":"x"}]}')
        rc, lines = run("--spec", bad)
        check("spec error", rc == 1 and lines and lines[0]["status"] == "error"
              and lines[0]["errors"][0]["path"] == "/blocks/0/level", (rc, lines))
        rc, lines = run("--spec", spec, "-k", "nonsense")
        check("bad kind", rc == 2, rc)

        # A fontconfig configuration with no fonts at all: still spans (naming
        # the table's families, no file) and every visible character reported.
        conf = os.path.join(d, "fonts.conf")
        with open(conf, "w") as f:
            f.write('<?xml version="1.0"?>\n<fontconfig></fontconfig>\n')
        env = dict(os.environ, FONTCONFIG_FILE=conf)
        p = subprocess.run([QUIRE, "fonts", "Hi हि"], capture_output=True, env=env)
        lines = [json.loads(l) for l in p.stdout.decode("utf-8").splitlines()]
        check("no fonts rc", p.returncode == 0, p.returncode)
        check("no fonts spans", [(x["text"], x["family"], x["file"]) for x in spans(lines)] ==
              [("Hi ", "DejaVu Sans", ""), ("हि", "Noto Sans Devanagari", "")], lines)
        check("no fonts missing", [x["missing"] for x in lines if "missing" in x] ==
              ["U+0048", "U+0069", "U+0939", "U+093F"], lines)

    rc, lines = run()
    check("no args", rc == 2 and lines[0]["status"] == "error", (rc, lines))
    rc, lines = run("a", "b")
    check("two texts", rc == 2, rc)
    rc, lines = run("-k", "pdf", "text")
    check("-k without spec", rc == 2, rc)
    rc, lines = run("--spec", "/nonexistent/spec.json")
    check("no file", rc == 3 and lines[0]["status"] == "error", (rc, lines))
    p = subprocess.run([QUIRE, "fonts", "--help"], capture_output=True)
    check("help", p.returncode == 0 and b"quire fonts" in p.stdout, p.returncode)

    for f in failures:
        print("FAIL:", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
