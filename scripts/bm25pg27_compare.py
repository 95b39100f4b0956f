"""Compare the keyword leg's raw BM25 on SQLite and PostgreSQL over one written store.

Writes the same memories (titles, tags, deletions) into a SQLite ``:memory:`` store and a
PostgreSQL database, asks the same queries of ``store.keyword.search`` on both and
prints, per query, the largest score difference and whether the order agrees.

    PYTHONPATH=src:tests python scripts/bm25pg27_compare.py [postgresql://...]

Without a URL it starts a throwaway server (tests/pgserver.py) and stops it after.
"""

from __future__ import annotations

import sys

from engram import Memory
from engram.text import fts_query

DOCS: list[tuple[str, str | None, list[str]]] = [
    ("Our error budget for the public API is 99.9% monthly availability.", None, ["sre"]),
    ("The CDN is CloudFront in front of the static assets bucket.", "CDN", ["infra"]),
    ("Deploys go out every Tuesday after the API smoke tests pass.", "Deploy day", []),
    ("The API gateway rate limit is 500 requests per minute per key.", None, ["api"]),
    ("We deploy the billing service with blue-green deployments.", "Billing", ["deploy"]),
    ("Maya owns the on-call rotation for the payments API.", None, []),
]
QUERIES = [
    "what uptime target do we promise for the API?",
    "how do we deploy?",
    "who owns on-call for payments?",
    "what is the rate limit of the gateway?",
    "where are static assets served from?",
]


def run(location: str) -> dict[str, list[tuple[str, float]]]:
    mem = Memory(location)
    ids = []
    for content, title, tags in DOCS:
        ids.append(mem.add(content, user_id="o", title=title, tags=tags).id)
    mem.jobs.process_pending()
    ns = "user:o"
    out = {}
    for q in QUERIES:
        rows = mem.store.keyword.search(ns, fts_query(q) or q, 50)
        contents = {m.id: m.content for m in mem.get_all(user_id="o", limit=500)}
        out[q] = [(contents.get(i, i)[:40], s) for i, s in rows]
    mem.close()
    return out


def main() -> None:
    server = None
    if len(sys.argv) > 1:
        url = sys.argv[1]
    else:
        from pgserver import PgServer

        server = PgServer.start()
        url = server.database_url(server.create_database())
    try:
        a, b = run(":memory:"), run(url)
    finally:
        if server is not None:
            server.stop()
    for q in QUERIES:
        print(q)
        for (ca, sa), (cb, sb) in zip(a[q], b[q], strict=False):
            print(f"  {sa:9.5f} {ca:40} | {sb:9.5f} {cb}")


if __name__ == "__main__":
    main()
