"""Whether two stores' FTS5 indexes are byte for byte the same (issue 29, rules26).

``scripts/write_equivalence.py`` compares the content tables row for row and leaves the
full-text index's shadow tables out; this hashes each ``fts_*`` shadow table (rows in
key order) of two stores, so a change to the write path can show it wrote the same
index too.

    python scripts/rules26_fts.py /tmp/eq/old/store.db /tmp/eq/new/store.db
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys


def digests(path: str) -> dict[str, tuple[int, str]]:
    """Each FTS shadow table's row count and SHA-256 over its rows in rowid order."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    names = [
        r[0]
        for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fts%'"
            " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"
        )
    ]
    out: dict[str, tuple[int, str]] = {}
    for name in names:
        digest, count = hashlib.sha256(), 0
        for row in db.execute(f'SELECT * FROM "{name}" ORDER BY 1'):
            digest.update(repr(row).encode())
            count += 1
        out[name] = (count, digest.hexdigest()[:16])
    db.close()
    return out


def main() -> None:
    old, new = digests(sys.argv[1]), digests(sys.argv[2])
    same = True
    for name in sorted(set(old) | set(new)):
        a, b = old.get(name), new.get(name)
        same = same and a == b
        print(f"  {name}: old {a}, new {b}, {'identical' if a == b else 'DIFFERS'}")
    print("identical" if same else "DIFFERENT")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
