"""quire: Python binding of libquire (ctypes, standard library only).

Render a spec, or keep versioned artifacts in a store, from a Python
gateway::

    import quire
    pdf = quire.render({"title": "T", "blocks": [...]}, "pdf")     # bytes, with .pages, .warnings
    png = quire.render(spec, "document", "png", png_page=2, dpi=150, base_dir="img")

    with quire.Store("/var/lib/quire") as st:       # or "postgresql://user@host/db"
        a = st.create("document", spec, title="Q3 report", owner="alice")
        st.edit(a["artifact_id"], append={"blocks": [{"type": "page_break"}]})
        st.edit(a["artifact_id"], ops=[{"op": "replace", "path": "/title", "value": "Q4"}])
        data = st.export(a["artifact_id"])                          # head's bytes
        page = st.list(owner="alice", limit=20)       # {"artifacts": [...], "next": cursor}
        st.delete(a["artifact_id"])

    # the edit engine alone, for hosts that keep specs themselves
    new_spec = quire.spec_edit(spec, "document", append={"blocks": [...]})
    text = quire.spec_canonical(spec)

Results are dicts shaped like DocsGPT's tool payload
(``{"status": "ok", "artifact_id", "version", "filename", "mime_type",
"size", ...}``). Every failure raises QuireError, whose ``errors`` is the
list of ``{"path", "message", "hint"}`` (JSON pointers into the spec, or
into the edit request ``{"spec_patch", "spec_append", "ops"}``).

Specs, patches, appends and ops may be given as Python objects or as JSON
text. The library is found through $QUIRE_LIB, else next to this file or in
the source tree's build folders, else on the loader's path; it must be
built from the same source (the struct layouts are checked at load). Calls
release the GIL; a Store may be shared by threads, and close() waits for the
calls in flight (new calls on a closed Store raise QuireError).
"""
import ctypes
import ctypes.util
import glob
import json
import os
import threading
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, Union, overload

try:
    from typing import Literal, TypedDict
except ImportError:  # Python 3.7: the names only annotate
    Literal = TypedDict = None  # type: ignore

__all__ = ["QuireError", "InvalidError", "UsageError", "FailedError", "DamagedError", "LimitError",
           "QuotaError", "NotFoundError", "ConflictError", "UnavailableError", "Store", "Rendered",
           "render", "check", "read", "read_chunks", "schema", "spec_edit", "spec_canonical",
           "format_available", "KINDS", "FORMATS", "LAYOUT_KINDS", "STORE_ABI", "Spec", "Payload", "Chunk"]
STORE_ABI = 5  # QR_STORE_ABI of the quire/store.h this binding mirrors

KINDS = ("document", "spreadsheet", "presentation", "pdf", "html")
FORMATS = ("docx", "xlsx", "pptx", "pdf", "html", "png")
# A spec (or patch, append, ops) as Python objects or as JSON text.
Spec = Union[Dict[str, Any], List[Any], str, bytes]
# A store result: DocsGPT's tool payload ({"status", "artifact_id", "version", ...}).
Payload = Dict[str, Any]
# A file to read: its bytes, or a path.
_File = Union[bytes, bytearray, str, "os.PathLike[str]"]
if TypedDict is not None:
    Chunk = TypedDict("Chunk", {"headings": List[str], "text": str, "chars": int})
else:  # pragma: no cover
    Chunk = Dict[str, Any]  # type: ignore

_KIND_FORMAT = {"document": "docx", "spreadsheet": "xlsx", "presentation": "pptx", "pdf": "pdf",
                "html": "html"}


class QuireError(Exception):
    """A failed call. error_code: the stable code a program branches on
    ("invalid", "usage", "failed", "damaged", "limit", "quota", "not_found",
    "conflict", "unavailable"; README "Error codes"), also the subclass
    raised; retryable: True for "unavailable" (repeat the call; a write
    that lost its commit is safe to repeat with the same key=); status: "spec error", "not found"...; code: the
    qr_status number; exit_code: what the CLI would exit with;
    errors: [{"path", "message", "hint"}]."""

    error_code = "failed"

    def __init__(self, message, status="error", code=0, errors=None, exit_code=1):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.errors = errors or []
        self.exit_code = exit_code
        self.retryable = self.error_code == "unavailable"
        self.head = None  # a store write's failure: the artifact's head version, when known


class InvalidError(QuireError):
    """The spec or the edit is invalid (errors name JSON pointers)."""
    error_code = "invalid"


class UsageError(QuireError):
    """Bad arguments: an unknown kind, a malformed id, a missing format."""
    error_code = "usage"


class FailedError(QuireError):
    """A local failure: a file, a render, memory."""
    error_code = "failed"


class DamagedError(QuireError):
    """The store is damaged (run fsck); not retryable."""
    error_code = "damaged"


class LimitError(QuireError):
    """An input or output limit was exceeded."""
    error_code = "limit"


class QuotaError(QuireError):
    """An owner quota was exceeded."""
    error_code = "quota"


class NotFoundError(QuireError):
    """No such artifact or version (or one another owner holds)."""
    error_code = "not_found"


class ConflictError(QuireError):
    """The id exists, or the head is not the expected version."""
    error_code = "conflict"


class UnavailableError(QuireError):
    """The database cannot be reached or the connection broke: retryable."""
    error_code = "unavailable"


_BY_CODE = {c.error_code: c for c in (InvalidError, UsageError, FailedError, DamagedError, LimitError,
                                      QuotaError, NotFoundError, ConflictError, UnavailableError)}


def _usage(message):
    return UsageError(message, status="usage error", code=5, exit_code=2)


# ---- the C types -------------------------------------------------------------

class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("path", ctypes.c_char_p), ("message", ctypes.c_char_p),
                ("hint", ctypes.c_char_p)]


class _ErrList(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(_Error)), ("count", ctypes.c_size_t),
                ("cap", ctypes.c_size_t), ("oom", ctypes.c_int)]


class _LayoutItem(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("path", ctypes.c_char_p), ("page", ctypes.c_int),
                ("slide", ctypes.c_int), ("value", ctypes.c_double), ("detail", ctypes.c_char_p)]


class _LayoutList(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(_LayoutItem)), ("count", ctypes.c_size_t),
                ("cap", ctypes.c_size_t), ("oom", ctypes.c_int)]


class _RenderStats(ctypes.Structure):
    _fields_ = [("threads", ctypes.c_int), ("faces_pinned", ctypes.c_int), ("faces_pinned_late", ctypes.c_int),
                ("toc_early", ctypes.c_int),
                ("toc_fontconfig", ctypes.c_int)]


class _Result(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("data", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("pages", ctypes.c_int), ("errors", _ErrList), ("warnings", _ErrList), ("kind", ctypes.c_int),
                ("stats", _RenderStats), ("layout", _LayoutList)]


class _RenderOpts(ctypes.Structure):
    _fields_ = [("base_dir", ctypes.c_char_p), ("png_page", ctypes.c_int), ("png_dpi", ctypes.c_int),
                ("max_input", ctypes.c_size_t), ("max_output", ctypes.c_size_t),
                ("strict", ctypes.c_int), ("png_contact", ctypes.c_int),
                ("notes", ctypes.c_int), ("page_first", ctypes.c_int), ("page_last", ctypes.c_int),
                ("threads", ctypes.c_int), ("xlsx_stream", ctypes.c_int),
                ("max_work", ctypes.c_size_t),
                ("strict_layout", ctypes.c_uint), ("read_timeout", ctypes.c_int)]

# The layout report's kinds, in qr_layout_kind order (quire.h).
LAYOUT_KINDS = ("shrink", "continued", "small_text", "contrast", "image_upscaled", "table_cut",
                "word_broken", "missing_glyph")


_CLOCK = ctypes.CFUNCTYPE(ctypes.c_longlong, ctypes.c_void_p)


class _StoreOpts(ctypes.Structure):
    _fields_ = [("max_artifacts", ctypes.c_ulonglong), ("max_total_bytes", ctypes.c_ulonglong),
                ("max_version_bytes", ctypes.c_ulonglong), ("now", _CLOCK),
                ("now_arg", ctypes.c_void_p), ("no_sync", ctypes.c_int),
                ("max_output", ctypes.c_size_t), ("owner", ctypes.c_char_p),
                ("trash_retention", ctypes.c_longlong)]


class _Version(ctypes.Structure):
    _fields_ = [("version", ctypes.c_int), ("action", ctypes.c_char * 16), ("parent", ctypes.c_int),
                ("restored_from", ctypes.c_int), ("created", ctypes.c_char * 32),
                ("spec_sha256", ctypes.c_char * 65), ("spec_size", ctypes.c_ulonglong),
                ("sha256", ctypes.c_char * 65), ("size", ctypes.c_ulonglong),
                ("filename", ctypes.c_char_p), ("mime_type", ctypes.c_char_p),
                ("pages", ctypes.c_int), ("warnings", ctypes.c_char_p)]


class _Item(ctypes.Structure):
    _fields_ = [("artifact_id", ctypes.c_char * 65), ("kind", ctypes.c_char_p), ("title", ctypes.c_char_p),
                ("owner", ctypes.c_char_p), ("created", ctypes.c_char * 32), ("head", ctypes.c_int),
                ("deleted", ctypes.c_char * 32)]


class _List(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("items", ctypes.POINTER(_Item)), ("count", ctypes.c_size_t),
                ("next", ctypes.c_char * 112), ("errors", _ErrList)]


class _StoreResult(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("artifact_id", ctypes.c_char * 65),
                ("kind", ctypes.c_char_p), ("title", ctypes.c_char_p), ("owner", ctypes.c_char_p),
                ("head", ctypes.c_int), ("unchanged", ctypes.c_int), ("version", _Version),
                ("spec", ctypes.c_void_p), ("spec_len", ctypes.c_size_t),
                ("data", ctypes.c_void_p), ("size", ctypes.c_size_t),
                ("log", ctypes.POINTER(_Version)), ("log_count", ctypes.c_size_t),
                ("errors", _ErrList), ("warnings", _ErrList), ("replayed", ctypes.c_int)]


class _StoreWrite(ctypes.Structure):
    _fields_ = [("if_version", ctypes.c_int), ("key", ctypes.c_char_p)]


def _cond(if_version, key=None):
    w = _StoreWrite()
    if if_version is not None:
        if isinstance(if_version, bool) or not isinstance(if_version, int) or if_version < 1:
            raise _usage("if_version must be a version number from 1")
        w.if_version = if_version
    if key is not None:
        if not isinstance(key, str):
            raise _usage("key must be a str (1 to 255 printable ASCII characters)")
        w.key = key.encode("utf-8")
    return ctypes.byref(w)


class _Diff(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("from_", ctypes.c_int), ("to", ctypes.c_int),
                ("added", ctypes.POINTER(ctypes.c_char_p)), ("removed", ctypes.POINTER(ctypes.c_char_p)),
                ("changed", ctypes.POINTER(ctypes.c_char_p)), ("n_added", ctypes.c_size_t),
                ("n_removed", ctypes.c_size_t), ("n_changed", ctypes.c_size_t),
                ("unified", ctypes.c_char_p), ("errors", _ErrList)]


class _Fsck(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("artifacts", ctypes.c_size_t), ("versions", ctypes.c_size_t),
                ("blobs", ctypes.c_size_t), ("problems", _ErrList), ("stray", _ErrList),
                ("repaired", ctypes.c_size_t), ("trashed", ctypes.c_size_t)]


class _Purge(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("purged", ctypes.c_size_t), ("kept", ctypes.c_size_t),
                ("cutoff", ctypes.c_char * 32), ("errors", _ErrList)]


# ---- loading ----------------------------------------------------------------------

def _find_library():
    env = os.environ.get("QUIRE_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "libquire.so")]
    root = os.path.abspath(os.path.join(here, "..", ".."))
    candidates += sorted(glob.glob(os.path.join(root, "build*", "libquire.so")))
    for c in candidates:
        if os.path.exists(c):
            return c
    found = ctypes.util.find_library("quire")
    if found:
        return found
    raise OSError("libquire.so not found: set QUIRE_LIB to its path")


_lib = None


def _L():
    global _lib
    if _lib is not None:
        return _lib
    lib = ctypes.CDLL(_find_library())
    P, c = ctypes.POINTER, ctypes
    sigs = {
        "qr_render_mem": (c.c_int, [c.c_char_p, c.c_size_t, c.c_int, c.c_int, P(_RenderOpts), P(_Result)]),
        "qr_check": (c.c_int, [c.c_char_p, c.c_size_t, c.c_int, P(_Result)]),
        "qr_schema": (c.c_int, [c.c_int, c.c_int, P(_Result)]),
        "qr_result_free": (None, [P(_Result)]),
        "qr_status_str": (c.c_char_p, [c.c_int]),
        "qr_layout_kind_str": (c.c_char_p, [c.c_int]),
        "qr_status_exit": (c.c_int, [c.c_int]),
        "qr_status_code": (c.c_char_p, [c.c_int]),
        "qr_kind_from_str": (c.c_int, [c.c_char_p, P(c.c_int)]),
        "qr_format_from_path": (c.c_int, [c.c_char_p, P(c.c_int)]),
        "qr_format_available": (c.c_int, [c.c_int]),
        "qr_errlist_clear": (None, [P(_ErrList)]),
        "qr_store_opts_default": (None, [P(_StoreOpts)]),
        "qr_store_open": (c.c_int, [c.c_char_p, P(_StoreOpts), P(c.c_void_p), P(_ErrList)]),
        "qr_store_close": (None, [c.c_void_p]),
        "qr_store_result_free": (None, [P(_StoreResult)]),
        "qr_store_create": (c.c_int, [c.c_void_p, c.c_int, c.c_char_p, c.c_size_t, c.c_char_p, c.c_char_p,
                                      c.c_char_p, P(_StoreResult)]),
        "qr_store_create_with": (c.c_int, [c.c_void_p, c.c_int, c.c_char_p, c.c_size_t, c.c_char_p,
                                           c.c_char_p, c.c_char_p, P(_StoreWrite), P(_StoreResult)]),
        "qr_store_import_with": (c.c_int, [c.c_void_p, c.c_int, c.c_char_p, c.c_size_t, c.c_char_p,
                                           c.c_size_t, c.c_char_p, c.c_char_p, c.c_char_p, P(_StoreWrite),
                                           P(_StoreResult)]),
        "qr_store_edit": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p,
                                    P(_StoreResult)]),
        "qr_store_rewrite": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_size_t, P(_StoreResult)]),
        "qr_store_restore": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, P(_StoreResult)]),
        "qr_store_show": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, P(_StoreResult)]),
        "qr_store_log": (c.c_int, [c.c_void_p, c.c_char_p, P(_StoreResult)]),
        "qr_store_export": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, P(_StoreResult)]),
        "qr_store_diff_versions": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, c.c_int, P(_Diff)]),
        "qr_store_diff_free": (None, [P(_Diff)]),
        "qr_store_fsck_run": (c.c_int, [c.c_void_p, c.c_int, P(_Fsck)]),
        "qr_store_fsck_free": (None, [P(_Fsck)]),
        "qr_store_abi": (c.c_int, []),
        "qr_store_log_limit": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, P(_StoreResult)]),
        "qr_store_delete": (c.c_int, [c.c_void_p, c.c_char_p, P(_StoreResult)]),
        "qr_store_edit_with": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_char_p,
                                         P(_StoreWrite), P(_StoreResult)]),
        "qr_store_rewrite_with": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_size_t, P(_StoreWrite),
                                            P(_StoreResult)]),
        "qr_store_restore_with": (c.c_int, [c.c_void_p, c.c_char_p, c.c_int, P(_StoreWrite), P(_StoreResult)]),
        "qr_store_delete_with": (c.c_int, [c.c_void_p, c.c_char_p, P(_StoreWrite), P(_StoreResult)]),
        "qr_store_undelete_with": (c.c_int, [c.c_void_p, c.c_char_p, P(_StoreWrite), P(_StoreResult)]),
        "qr_store_purge_artifact": (c.c_int, [c.c_void_p, c.c_char_p, P(_StoreWrite), P(_StoreResult)]),
        "qr_store_purge": (c.c_int, [c.c_void_p, P(_Purge)]),
        "qr_store_purge_free": (None, [P(_Purge)]),
        "qr_store_list_trash": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_size_t, P(_List)]),
        "qr_store_list": (c.c_int, [c.c_void_p, c.c_char_p, c.c_char_p, c.c_char_p, c.c_size_t, P(_List)]),
        "qr_store_list_free": (None, [P(_List)]),
        "qr_spec_edit": (c.c_int, [c.c_char_p, c.c_size_t, c.c_int, c.c_char_p, c.c_char_p, c.c_char_p,
                                   P(c.c_void_p), P(c.c_size_t), P(_ErrList)]),
        "qr_spec_canonical": (c.c_int, [c.c_char_p, c.c_size_t, c.c_int, P(c.c_void_p), P(c.c_size_t),
                                        P(_ErrList)]),
        "free": (None, [c.c_void_p]),
    }
    libc = ctypes.CDLL(None)
    for name, (res, args) in sigs.items():
        if not hasattr(lib, name) and name != "free":
            raise OSError("%s has no %s: it is older than this binding; rebuild libquire" % (lib._name, name))
        fn = getattr(lib if name != "free" else libc, name)
        fn.restype = res
        fn.argtypes = args
    if lib.qr_store_abi() != STORE_ABI:
        raise OSError("%s has store ABI %d, this binding needs %d: install the binding of the same quire"
                      % (lib._name, lib.qr_store_abi(), STORE_ABI))
    _lib = lib
    return lib


# ---- helpers ------------------------------------------------------------------------

def _s(b):
    return b.decode("utf-8", "replace") if b is not None else None


def _errors(el):
    out = []
    for i in range(el.count):
        e = el.items[i]
        out.append({"path": _s(e.path), "message": _s(e.message), "hint": _s(e.hint)})
    return out


def _layout(ll):
    out = []
    for i in range(ll.count):
        it = ll.items[i]
        item = {"kind": _s(_L().qr_layout_kind_str(it.kind)), "path": _s(it.path)}
        if it.slide:
            item["slide"] = it.slide
        if it.page:
            item["page"] = it.page
        item["value"] = round(it.value, 4)
        item["detail"] = _s(it.detail)
        out.append(item)
    return out


def _strict_bits(kinds):
    bits = 0
    for name in kinds or ():
        if name == "layout":
            bits |= (1 << len(LAYOUT_KINDS)) - 1
        elif name in LAYOUT_KINDS:
            bits |= 1 << LAYOUT_KINDS.index(name)
        else:
            raise _usage("unknown layout report kind %r: use %s" % (name, ", ".join(LAYOUT_KINDS)))
    return bits


def _raise(status, errlist, head=0):
    lib = _L()
    errors = _errors(errlist)
    name = _s(lib.qr_status_str(status))
    if len(errors) == 1:
        msg = errors[0]["message"]
    elif status == 1:
        msg = "%d spec errors" % len(errors)
    else:
        msg = "%s (%d errors)" % (name, len(errors))
    cls = _BY_CODE.get(_s(lib.qr_status_code(status)), QuireError)
    e = cls(msg, status=name, code=status, errors=errors, exit_code=lib.qr_status_exit(status))
    e.head = head or None
    raise e


def _json_bytes(value, what):
    """JSON text of value: a str is sent as is (the library unwraps a JSON
    string holding an object), anything else is dumped."""
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    try:
        return json.dumps(value, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as e:
        raise _usage("%s is not JSON-serialisable: %s" % (what, e))


def _kind(kind):
    k = ctypes.c_int()
    if not isinstance(kind, str) or _L().qr_kind_from_str(kind.encode(), ctypes.byref(k)) != 0:
        raise _usage("unknown kind %r: use %s" % (kind, ", ".join(KINDS)))
    return k.value


def _format(fmt):
    f = ctypes.c_int()
    if not isinstance(fmt, str) or _L().qr_format_from_path(("x." + fmt).encode(), ctypes.byref(f)) != 0:
        raise _usage("unknown format %r: use %s" % (fmt, ", ".join(FORMATS)))
    return f.value


def format_available(fmt: str) -> bool:
    """Whether this libquire can render the format ("docx", "pdf", ...)."""
    return bool(_L().qr_format_available(_format(fmt)))


class Rendered(bytes):
    """The bytes of a render, with what the render reports: pages (pages of
    a PDF or PNG, slides, sheets; 0 when unknown), warnings
    ([{"path", "message", "hint"}], e.g. characters no font covers) and
    layout, the layout report ([{"kind", "path", "slide" or "page",
    "value", "detail"}]: text shrunk, continued, ...; [] when nothing to say)."""

    pages: int = 0
    warnings: Tuple[Dict[str, Any], ...] = ()
    layout: Tuple[Dict[str, Any], ...] = ()

    @property
    def data(self) -> bytes:
        return bytes(self)


def render(spec: Spec, kind: str, format: Optional[str] = None, max_output: int = 0, png_page: int = 1,
           dpi: int = 96, base_dir: Optional[str] = None, strict_layout: Iterable[str] = ()) -> Rendered:
    """Render spec (dict or JSON text) of kind ("document", ...) in format
    (default: the kind's own, e.g. document -> docx; documents also render
    to "pdf", "html" and "png"). png_page and dpi choose the page of a PNG
    and its resolution; base_dir is the folder image files are read from;
    strict_layout names layout report kinds (LAYOUT_KINDS, or "layout" for
    all) that fail the render with a spec error instead.
    Returns a Rendered: bytes, with .pages, .warnings and .layout."""
    lib = _L()
    k = _kind(kind)
    f = _format(format or _KIND_FORMAT[kind])
    text = _json_bytes(spec, "spec")
    opts = _RenderOpts(os.fsencode(base_dir) if base_dir is not None else None, int(png_page), int(dpi), 0,
                       max_output)
    opts.strict_layout = _strict_bits(strict_layout)
    res = _Result()
    st = lib.qr_render_mem(text, len(text), k, f, ctypes.byref(opts), ctypes.byref(res))
    try:
        if st != 0:
            _raise(st, res.errors)
        out = Rendered(ctypes.string_at(res.data, res.size))
        out.pages = res.pages
        out.warnings = _errors(res.warnings)
        out.layout = _layout(res.layout)
        return out
    finally:
        lib.qr_result_free(ctypes.byref(res))


def _take_text(lib, st, out, n, errs):
    try:
        if st != 0:
            _raise(st, errs)
        return ctypes.string_at(out.value, n.value).decode("utf-8")
    finally:
        lib.free(out)
        lib.qr_errlist_clear(ctypes.byref(errs))


def spec_edit(spec: Spec, kind: str, patch: Optional[Spec] = None, append: Optional[Spec] = None,
              ops: Optional[Spec] = None) -> Dict[str, Any]:
    """The edit engine without a store: merge patch, append and JSON Patch
    ops (in that order) on spec, then validation as kind. Returns the
    edited spec (Python objects); errors raise QuireError with paths."""
    lib = _L()
    text = _json_bytes(spec, "spec")
    out, n, errs = ctypes.c_void_p(), ctypes.c_size_t(), _ErrList()
    st = lib.qr_spec_edit(text, len(text), _kind(kind), _json_bytes(patch, "patch"), _json_bytes(append, "append"),
                          _json_bytes(ops, "ops"), ctypes.byref(out), ctypes.byref(n), ctypes.byref(errs))
    return json.loads(_take_text(lib, st, out, n, errs))


def spec_canonical(spec: Spec, kind: Optional[str] = None) -> str:
    """The canonical JSON text of spec (what a store keeps and hashes);
    with kind, validated as that kind too."""
    lib = _L()
    text = _json_bytes(spec, "spec")
    out, n, errs = ctypes.c_void_p(), ctypes.c_size_t(), _ErrList()
    st = lib.qr_spec_canonical(text, len(text), _kind(kind) if kind is not None else -1, ctypes.byref(out),
                               ctypes.byref(n), ctypes.byref(errs))
    return _take_text(lib, st, out, n, errs)


def check(spec: Spec, kind: str) -> None:
    """Validate spec without rendering; raises QuireError listing every error."""
    lib = _L()
    text = _json_bytes(spec, "spec")
    res = _Result()
    st = lib.qr_check(text, len(text), _kind(kind), ctypes.byref(res))
    try:
        if st != 0:
            _raise(st, res.errors)
    finally:
        lib.qr_result_free(ctypes.byref(res))


def schema(kind: str = "document", edit: bool = False) -> Dict[str, Any]:
    """The JSON Schema (draft 2020-12) of kind's spec, or with edit=True of the
    edit payload {spec_patch, spec_append, ops} of kind (spec_append's items
    typed as kind's top-level lists), as a dict: what a gateway
    hands a model as a tool's parameters."""
    lib = _L()
    res = _Result()
    st = lib.qr_schema(_kind(kind), 1 if edit else 0, ctypes.byref(res))
    try:
        if st != 0:
            _raise(st, res.errors)
        return json.loads(ctypes.string_at(res.data, res.size))
    finally:
        lib.qr_result_free(ctypes.byref(res))


def _version(v):
    d = {"version": v.version, "action": _s(v.action), "parent": v.parent or None,
         "created": _s(v.created), "size": v.size, "sha256": _s(v.sha256),
         "spec_sha256": _s(v.spec_sha256), "spec_size": v.spec_size, "filename": _s(v.filename),
         "mime_type": _s(v.mime_type), "pages": v.pages,
         "warnings": json.loads(_s(v.warnings)) if v.warnings else []}
    if v.restored_from:
        d["restored_from"] = v.restored_from
    return d


class Store:
    """A versioned artifact store: a folder (created if absent) or a
    PostgreSQL database ("postgresql://user@host/db"; tables created if
    absent).

    Quotas are per owner; 0 disables one. now: a function returning the
    time (seconds since 1970, UTC) recorded as versions' "created".
    owner: open the store for that owner only: other owners' artifacts
    raise NotFoundError as a missing id does, list() shows only the
    owner's, create() makes the owner's (None: every owner, the admin view)."""

    def __init__(self, path: Union[str, "os.PathLike[str]"], max_artifacts: int = 5000,
                 max_total_bytes: int = 5 << 30, max_version_bytes: int = 50 << 20, max_output: int = 0,
                 no_sync: bool = False, now: Optional[Callable[[], float]] = None,
                 owner: Optional[str] = None, trash_retention: Optional[int] = None) -> None:
        lib = _L()
        opts = _StoreOpts()
        lib.qr_store_opts_default(ctypes.byref(opts))
        opts.max_artifacts = max_artifacts
        opts.max_total_bytes = max_total_bytes
        opts.max_version_bytes = max_version_bytes
        opts.max_output = max_output
        opts.no_sync = 1 if no_sync else 0
        self._owner = owner.encode("utf-8") if owner is not None else None  # kept alive for the call
        opts.owner = self._owner
        if trash_retention is not None:
            opts.trash_retention = int(trash_retention)
        self._clock = _CLOCK(lambda _arg: int(now())) if now else _CLOCK()
        opts.now = self._clock
        self._h = ctypes.c_void_p()
        self._cv = threading.Condition()
        self._busy = 0
        self._closing = False
        errs = _ErrList()
        loc = path.encode("utf-8") if isinstance(path, str) and "://" in path else os.fsencode(path)
        st = lib.qr_store_open(loc, ctypes.byref(opts), ctypes.byref(self._h), ctypes.byref(errs))
        if st != 0:
            try:
                _raise(st, errs)
            finally:
                lib.qr_errlist_clear(ctypes.byref(errs))
        self.path = path

    def close(self) -> None:
        """Close the store: new calls raise QuireError at once, calls in
        flight (other threads) finish first."""
        cv = getattr(self, "_cv", None)
        if cv is None:
            return
        with cv:
            self._closing = True
            while self._busy:
                cv.wait()
            h, self._h = self._h, ctypes.c_void_p()
        if h:
            _L().qr_store_close(h)

    def _enter(self):
        with self._cv:
            if self._closing or not self._h:
                raise _usage("the store is closed")
            self._busy += 1
            return self._h

    def _leave(self):
        with self._cv:
            self._busy -= 1
            if not self._busy:
                self._cv.notify_all()

    def _run(self, fn, *args):
        """fn(handle, *args) with the store held open."""
        h = self._enter()
        try:
            return fn(h, *args)
        finally:
            self._leave()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _call(self, fn, *args):
        lib = _L()
        res = _StoreResult()
        st = self._run(fn, *args, ctypes.byref(res))
        return lib, st, res

    @staticmethod
    def _payload(res):
        return {"status": "ok", "artifact_id": _s(res.artifact_id), "version": res.version.version,
                "filename": _s(res.version.filename), "mime_type": _s(res.version.mime_type),
                "size": res.version.size, "pages": res.version.pages, "head": res.head,
                "kind": _s(res.kind),
                "title": _s(res.title),
                "owner": _s(res.owner), "action": _s(res.version.action),
                "unchanged": bool(res.unchanged), "replayed": bool(res.replayed),
                "sha256": _s(res.version.sha256), "warnings": _errors(res.warnings)}

    def _write(self, fn, *args):
        lib, st, res = self._call(fn, *args)
        try:
            if st != 0:
                _raise(st, res.errors, res.head)
            return self._payload(res)
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def create(self, kind: str, spec: Spec, title: Optional[str] = None, id: Optional[str] = None,
               owner: Optional[str] = None, key: Optional[str] = None) -> Payload:
        """Validate and render spec, store it as version 1 of a new artifact
        (id: given, or 16 random hex digits). Returns the payload dict.
        key: an idempotency key (str, e.g. a UUID): the same call again with
        it returns the first payload ("replayed": True) and writes nothing,
        from any process; another call with it raises ConflictError. Keys
        are kept 24 hours."""
        text = _json_bytes(spec, "spec")
        enc = lambda s: s.encode("utf-8") if s is not None else None
        return self._write(_L().qr_store_create_with, _kind(kind), text, len(text), enc(title), enc(id),
                           enc(owner), _cond(None, key))

    def import_file(self, file: _File, title: Optional[str] = None, id: Optional[str] = None,
                    owner: Optional[str] = None, key: Optional[str] = None) -> Payload:
        """quire import (named so: import is a Python keyword): read a
        .docx, .xlsx, .pptx or .pdf (its bytes, or a path) back into a spec
        and store it as version 1 of a new artifact, whose rendered file is
        the file itself (export() gives it back; action "import"). title:
        given, else the file name without its extension (a path), else the
        file name rule. Returns the payload create returns (filename,
        mime_type, size, pages, head, ...); key as for create (if_version
        does not apply: the artifact is new)."""
        if not isinstance(file, (bytes, bytearray)):
            path = os.fspath(file)
            if title is None:
                title = os.path.splitext(os.path.basename(path))[0] or None
            with open(path, "rb") as f:
                data = f.read()
        else:
            data = bytes(file)
        kind, spec = _read(data, _READ_TO["spec"], 0)
        if kind == _kind("document") and data[:5] == b"%PDF-":
            kind = _kind("pdf")  # a PDF reads as a document spec; the artifact is a pdf
        text = spec.encode("utf-8")
        enc = lambda s: s.encode("utf-8") if s is not None else None
        return self._write(_L().qr_store_import_with, kind, text, len(text), data, len(data), enc(title),
                           enc(id), enc(owner), _cond(None, key))

    def edit(self, id: str, patch: Optional[Spec] = None, append: Optional[Spec] = None, ops: Optional[Spec] = None,
             if_version: Optional[int] = None, key: Optional[str] = None) -> Payload:
        """Merge-patch (RFC 7386), append ({key: [items]}) and JSON Patch
        ops (RFC 6902), in that order, on the head; then validate and render
        the whole spec. "unchanged" is True when the result equals the head.
        if_version: write only when the head is that version, else raise
        ConflictError (its .head says which version is the head). key: an
        idempotency key, as for create."""
        return self._write(_L().qr_store_edit_with, id.encode("utf-8"), _json_bytes(patch, "patch"),
                           _json_bytes(append, "append"), _json_bytes(ops, "ops"), _cond(if_version, key))

    def rewrite(self, id: str, spec: Spec, if_version: Optional[int] = None, key: Optional[str] = None) -> Payload:
        """Replace the spec (same kind); if_version and key as for edit."""
        text = _json_bytes(spec, "spec")
        return self._write(_L().qr_store_rewrite_with, id.encode("utf-8"), text, len(text),
                           _cond(if_version, key))

    def restore(self, id: str, version: int, if_version: Optional[int] = None,
                key: Optional[str] = None) -> Payload:
        """Append a copy of an earlier version; if_version and key as for edit."""
        return self._write(_L().qr_store_restore_with, id.encode("utf-8"), int(version),
                           _cond(if_version, key))

    def show_text(self, id: str, version: Optional[int] = None) -> str:
        """The canonical JSON text of a version (default: the head)."""
        lib, st, res = self._call(_L().qr_store_show, id.encode("utf-8"), int(version or 0))
        try:
            if st != 0:
                _raise(st, res.errors)
            return ctypes.string_at(res.spec, res.spec_len).decode("utf-8")
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def get(self, id: str, version: Optional[int] = None) -> Payload:
        """A version's payload (as create returns it, with "head", the
        artifact's head version, to pass as if_version) and its "spec"."""
        lib, st, res = self._call(_L().qr_store_show, id.encode("utf-8"), int(version or 0))
        try:
            if st != 0:
                _raise(st, res.errors)
            d = self._payload(res)
            d["spec"] = json.loads(ctypes.string_at(res.spec, res.spec_len).decode("utf-8"))
            return d
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def show(self, id: str, version: Optional[int] = None) -> Dict[str, Any]:
        """A version's spec as Python objects (default: the head)."""
        return json.loads(self.show_text(id, version))

    def log(self, id: str, limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """Every version (or the newest limit), oldest first:
        [{"version", "action", "parent", "created", "pages", "warnings", ...}]."""
        lib, st, res = self._call(_L().qr_store_log_limit, id.encode("utf-8"), int(limit or 0))
        try:
            if st != 0:
                _raise(st, res.errors)
            return [_version(res.log[i]) for i in range(res.log_count)]
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def export(self, id: str, version: Optional[int] = None) -> bytes:
        """The rendered bytes of a version (default: the head)."""
        lib, st, res = self._call(_L().qr_store_export, id.encode("utf-8"), int(version or 0))
        try:
            if st != 0:
                _raise(st, res.errors)
            return ctypes.string_at(res.data, res.size)
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def diff(self, id: str, a: int, b: int) -> Dict[str, Any]:
        """{"added", "removed", "changed": [JSON pointers], "diff": unified text}."""
        lib = _L()
        d = _Diff()
        st = self._run(lib.qr_store_diff_versions, id.encode("utf-8"), int(a), int(b), ctypes.byref(d))
        try:
            if st != 0:
                _raise(st, d.errors)
            lst = lambda p, n: [_s(p[i]) for i in range(n)]
            return {"from": a, "to": b, "added": lst(d.added, d.n_added),
                    "removed": lst(d.removed, d.n_removed), "changed": lst(d.changed, d.n_changed),
                    "diff": _s(d.unified) or ""}
        finally:
            lib.qr_store_diff_free(ctypes.byref(d))

    def fsck(self, repair: bool = False) -> Dict[str, Any]:
        """Check the store: {"status", "artifacts", "versions", "blobs", "problems", "stray"}."""
        lib = _L()
        f = _Fsck()
        st = self._run(lib.qr_store_fsck_run, 1 if repair else 0, ctypes.byref(f))
        try:
            return {"status": "ok" if st == 0 else "error", "artifacts": f.artifacts,
                    "versions": f.versions, "blobs": f.blobs, "repaired": f.repaired,
                    "trashed": f.trashed,
                    "problems": _errors(f.problems), "stray": _errors(f.stray)}
        finally:
            lib.qr_store_fsck_free(ctypes.byref(f))

    def delete(self, id: str, if_version: Optional[int] = None, purge: bool = False,
               key: Optional[str] = None) -> Payload:
        """Move an artifact to the trash (NotFoundError for every call but
        undelete from then on; it still counts against its owner's quota
        until purged); purge=True removes it at once, with all its versions
        (the owner's quota is freed). if_version as for edit; key: an
        idempotency key: the same call again returns the first answer with
        "replayed": True (also once the artifact is purged: then without
        kind and owner), another call with it raises ConflictError. Returns
        {"status", "artifact_id", "deleted", "trash", "kind", "owner",
        "versions", "head", "replayed"}."""
        fn = _L().qr_store_purge_artifact if purge else _L().qr_store_delete_with
        lib, st, res = self._call(fn, id.encode("utf-8"), _cond(if_version, key))
        try:
            if st != 0:
                _raise(st, res.errors, res.head)
            return {"status": "ok", "artifact_id": _s(res.artifact_id), "deleted": True,
                    "trash": not purge, "kind": _s(res.kind), "owner": _s(res.owner),
                    "versions": res.head, "head": res.head, "replayed": bool(res.replayed)}
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def undelete(self, id: str, if_version: Optional[int] = None, key: Optional[str] = None) -> Payload:
        """Take an artifact out of the trash, as it was; if_version and key
        as for delete."""
        lib, st, res = self._call(_L().qr_store_undelete_with, id.encode("utf-8"), _cond(if_version, key))
        try:
            if st != 0:
                _raise(st, res.errors, res.head)
            return {"status": "ok", "artifact_id": _s(res.artifact_id), "undeleted": True,
                    "kind": _s(res.kind), "owner": _s(res.owner), "versions": res.head,
                    "head": res.head, "replayed": bool(res.replayed)}
        finally:
            lib.qr_store_result_free(ctypes.byref(res))

    def purge(self) -> Dict[str, Any]:
        """Remove what has been in the trash longer than trash_retention
        (Store(...), seconds; 30 days by default) by the store's clock:
        {"purged", "kept", "cutoff"}."""
        lib = _L()
        p = _Purge()
        st = self._run(lib.qr_store_purge, ctypes.byref(p))
        try:
            if st != 0:
                _raise(st, p.errors)
            return {"purged": p.purged, "kept": p.kept, "cutoff": _s(p.cutoff)}
        finally:
            lib.qr_store_purge_free(ctypes.byref(p))

    def list(self, owner: Optional[str] = None, kind: Optional[str] = None, limit: int = 0,
             cursor: Optional[str] = None, trash: bool = False) -> Dict[str, Any]:
        """Artifacts, newest first, of owner and kind (None: any), at most
        limit (0: all), after cursor (the previous page's "next").
        Returns {"artifacts": [{"artifact_id", "kind", "title", "owner",
        "created", "head"}], "next": cursor or None}."""
        lib = _L()
        out = _List()
        enc = lambda v: v.encode("utf-8") if v is not None else None
        fn = lib.qr_store_list_trash if trash else lib.qr_store_list
        st = self._run(fn, enc(owner), enc(kind), enc(cursor), int(limit), ctypes.byref(out))
        try:
            if st != 0:
                _raise(st, out.errors)
            items = [{"artifact_id": _s(it.artifact_id), "kind": _s(it.kind), "title": _s(it.title),
                      "owner": _s(it.owner), "created": _s(it.created), "head": it.head,
                      **({"deleted": _s(it.deleted)} if trash else {})}
                     for it in (out.items[i] for i in range(out.count))]
            return {"artifacts": items, "next": _s(out.next) or None}
        finally:
            lib.qr_store_list_free(ctypes.byref(out))

# ---- reading files back (issue 20; a separate hunk beside the store's) ----------------

class _ReadOpts(ctypes.Structure):
    _fields_ = [("to", ctypes.c_int), ("chunks", ctypes.c_size_t), ("max_input", ctypes.c_size_t),
                ("max_unzipped", ctypes.c_size_t), ("max_ratio", ctypes.c_double),
                ("max_output", ctypes.c_size_t), ("max_seconds", ctypes.c_uint)]


_READ_TO = {"spec": 0, "json": 1, "markdown": 2, "text": 3}


@overload
def read(file: _File) -> Tuple[str, Dict[str, Any]]: ...
@overload
def read(file: _File, to: 'Literal["spec"]') -> Tuple[str, Dict[str, Any]]: ...
@overload
def read(file: _File, to: 'Literal["json"]') -> Dict[str, Any]: ...
@overload
def read(file: _File, to: 'Literal["markdown", "text"]') -> str: ...


def read(file: _File, to: str = "spec") -> Union[Tuple[str, Dict[str, Any]], Dict[str, Any], str]:
    """Read a .docx, .xlsx, .pptx or .pdf (bytes, or a path) back. One
    return type per mode:

    - to="spec" (default): a tuple (kind, spec dict), kind one of KINDS;
    - to="json": a dict, the spec with what reading found out about the file;
    - to="markdown" or "text": a str.

    read_chunks() cuts the text into pieces. Raises QuireError for a damaged,
    encrypted or hostile file (InvalidError, LimitError)."""
    if to not in _READ_TO:
        raise _usage("to must be one of %s" % ", ".join(_READ_TO))
    kind, text = _read(file, _READ_TO[to], 0)
    if to == "spec":
        return KINDS[kind], json.loads(text)
    return json.loads(text) if to == "json" else text


def read_chunks(file: _File, size: int, to: str = "text") -> List[Chunk]:
    """Read a file back as a list of chunks {"headings": [...], "text",
    "chars"} of at most size characters each (to="text" or "markdown": the
    text the chunks hold), each with the headings it sits under: what a
    retrieval index takes."""
    if to not in ("text", "markdown"):
        raise _usage("to must be text or markdown")
    if int(size) <= 0:
        raise _usage("size must be a positive number of characters")
    return json.loads(_read(file, _READ_TO[to], int(size))[1])["chunks"]


def _read(file: _File, to: int, chunks: int) -> Tuple[int, str]:
    lib = _L()
    fn = lib.qr_read_mem
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(_ReadOpts),
                   ctypes.POINTER(ctypes.c_int), ctypes.POINTER(_Result)]
    if not isinstance(file, (bytes, bytearray)):
        with open(file, "rb") as f:
            file = f.read()
    data = bytes(file)
    opts = _ReadOpts(to, chunks, 0, 0, 0.0)
    kind = ctypes.c_int()
    res = _Result()
    st = fn(data, len(data), ctypes.byref(opts), ctypes.byref(kind), ctypes.byref(res))
    try:
        if st != 0:
            _raise(st, res.errors)
        return kind.value, ctypes.string_at(res.data, res.size).decode("utf-8")
    finally:
        lib.qr_result_free(ctypes.byref(res))
