"""``miau build-site``: what goes into the site, and a clear refusal without the runtime."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from miau.site import build


def test_the_engine_zip_imports_and_answers_with_the_standard_library_alone(tmp_path: Path) -> None:
    with zipfile.ZipFile(io.BytesIO(build.engine_zip())) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert "miau/site/build.py" not in names
    assert not any(name.startswith(("miau/cli/", "miau/web/")) for name in names)
    # -I -S: no site-packages, no environment: only the standard library and the zip's files.
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "from miau.site.backend import SiteBackend\n"
        "print(SiteBackend().http('GET', '/api/worlds')[:40])\n"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert '"status": 200' in done.stdout


def test_the_engine_zip_is_the_same_bytes_each_time() -> None:
    assert build.engine_zip() == build.engine_zip()


def test_without_npm_and_without_a_cache_the_build_says_so_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    out = tmp_path / "site"
    with pytest.raises(build.SiteBuildError, match="not in the cache"):
        build.build_site(out, cache=tmp_path / "empty-cache")
    assert not out.exists()


def test_a_cached_tarball_that_fails_its_integrity_is_thrown_away(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    cached = tmp_path / f"pyodide-{build.PYODIDE_VERSION}.tgz"
    cached.write_bytes(b"not the package")
    with pytest.raises(build.SiteBuildError):
        build.pyodide_tarball(tmp_path)
    assert not cached.exists()
