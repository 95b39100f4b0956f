"""A large namespace's term index persisted beside the SQLite store file (issue 29).

Building a 100k namespace's ``TermBlock`` reads and tokenizes every memory (seconds;
FTS5 answers meanwhile, at tens of milliseconds a query). Once built, the block is saved
in ``<store>.vindex/`` (the same directory, generations and checksums as the vector
snapshots: ``snapshot.write_generation``) with the ``fts_log`` row it reflects; the next
open reads it back and ``TermSearch`` applies the log beyond that row, or builds afresh
when it cannot (the log pruned past it, too much changed), as for any block.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from engram.store.sqlite.change_log import BlockFiles
from engram.store.sqlite.snapshot import SnapshotError, load_array, read_generation
from engram.store.sqlite.term_index import TermBlock

#: Bump when tokenization or the block's layout changes: older files are then rebuilt.
#: 2: ids as UTF-8 bytes with their sort order (``id_order``); format 1 is still read.
FORMAT = 2
_READABLE = frozenset({1, FORMAT})
_PARTS = ("ids", "seqs", "lengths", "terms", "offsets", "rows", "tf", "top_tf", "avgdl")
_OPTIONAL = ("id_order",)
#: Read-only maps: nothing writes them, and a search touches only its terms' pages (a
#: lookup by id or seq log2(n) pages of those).
_MAPPED = ("rows", "tf", "ids", "seqs", "id_order")


FILES = BlockFiles("terms", FORMAT, "term snapshot")
stem, save = FILES.stem, FILES.save


def load(directory: Path, namespace: str, conn: sqlite3.Connection) -> tuple[TermBlock, int]:
    """The saved block and its change-log row; ``SnapshotError`` when there is none or
    it cannot be used (it is then built from the store)."""
    want = FILES.want(namespace) | {"format": _READABLE}
    parts = (*_PARTS, *_OPTIONAL)
    manifest, paths = read_generation(directory, stem(namespace), want, _PARTS, parts, _OPTIONAL)
    try:
        # The postings (8 bytes per term and memory, ~350 MB at 1M) are memory-mapped.
        block = TermBlock.from_arrays(
            {part: load_array(path, mapped=part in _MAPPED) for part, path in paths.items()}
        )
    except (OSError, ValueError, KeyError) as exc:
        raise SnapshotError(f"damaged term snapshot: {type(exc).__name__}: {exc}") from exc
    if block.size != manifest.get("count"):
        raise SnapshotError("the term snapshot's files disagree on its size")
    if block.size:
        FILES.check_store(conn, int(block.seqs[-1]), block.ids[-1])
    return block, int(manifest["log_id"])
