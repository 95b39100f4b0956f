"""Round thirty: every table row of DIR/engram.db and every file under DIR holding any
WORD (case-insensitive): what a privacy officer greps for after an erase.

Run: .venv/bin/python scripts/pass40_scan.py /tmp/pass40/p1 quorravelle 900123
"""

import sqlite3
import sys
from pathlib import Path

d = Path(sys.argv[1])
words = [w.lower() for w in sys.argv[2:]]
db = sqlite3.connect(f"file:{d}/engram.db?mode=ro", uri=True)
tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
for t in tables:
    try:
        rows = db.execute(f'select * from "{t}"').fetchall()
    except Exception:
        continue
    hits = [r for r in rows if any(w in repr(r).lower() for w in words)]
    if hits:
        print(f"TABLE {t}: {len(hits)} rows; e.g. {repr(hits[0])[:200]}")
for p in sorted(d.rglob("*")):
    if p.is_file():
        b = p.read_bytes().lower()
        found = [w for w in words if w.encode() in b]
        if found:
            print("FILE", p.relative_to(d), p.stat().st_size, found)
