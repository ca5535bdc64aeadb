"""Is a SQLite database file sound enough to serve from? One sentence when it is not.

``miau play`` checks its database before it serves anything (``check_sqlite_file``):
a file that is not SQLite (overwritten), shorter than its own header says
(truncated), or that fails SQLite's own checks (``PRAGMA quick_check``, then
``PRAGMA integrity_check``: flipped bytes, a zeroed page) is reported in
one sentence, and left exactly as it is. Only when asked does
``set_aside`` move such a file (and its ``-wal`` and ``-shm`` companions)
to a name of its own, so a fresh database can start in its place.
"""

from __future__ import annotations

import contextlib
import sqlite3
import struct
import time
from pathlib import Path
from typing import Final

__all__ = ["DatabaseDamage", "check_sqlite_file", "set_aside"]

_HEADER: Final = b"SQLite format 3\x00"
_HEADER_SIZE: Final = 100
_PROBLEMS_QUOTED: Final = 1
FULL_CHECK_MAX_BYTES: Final = 256 * 1024 * 1024
"""Files up to this size also get the full ``integrity_check`` (index contents too); a
player's database is a few megabytes, and the full check reads it in a fraction of a second."""


class DatabaseDamage(Exception):
    """A database file that cannot be served from; ``str()`` says what is wrong in one sentence."""


def _truncation(path: Path, header: bytes) -> str | None:
    """A sentence when the file is shorter than the pages its header counts, else None."""
    (page_size,) = struct.unpack(">H", header[16:18])
    page_size = 65536 if page_size == 1 else page_size
    change_counter, pages, valid_for = (
        struct.unpack(">I", header[24:28])[0],
        struct.unpack(">I", header[28:32])[0],
        struct.unpack(">I", header[92:96])[0],
    )
    if valid_for != change_counter or pages == 0:
        return None  # the header's page count is not kept up to date by whoever wrote it
    expected = pages * page_size
    size = path.stat().st_size
    if size < expected:
        return (
            f"it is cut short: it holds {size:,} bytes where its header counts "
            f"{pages:,} pages of {page_size:,} bytes ({expected:,} bytes)"
        )
    return None


def _first_problems(db: sqlite3.Connection, pragma: str) -> list[str]:
    """The problems a check pragma reports, one a line (a row may hold several)."""
    rows = db.execute(f"PRAGMA {pragma}").fetchall()
    lines = [line.strip() for row in rows for line in str(row[0]).splitlines()]
    # "*** in database main ***" heads the list: it names no problem.
    problems = [line for line in lines if line and not line.startswith("***")]
    return [] if problems == ["ok"] else problems


def check_sqlite_file(path: Path) -> None:
    """Check the SQLite database at ``path``, changing nothing; a missing file passes.

    :raises DatabaseDamage: with one sentence saying what is wrong.
    """
    if not path.exists():
        return
    if not path.is_file():
        raise DatabaseDamage(f"{path} is not a file")
    with path.open("rb") as file:
        header = file.read(_HEADER_SIZE)
    if not header:
        wal = path.with_name(path.name + "-wal")
        if wal.is_file() and wal.stat().st_size > 0:
            return  # a new database whose first pages are still in its write-ahead log
        raise DatabaseDamage(
            f"{path} is empty (0 bytes): it holds no database, and a Miau database once "
            "there was lost or never written"
        )
    if len(header) < _HEADER_SIZE or not header.startswith(_HEADER):
        raise DatabaseDamage(
            f"{path} is not a SQLite database: its first bytes are not SQLite's header "
            "(it was overwritten or is another kind of file)"
        )
    cut = _truncation(path, header)
    if cut is not None:
        raise DatabaseDamage(f"{path} is damaged: {cut}")
    try:
        # Opened as the server opens it: a write-ahead log left by a crash is taken in.
        db = sqlite3.connect(path, isolation_level=None)
    except sqlite3.Error as error:
        raise DatabaseDamage(f"{path} cannot be opened by SQLite ({error})") from None
    try:
        problems = _first_problems(db, "quick_check")
        if not problems and path.stat().st_size <= FULL_CHECK_MAX_BYTES:
            problems = _first_problems(db, "integrity_check")
    except sqlite3.DatabaseError as error:
        raise DatabaseDamage(f"{path} is damaged: SQLite cannot read it ({error})") from None
    finally:
        db.close()
    if problems:
        quoted = "; ".join(repr(line[:120]) for line in problems[:_PROBLEMS_QUOTED])
        more = len(problems) - _PROBLEMS_QUOTED
        tail = f" and {more} more problem{'' if more == 1 else 's'}" if more > 0 else ""
        raise DatabaseDamage(f"{path} is damaged: SQLite's integrity check reports {quoted}{tail}")


def set_aside(path: Path) -> Path:
    """Rename a damaged database (and its ``-wal``, ``-shm``) out of the way; the new name.

    Nothing is deleted: the file keeps every byte under
    ``<name>.damaged-<UTC time>``, next to where it was.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    kept = path.with_name(f"{path.name}.damaged-{stamp}")
    serial = 1
    while kept.exists():
        serial += 1
        kept = path.with_name(f"{path.name}.damaged-{stamp}-{serial}")
    path.rename(kept)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        with contextlib.suppress(FileNotFoundError):
            companion.rename(kept.with_name(kept.name + suffix))
    return kept
