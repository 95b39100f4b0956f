"""Why a SQLite store cannot be opened for writing, in words a user can act on.

SQLite says "attempt to write a readonly database" or "unable to open database file";
neither names the file or folder that is not writable, nor what to do. engram writes
whenever it opens a store (the write-ahead log beside the file, migrations, the
keyword index's queue), so even ``engram list`` needs write access to both.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from engram.errors import StoreError

#: What to do, said once for both cases.
_FIX = (
    "give this user write access (chmod u+w), or copy the store to a writable folder and "
    "point --db (ENGRAM_STORE) at the copy"
)


def unwritable(location: str) -> str | None:
    """The file or folder of the store at ``location`` this process cannot write, said
    as a sentence; None when both are writable (or the store is ``:memory:``)."""
    if location == ":memory:":
        return None
    path = Path(location)
    folder = path.parent
    if path.exists() and not os.access(path, os.W_OK):
        return f"the store file {path} is read-only for this user"
    for wal in (Path(f"{path}-wal"), Path(f"{path}-shm")):
        if wal.exists() and not os.access(wal, os.W_OK):
            return f"{wal} (SQLite's write-ahead log) is read-only for this user"
    if folder.exists() and not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"its folder {folder} is read-only for this user (SQLite keeps its "
            "write-ahead log beside the file)"
        )
    return None


def explained(location: str, reason: str) -> str:
    """``cannot open SQLite store at ...: <reason>``, with what is read-only and what to
    do when that is the cause."""
    text = f"cannot open SQLite store at {location}: {reason}"
    why = unwritable(location)
    if why is None:
        return text
    return f"{text}. engram writes to a store whenever it opens one, and {why}: {_FIX}"


def make_folder(location: str) -> None:
    """Create the folder the store at ``location`` goes in, or say why it cannot be."""
    folder = Path(location).parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(
            f"cannot create the folder {folder} for the SQLite store at {location}: "
            f"{exc.strerror or exc}. Choose a writable place with --home (ENGRAM_HOME) "
            "or --db (ENGRAM_STORE)"
        ) from exc


#: SQLite's primary result codes for a full disk and a failed write (sqlite3.h).
_FULL = 13
_IOERR = 10


def out_of_space(exc: sqlite3.Error) -> str:
    """What to do after a write SQLite refused for want of room (the disk, its quota,
    or the process's file-size limit, ``ulimit -f``), as a sentence to append; "" for
    other errors. The failed transaction was rolled back: what was stored before is
    intact."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None or code & 0xFF not in (_FULL, _IOERR):
        return ""
    return (
        ". The disk, its quota or this process's file-size limit (ulimit -f) left no "
        "room for the write; it was rolled back and everything stored before is intact: "
        "free disk space or raise the limit, then retry"
    )
