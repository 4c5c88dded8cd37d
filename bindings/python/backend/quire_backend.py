"""quire_backend: the PEP 517 build backend of the Python package, in the
tree (pyproject.toml's backend-path), using nothing but the standard library
and CMake, so that `pip install ./bindings/python` works in a fresh venv with
no network and no setuptools or wheel.

build_wheel runs CMake on the source tree two folders up (or, from an sdist,
on its src/ folder) to build libquire.so only (no tests, no CLI), then writes
a wheel with the zipfile module:

    quire/__init__.py     bindings/python/quire.py
    quire/libquire.so     the library just built (quire.py loads it from
                          beside itself: no QUIRE_LIB needed)
    quire/py.typed        the module carries its type hints (PEP 561)
    quire-V.dist-info/    METADATA, WHEEL, top_level.txt, RECORD

The wheel is tagged py3-none-<platform>: it holds a native library, loaded
through ctypes, so no CPython ABI tag. Settings (pip's --config-settings,
or the environment): build-dir / QUIRE_WHEEL_BUILD_DIR keeps the CMake build
folder there (an incremental rebuild next time; default: a temporary folder,
removed), jobs / QUIRE_WHEEL_JOBS the parallel compile jobs (default: the
CPU count), build-type / QUIRE_WHEEL_BUILD_TYPE (default Release).
"""
import base64
import hashlib
import io
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tempfile
import zipfile

NAME = "quire"
HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # bindings/python
SUMMARY = ("Python binding of libquire: JSON spec to docx, xlsx, pptx, pdf, html, png, "
           "and a versioned store")
EPOCH = (1980, 1, 1, 0, 0, 0)  # every member's time: the same tree makes the same wheel


def _root():
    """The C source tree: an sdist's src/ or the repository two folders up."""
    for cand in (os.path.join(HERE, "src"), os.path.abspath(os.path.join(HERE, "..", ".."))):
        if os.path.exists(os.path.join(cand, "CMakeLists.txt")):
            return cand
    raise RuntimeError("quire_backend: no CMakeLists.txt in %s/src or two folders up: "
                       "build from a checkout of quire" % HERE)


def _version():
    """project(quire VERSION x.y.z) of the top CMakeLists.txt."""
    with open(os.path.join(_root(), "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(\s*quire\s+VERSION\s+([0-9.]+)", f.read())
    if not m:
        raise RuntimeError("quire_backend: no project(quire VERSION ...) in CMakeLists.txt")
    return m.group(1)


def _setting(config, key, env, default):
    v = (config or {}).get(key)
    if v is None:
        v = os.environ.get(env)
    return v if v not in (None, "") else default


def _metadata():
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\nRequires-Python: >=3.8\n"
            "License: see the quire source tree\n" % (NAME, _version(), SUMMARY))


def _tag():
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-" + plat


def _wheel_text():
    return ("Wheel-Version: 1.0\nGenerator: quire_backend\nRoot-Is-Purelib: false\nTag: %s\n"
            % _tag())


def _dist_info():
    return "%s-%s.dist-info" % (NAME, _version())


def _log(msg):
    print("quire_backend: " + msg, file=sys.stderr, flush=True)


def _build_library(config):
    """Build libquire.so with CMake; returns (its path, the folder to remove or None)."""
    cmake = shutil.which("cmake")
    if not cmake:
        raise RuntimeError("quire_backend: cmake is not on PATH (Debian: apt-get install cmake; "
                           "the C dependencies: bash scripts/setup.sh)")
    keep = _setting(config, "build-dir", "QUIRE_WHEEL_BUILD_DIR", None)
    build = os.path.abspath(keep) if keep else tempfile.mkdtemp(prefix="quire-wheel-")
    jobs = str(_setting(config, "jobs", "QUIRE_WHEEL_JOBS", os.cpu_count() or 1))
    btype = _setting(config, "build-type", "QUIRE_WHEEL_BUILD_TYPE", "Release")
    configure = [cmake, "-S", _root(), "-B", build, "-DCMAKE_BUILD_TYPE=" + btype,
                 "-DQUIRE_TESTS=OFF", "-DQUIRE_BENCH=OFF"]
    _log(" ".join(configure))
    subprocess.run(configure, check=True, stdout=sys.stderr)
    compile_ = [cmake, "--build", build, "--target", "quire_shared", "-j", jobs]
    _log(" ".join(compile_))
    subprocess.run(compile_, check=True, stdout=sys.stderr)
    lib = os.path.join(build, "libquire.so")
    if not os.path.exists(lib):
        raise RuntimeError("quire_backend: CMake built no %s" % lib)
    return os.path.realpath(lib), None if keep else build


def _record_line(arc, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return "%s,sha256=%s,%d" % (arc, digest, len(data))


def _add(zf, records, arc, data, mode=0o644):
    info = zipfile.ZipInfo(arc, date_time=EPOCH)
    info.external_attr = (0o100000 | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, data)
    records.append(_record_line(arc, data))


# ---- PEP 517 hooks ----------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []  # the standard library and CMake: nothing to fetch


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    """The dist-info without compiling (pip asks for it first)."""
    d = os.path.join(metadata_directory, _dist_info())
    os.makedirs(d, exist_ok=True)
    for name, text in (("METADATA", _metadata()), ("WHEEL", _wheel_text()), ("top_level.txt", NAME + "\n")):
        with open(os.path.join(d, name), "w", encoding="utf-8") as f:
            f.write(text)
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    lib, scratch = _build_library(config_settings)
    try:
        with open(lib, "rb") as f:
            lib_bytes = f.read()
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    with open(os.path.join(HERE, "quire.py"), "rb") as f:
        module = f.read()
    name = "%s-%s-%s.whl" % (NAME, _version(), _tag())
    path = os.path.join(wheel_directory, name)
    di = _dist_info()
    records = []
    with zipfile.ZipFile(path, "w") as zf:
        _add(zf, records, "quire/__init__.py", module)
        _add(zf, records, "quire/libquire.so", lib_bytes, 0o755)
        _add(zf, records, "quire/py.typed", b"")
        _add(zf, records, di + "/METADATA", _metadata().encode("utf-8"))
        _add(zf, records, di + "/WHEEL", _wheel_text().encode("utf-8"))
        _add(zf, records, di + "/top_level.txt", (NAME + "\n").encode("utf-8"))
        records.append(di + "/RECORD,,")
        info = zipfile.ZipInfo(di + "/RECORD", date_time=EPOCH)
        info.external_attr = 0o100644 << 16
        zf.writestr(info, "\n".join(records) + "\n")
    _log("wrote %s (%d bytes)" % (path, os.path.getsize(path)))
    return name


def _source_files(root):
    """The files of the C tree an sdist carries: git's list when the tree is a
    checkout, else every file outside build folders and dot folders."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True,
                             capture_output=True).stdout
        files = [f for f in out.decode("utf-8").split("\0") if f]
        if files:
            return sorted(f for f in files if os.path.isfile(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for d, dirs, names in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = sorted(x for x in dirs if not x.startswith((".", "build")))
        files += [os.path.normpath(os.path.join(rel, n)) for n in sorted(names)]
    return files


def build_sdist(sdist_directory, config_settings=None):
    """quire-V.tar.gz: this folder's pyproject.toml, quire.py and backend at
    the top, the C tree (without bindings/python) under src/."""
    root = _root()
    base = "%s-%s" % (NAME, _version())
    name = base + ".tar.gz"

    def norm(ti):
        ti.uid = ti.gid = 0
        ti.uname = ti.gname = ""
        ti.mtime = 315532800
        return ti

    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tf:
        for rel in ("pyproject.toml", "quire.py", os.path.join("backend", "quire_backend.py")):
            tf.add(os.path.join(HERE, rel), arcname=base + "/" + rel, filter=norm)
        for rel in _source_files(root):
            if rel.startswith("bindings/python/"):
                continue
            tf.add(os.path.join(root, rel), arcname=base + "/src/" + rel, filter=norm)
        info = norm(tarfile.TarInfo(base + "/PKG-INFO"))
        data = _metadata().encode("utf-8")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    return name
