"""Round twenty of the new-user pass, run as the docs tell a reader: ``engram ingest``
for every note of the vault (docs/documents.md's loop), the PDFs, the web pages served
from 127.0.0.1 (with the operator's opt-in for private URLs), the questions through the
library, then the "weeks later" edits, renames and deletions and a second ingest of the
whole vault.

    PYTHONPATH=src .venv/bin/python scripts/dogfood20_cases.py /tmp/dogfood20-cases
    PYTHONPATH=src .venv/bin/python scripts/dogfood20_pass.py /tmp/dogfood20-cases \
        /tmp/dogfood20-home1

Prints one JSON object of counts; the cases are edited in place (write them again to
rerun).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from engram import Memory

ENGRAM = str(Path(sys.executable).with_name("engram"))


def cli(
    home: Path, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``engram ARGS`` in the home, as a reader types it."""
    full = {**os.environ, "ENGRAM_HOME": str(home), **(env or {})}
    return subprocess.run([ENGRAM, *args], capture_output=True, text=True, env=full, check=False)


def ingest_vault(home: Path, vault: Path) -> dict[str, Any]:
    """``for f in vault/*/*.md; do engram ingest "$f"; done``, timed."""
    files = sorted(vault.glob("*/*.md"))
    seconds: list[float] = []
    failed = []
    for f in files:
        start = time.monotonic()
        done = cli(home, "ingest", str(f), "--json")
        seconds.append(time.monotonic() - start)
        if done.returncode != 0:
            failed.append((f.name, done.returncode, done.stderr.strip()[-300:]))
    size = sum(f.stat().st_size for f in files)
    return {
        "files": len(files),
        "bytes": size,
        "seconds_total": round(sum(seconds), 1),
        "seconds_median": round(statistics.median(seconds), 2),
        "failed": failed,
    }


def counts(home: Path) -> dict[str, int]:
    os.environ["ENGRAM_HOME"] = str(home)
    with Memory(embedder=None) as mem:
        docs = mem.documents.count()
        chunks = len(mem.get_all(limit=1000))
    return {"documents": docs, "memories": chunks}


def source_of(mem: Memory, memory_id: str, cache: dict[str, str]) -> str:
    record = mem.get(memory_id)
    doc_id = record.document_id if record is not None else None
    if doc_id is None:
        return "?"
    if doc_id not in cache:
        try:
            cache[doc_id] = mem.documents.get(doc_id).source or "text"
        except Exception:  # the document was deleted: its chunk outlived it
            cache[doc_id] = "<deleted document>"
    return cache[doc_id]


def ask(home: Path, cases: dict[str, Any], root: Path) -> dict[str, Any]:
    os.environ["ENGRAM_HOME"] = str(home)
    out: dict[str, Any] = {"top4": 0, "first": 0, "silent": 0, "low": 0, "wrong": 0, "misses": []}
    cache: dict[str, str] = {}
    with Memory() as mem:
        for case in cases["questions"]:
            gold = str(root / "vault" / case["gold"])
            r = mem.recall(case["q"])
            sources = [source_of(mem, h.memory.id, cache) for h in r.hits[:4]]
            named = any(Path(gold).stem in line for line in r.context.splitlines())
            out.setdefault("context_names_file", 0)
            out["context_names_file"] += named
            if not r.shown:
                out["silent"] += 1
            elif gold in sources:
                out["top4"] += 1
                out["first"] += sources[0] == gold
                out["low"] += r.low_confidence
            elif r.low_confidence:
                out["low"] += 1
                out["misses"].append((case["q"], [Path(s).name for s in sources], "low"))
            else:
                out["wrong"] += 1
                out["misses"].append((case["q"], [Path(s).name for s in sources], "confident"))
        un = {"abstained": 0, "low": 0, "confident": []}
        for q in cases["unanswerable"]:
            r = mem.recall(q)
            if not r.shown:
                un["abstained"] += 1
            elif r.low_confidence:
                un["low"] += 1
            else:
                un["confident"].append((q, Path(source_of(mem, r.hits[0].memory.id, cache)).name))
        out["unanswerable"] = un
    return out


def weeks_later(root: Path, cases: dict[str, Any]) -> None:
    vault = root / "vault"
    for edit in cases["edits"]:
        path = vault / edit["file"]
        text = path.read_text(encoding="utf-8")
        assert edit["old"] in text, edit
        path.write_text(text.replace(edit["old"], edit["new"]), encoding="utf-8")
    for old, new in cases["renames"]:
        (vault / old).rename(vault / new)
    for gone in cases["deletions"]:
        (vault / gone).unlink()


def after_edits(home: Path, cases: dict[str, Any], root: Path) -> dict[str, Any]:
    """Old facts still recalled, new facts found, and what the deleted/renamed notes left."""
    os.environ["ENGRAM_HOME"] = str(home)
    out: dict[str, Any] = {"new_in_top4": 0, "old_in_top4": 0, "old_first": 0}
    with Memory() as mem:
        for edit in cases["edits"]:
            r = mem.recall(edit["q"])
            texts = [h.memory.content for h in r.hits[:4]]
            out["new_in_top4"] += any(edit["new"] in t for t in texts)
            out["old_in_top4"] += any(edit["old"] in t for t in texts)
            out["old_first"] += bool(texts) and edit["old"] in texts[0]
        sources = [d.source or "" for d in mem.documents.list(limit=1000)]
        gone = [old for old, _ in cases["renames"]] + list(cases["deletions"])
        out["documents_of_missing_files"] = sum(
            1 for s in sources if any(s.endswith(g) for g in gone)
        )
        out["documents_per_source_max"] = max(sources.count(s) for s in set(sources))
    return out


def serve_pages(root: Path) -> tuple[http.server.ThreadingHTTPServer, int]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, server.server_address[1]


def main() -> None:
    root, home = Path(sys.argv[1]), Path(sys.argv[2])
    shutil.rmtree(home, ignore_errors=True)
    cases = json.loads((root / "questions.json").read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    report["ingest"] = ingest_vault(home, root / "vault")
    report["after_ingest"] = counts(home)
    report["reingest"] = ingest_vault(home, root / "vault")
    report["after_reingest"] = counts(home)
    report["pdfs"] = []
    for pdf in sorted((root / "papers").glob("*.pdf")):
        done = cli(home, "ingest", str(pdf))
        report["pdfs"].append((pdf.name, done.returncode, done.stderr.strip()[-400:]))
    server, port = serve_pages(root)
    report["pages"] = []
    for page in sorted((root / "pages").glob("*.html")):
        url = f"http://127.0.0.1:{port}/pages/{page.name}"
        refused = cli(home, "ingest", url)
        allowed = cli(home, "ingest", url, env={"ENGRAM_DOCUMENTS_ALLOW_PRIVATE_URLS": "true"})
        report["pages"].append(
            (
                page.name,
                refused.returncode,
                refused.stderr.strip()[-200:],
                allowed.returncode,
                allowed.stdout.strip()[-120:],
            )
        )
    server.shutdown()
    report["questions"] = ask(home, cases, root)
    weeks_later(root, cases)
    report["reingest_after_edits"] = ingest_vault(home, root / "vault")
    report["after_edits_counts"] = counts(home)
    report["after_edits"] = after_edits(home, cases, root)
    print(json.dumps(report, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
