"""``miau build-site OUT``: the game as a static site that any file server can publish.

The site is the web client (``miau/web``) with one flag in its page (a
``<meta name="miau-port" content="site">`` that makes the client run the
engine in the page), ``miau.zip`` (the standard-library packages the page
imports under Pyodide: ``miau.engine``, ``miau.packs``, ``miau.solver``,
``miau.generate`` (the editor's "Suggest a variation"), the shipped worlds,
the play service ``miau.play`` and the in-page host ``miau.site.backend``), the
files of the pinned Pyodide runtime that the page loads, a memory snapshot
of that runtime with Miau imported (made with Node when it is installed,
so that a page starts in about a second), and ``site.json``
(what was built, for tools and the benchmark).

The runtime comes from the npm package ``pyodide`` at
:data:`PYODIDE_VERSION`: the build takes the package's tarball from its
cache (:func:`cache_dir`), or fetches it once with ``npm pack``, and checks
it against :data:`PYODIDE_INTEGRITY` (the registry's ``dist.integrity``)
before using or keeping it. Without network and without a cached tarball
the build stops with a sentence saying so, and writes nothing.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
import zipfile
from importlib import metadata, resources
from pathlib import Path
from typing import Any, Final

import miau
from miau.play.web_policy import static_site_headers_file

__all__ = [
    "PYODIDE_FILES",
    "PYODIDE_INTEGRITY",
    "PYODIDE_VERSION",
    "SITE_FLAG",
    "SiteBuildError",
    "build_site",
    "cache_dir",
    "engine_zip",
    "extract_runtime",
    "pyodide_tarball",
]

PYODIDE_VERSION: Final = "314.0.7"
"""The Pyodide release the site runs (Python 3.14)."""

PYODIDE_INTEGRITY: Final = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
"""``npm view pyodide@314.0.7 dist.integrity``: the tarball's SHA-512."""

PYODIDE_FILES: Final = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The runtime files the page loads (the rest of the package is types, maps and demos)."""

SITE_FLAG: Final = '<meta name="miau-port" content="site" />'
"""What tells the client it is the static site (``js/site.js`` reads it)."""

_ZIPPED_PACKAGES: Final = ("engine", "packs", "solver", "generate", "worlds", "play", "site")
"""The packages the page imports: each needs only the standard library (``tests/test_layering.py``)."""

_LEFT_OUT: Final = frozenset({"build.py"})
"""Files of the zipped packages the page never imports (this build script)."""

_ZIP_DATE: Final = (2020, 1, 1, 0, 0, 0)
"""Every zip entry's date, so that the same sources give the same bytes."""

SNAPSHOT_NAME: Final = "miau-snapshot.bin.gz"
"""The started runtime with Miau imported, as a gzipped Pyodide memory snapshot."""

EXTRACT_DIR: Final = "/home/pyodide/miau-site"
"""Where the page unpacks ``miau.zip`` (``js/site-worker.js`` and ``js/studio-worker.js`` agree)."""

_SNAPSHOT_SCRIPT: Final = """
import { loadPyodide } from %(loader)s;
import fs from "node:fs";
const pyodide = await loadPyodide({ indexURL: %(index)s, _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(fs.readFileSync(%(zip)s)), "zip", { extractDir: %(extract)s });
pyodide.runPython(%(python)s);
fs.writeFileSync(%(out)s, pyodide.makeMemorySnapshot());
"""
_SNAPSHOT_PYTHON: Final = (
    "import sys\n"
    f"sys.path.insert(0, {EXTRACT_DIR!r})\n"
    "import miau.site.backend, miau.site.studio, miau.solver.search, miau.solver.check\n"
    "miau.site.backend.shipped_worlds()\n"
)
"""What the snapshot has done already: the imports every page makes at start."""


class SiteBuildError(RuntimeError):
    """The site cannot be built; the message says why and what to do."""


def cache_dir() -> Path:
    """Where fetched Pyodide tarballs are kept: ``$MIAU_CACHE_DIR/pyodide``, else ``~/.cache/miau/pyodide``."""
    base = os.environ.get("MIAU_CACHE_DIR")
    if base:
        return Path(base) / "pyodide"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "miau" / "pyodide"


def _integrity_of(path: Path) -> str:
    digest = hashlib.sha512()
    with path.open("rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            digest.update(chunk)
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def pyodide_tarball(cache: Path | None = None) -> Path:
    """The checked tarball of Pyodide :data:`PYODIDE_VERSION`, from the cache or fetched with npm.

    A cached tarball that does not match :data:`PYODIDE_INTEGRITY` is
    removed and fetched again; a fetched one is kept only if it matches.

    :raises SiteBuildError: when it is not cached and npm cannot fetch it
        (no npm, no network), or when what npm fetched does not match.
    """
    folder = cache or cache_dir()
    name = f"pyodide-{PYODIDE_VERSION}.tgz"
    cached = folder / name
    if cached.is_file():
        if _integrity_of(cached) == PYODIDE_INTEGRITY:
            return cached
        cached.unlink()
    npm = shutil.which("npm")
    if npm is None:
        raise SiteBuildError(
            f"Pyodide {PYODIDE_VERSION} is not in the cache ({cached}) and npm is not "
            "installed to fetch it: install npm, or put the tarball of "
            f"`npm pack pyodide@{PYODIDE_VERSION}` there."
        )
    with tempfile.TemporaryDirectory() as scratch:
        try:
            subprocess.run(
                [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", scratch],
                check=True,
                capture_output=True,
                text=True,
                timeout=600,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
            detail = (getattr(error, "stderr", None) or "").strip().splitlines()
            raise SiteBuildError(
                f"Pyodide {PYODIDE_VERSION} is not in the cache ({cached}) and "
                f"`npm pack pyodide@{PYODIDE_VERSION}` failed (is the npm registry reachable?)"
                + (f": {detail[-1]}" if detail else ".")
            ) from None
        fetched = Path(scratch) / name
        if not fetched.is_file():
            raise SiteBuildError(f"`npm pack pyodide@{PYODIDE_VERSION}` wrote no {name}.")
        found = _integrity_of(fetched)
        if found != PYODIDE_INTEGRITY:
            raise SiteBuildError(
                f"The fetched Pyodide {PYODIDE_VERSION} does not match its pinned integrity "
                f"({found} instead of {PYODIDE_INTEGRITY}); it was not used or kept."
            )
        folder.mkdir(parents=True, exist_ok=True)
        partial = folder / (name + ".partial")
        shutil.copyfile(fetched, partial)
        partial.replace(cached)
    return cached


def extract_runtime(tarball: Path, target: Path) -> dict[str, int]:
    """Write the :data:`PYODIDE_FILES` of the tarball into ``target``; their sizes."""
    target.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    with tarfile.open(tarball, "r:gz") as archive:
        for name in PYODIDE_FILES:
            try:
                member = archive.getmember(f"package/{name}")
            except KeyError:
                raise SiteBuildError(f"The Pyodide package has no {name}.") from None
            source = archive.extractfile(member)
            if source is None:
                raise SiteBuildError(f"The Pyodide package's {name} is not a file.")
            with source, (target / name).open("wb") as sink:
                shutil.copyfileobj(source, sink)
            sizes[name] = member.size
    return sizes


def engine_zip() -> bytes:
    """The zip the page imports Miau from: its standard-library packages, ``.py`` and ``.json`` only."""
    root = Path(str(resources.files(miau)))
    members: list[tuple[str, Path]] = [("miau/__init__.py", root / "__init__.py")]
    for package in _ZIPPED_PACKAGES:
        for path in sorted((root / package).rglob("*")):
            wanted = path.suffix in (".py", ".json") and path.name not in _LEFT_OUT
            if wanted and path.is_file() and "__pycache__" not in path.parts:
                members.append((f"miau/{path.relative_to(root).as_posix()}", path))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, path in sorted(members):
            info = zipfile.ZipInfo(name, _ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


def _snapshot(runtime: Path, code: Path, target: Path) -> int | None:
    """Write the gzipped memory snapshot of a started runtime (Node runs it); its size, or None.

    A page that finds the snapshot starts from it instead of starting Python
    and importing Miau (about four times faster); without Node the site is
    built without one and pages start the long way.
    """
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.TemporaryDirectory() as scratch:
        raw = Path(scratch) / "snapshot.bin"
        script = Path(scratch) / "snapshot.mjs"
        script.write_text(
            _SNAPSHOT_SCRIPT
            % {
                "loader": json.dumps((runtime / "pyodide.mjs").as_uri()),
                "index": json.dumps(str(runtime) + "/"),
                "zip": json.dumps(str(code)),
                "extract": json.dumps(EXTRACT_DIR),
                "python": json.dumps(_SNAPSHOT_PYTHON),
                "out": json.dumps(str(raw)),
            },
            encoding="utf-8",
        )
        try:
            subprocess.run([node, str(script)], check=True, capture_output=True, timeout=600)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired):
            return None
        with raw.open("rb") as source, gzip.GzipFile(target, "wb", mtime=0) as sink:
            shutil.copyfileobj(source, sink)
    return target.stat().st_size


def _miau_version() -> str | None:
    try:
        return metadata.version(miau.DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None


def build_id(code: bytes) -> str:
    """The build's name for its engine and worlds: the start of ``miau.zip``'s SHA-256.

    The page finds it in ``<meta name="miau-build">`` and the worker hashes
    the zip it loads: a board the page stored is drawn early only if the
    build that stored it is the one running (another build may play the
    same log to another state).
    """
    return hashlib.sha256(code).hexdigest()[:16]


def _flag_page(index: Path, build: str) -> None:
    text = index.read_text(encoding="utf-8")
    if SITE_FLAG not in text:
        text = text.replace("<head>\n", f"<head>\n    {SITE_FLAG}\n", 1)
        if SITE_FLAG not in text:
            raise SiteBuildError("The client's index.html has no <head> to flag.")
    text = re.sub(r'\n *<meta name="miau-build"[^>]*>', "", text)
    text = text.replace(
        SITE_FLAG, f'{SITE_FLAG}\n    <meta name="miau-build" content="{build}" />', 1
    )
    index.write_text(text, encoding="utf-8")


def build_site(out: Path, *, cache: Path | None = None) -> dict[str, Any]:
    """Write the static site into ``out`` (made if needed; Miau's files in it are replaced).

    The runtime is fetched (or taken from the cache) before anything is
    written, so a build that cannot get it leaves ``out`` as it was.
    Returns what ``site.json`` records.
    """
    tarball = pyodide_tarball(cache)
    if out.exists() and not out.is_dir():
        raise SiteBuildError(f"{out} is a file, not a folder.")
    web = Path(str(resources.files(miau).joinpath("web")))
    out.mkdir(parents=True, exist_ok=True)
    shutil.copytree(web, out, dirs_exist_ok=True)
    code = engine_zip()
    _flag_page(out / "index.html", build_id(code))
    # Hosts that read it (Netlify, Cloudflare Pages) send the security headers the server does.
    (out / "_headers").write_text(static_site_headers_file(), encoding="utf-8")
    runtime = extract_runtime(tarball, out / "pyodide")
    (out / "miau.zip").write_bytes(code)
    snapshot = out / SNAPSHOT_NAME
    snapshot.unlink(missing_ok=True)
    snapshot_bytes = _snapshot((out / "pyodide").resolve(), (out / "miau.zip").resolve(), snapshot)
    total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    record: dict[str, Any] = {
        "miau": _miau_version(),
        "pyodide": PYODIDE_VERSION,
        "pyodideIntegrity": PYODIDE_INTEGRITY,
        "runtime": runtime,
        "engineZip": {"bytes": len(code), "sha256": hashlib.sha256(code).hexdigest()},
        "snapshot": snapshot_bytes,
        "bytes": total,
    }
    (out / "site.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return record
