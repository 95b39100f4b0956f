"""Round twenty-two of the new-user pass: a researcher keeps their documents in engram
and asks about them (docs/documents.md), every way in.

Builds the documents of ``dogfood22_cases`` under the directory given (three PDFs made
with tests/pdf_maker.py, two Markdown notes, a transcript, an HTML page served on
127.0.0.1), then ingests them as a user would: ``engram ingest FILE`` (the CLI, in a
subprocess) for the transcript and the fieldwork note; ``mem.documents.ingest(path=)``
for the paper and the reading note; ``EngramClient(...).documents.ingest(path=)``
against ``engram serve``'s app for the contract and the manual (a PDF sent as bytes);
``ingest(url=)`` for the web page (``[documents] allow_private_urls = true``). Asks
the questions (recall, limit 4), then edits the fieldwork note and ingests it again
through the CLI, deletes the reading note's document, and asks again.
SQLite, MiniLM (the default embedder), the defaults.

    PYTHONPATH=src .venv/bin/python scripts/dogfood22_documents.py /tmp/dogfood22 [a|b|c|d|e]

Fold C (round twenty-five, ``dogfood25_cases``) is other documents: a bakery's lease and
inspection report (PDFs), a long decisions note and a call transcript, ingested with
``mem.documents.ingest(path=)`` and asked once (no edit, no delete). Fold D (round
twenty-six, ``dogfood26_cases``), the same way: a grant award letter and an equipment
supply agreement (PDFs whose parties only page 1 names) and a project plan; fold E
(``dogfood26e_cases``): a venue hire agreement and a rehearsal note.

Prints one JSON object: gold in the context / first, the source label right, what the
unanswerable questions got, the edited note's old text and the deleted note's chunks
coming back; ``answers.json`` in the directory holds every question's context.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts")]

from dogfood22_cases import (  # noqa: E402
    CONTRACT,
    FIELDWORK_MD,
    HTML_PAGE,
    MANUAL,
    PAPER,
    QUESTIONS,
    QUESTIONS_B,
    READING_MD,
    Question,
    transcript,
)

from engram import Memory  # noqa: E402
from engram.api.app import create_app  # noqa: E402
from engram.api.server import serve_in_thread  # noqa: E402
from engram.client import EngramClient  # noqa: E402
from engram.config import Config  # noqa: E402
from pdf_maker import pdf_bytes  # noqa: E402

USER = "maria"
CONFIG = os.environ.get("DOGFOOD22_CONFIG", "[documents]\nallow_private_urls = true\n")
#: The edit: the supplier's lead time changes.
OLD_EDIT = "the supplier in\n   Braga quotes a six week lead time."
NEW_EDIT = "the supplier in\n   Braga now quotes a nine week lead time."
EDIT_QUESTION = Question(
    "How long does the Braga supplier take to deliver?", "nine week lead time", "fieldwork.md"
)
_LABEL = re.compile(r"\(from ([^)]*?)(?:, pp?\. (\d+)(?:-(\d+))?)?\) \(id: ([0-9a-f]+)")


def flat(text: str) -> str:
    return " ".join(text.split())


def build(out: Path) -> dict[str, Path]:
    """The documents on disk."""
    files = {
        "paper.pdf": pdf_bytes(["\n".join(p) for p in PAPER]),
        "contract.pdf": pdf_bytes(["\n".join(p) for p in CONTRACT]),
        "manual.pdf": pdf_bytes(["\n".join(p) for p in MANUAL]),
    }
    paths: dict[str, Path] = {}
    for name in files:
        paths[name] = out / "docs" / name
    (out / "docs" / "notes").mkdir(parents=True)
    (out / "site").mkdir()
    for name, data in files.items():
        paths[name].write_bytes(data)
    for name, text in (("fieldwork.md", FIELDWORK_MD), ("reading.md", READING_MD)):
        paths[name] = out / "docs" / "notes" / name
        paths[name].write_text(text, encoding="utf-8")
    paths["transcript.txt"] = out / "docs" / "transcript.txt"
    paths["transcript.txt"].write_text(transcript(), encoding="utf-8")
    (out / "site" / "grants.html").write_text(HTML_PAGE, encoding="utf-8")
    return paths


@contextmanager
def site(root: Path) -> Iterator[str]:
    """The web page, served on 127.0.0.1."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/grants.html"
    finally:
        server.shutdown()


def cli(out: Path, *args: str) -> dict[str, Any]:
    """``engram ingest`` as a user runs it, on the same store."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "engram",
            "--home",
            str(out / "home"),
            "--db",
            str(out / "docs.db"),
            "ingest",
            *args,
            "--user",
            USER,
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"engram ingest {args}: {done.returncode}\n{done.stderr}")
    return json.loads(done.stdout)


def ask(memory: Memory, q: Question) -> dict[str, Any]:
    """One question's recall (limit 4): the context, and where the gold sits in it."""
    recall = memory.recall(q.text, user_id=USER, limit=4)
    lines = [line for line in recall.context.splitlines() if line.startswith("- ")]
    gold = None if q.gold is None else flat(q.gold)
    at = None
    label_ok = None
    pages_named = page_exact = None
    for i, line in enumerate(lines):
        if gold is not None and gold in flat(line.replace("&amp;", "&")):
            at = i
            label_ok = _label_right(line, q)
            pages_named, page_exact = _pages_named(line, q)
            break
    return {
        "q": q.text,
        "kind": q.kind,
        "at": at,
        "label_ok": label_ok,
        "pages_named": pages_named,
        "page_exact": page_exact,
        "shown": len(lines),
        "abstained": recall.abstained,
        "low_confidence": recall.low_confidence,
        "context": recall.context,
    }


def _label_right(line: str, q: Question) -> bool:
    """The label names the gold's file (a URL for the page) and, for a PDF, a page span
    that holds the gold's page."""
    found = _LABEL.search(line)
    if found is None or q.file is None:
        return False
    name, first, last = found.group(1), found.group(2), found.group(3)
    if q.file == "grants":
        return name.startswith("http://127.0.0.1") and name.endswith("/grants.html")
    if name != q.file:
        return False
    if q.page is None:
        return first is None
    if first is None:
        return False
    return int(first) <= q.page <= int(last or first)


def _pages_named(line: str, q: Question) -> tuple[int | None, bool | None]:
    """For a PDF's gold line (round twenty-three): how many pages its label names, and
    whether it names the gold's page alone."""
    found = _LABEL.search(line)
    if found is None or q.page is None or found.group(2) is None:
        return None, None
    first, last = int(found.group(2)), int(found.group(3) or found.group(2))
    return last - first + 1, first == last == q.page


def pdf_chunk_pages(db: Path) -> list[int]:
    """How many pages each live PDF chunk's label names (round twenty-three)."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT metadata FROM memories WHERE type = 'document_chunk' AND deleted_at IS NULL"
        ).fetchall()
    spans = [json.loads(m or "{}").get("pages") for (m,) in rows]
    return [last - first + 1 for first, last in (s for s in spans if s)]


def summary(answers: list[dict[str, Any]]) -> dict[str, Any]:
    answered = [a for a in answers if a["kind"] != "none"]
    none = [a for a in answers if a["kind"] == "none"]
    return {
        "questions": len(answered),
        "gold_in_context": sum(a["at"] is not None for a in answered),
        "gold_first": sum(a["at"] == 0 for a in answered),
        "label_right": sum(bool(a["label_ok"]) for a in answered),
        "pdf_gold_lines": sum(a["pages_named"] is not None for a in answered),
        "pdf_gold_pages_named": sum(a["pages_named"] or 0 for a in answered),
        "pdf_gold_page_exact": sum(bool(a["page_exact"]) for a in answered),
        "which_gold_first": sum(a["at"] == 0 for a in answered if a["kind"] == "which"),
        "unanswerable": len(none),
        "unanswerable_abstained": sum(a["abstained"] for a in none),
        "unanswerable_low_confidence": sum(a["low_confidence"] for a in none),
        "unanswerable_lines": sum(a["shown"] for a in none),
    }


def main_c(out: Path) -> dict[str, Any]:
    """Fold C: round twenty-five's documents, asked once."""
    from dogfood25_cases import INSPECTION, LEASE, QUESTIONS_C, SUPPLIERS_MD, call_transcript

    files: dict[str, bytes] = {
        "lease.pdf": pdf_bytes(["\n".join(p) for p in LEASE]),
        "inspection.pdf": pdf_bytes(["\n".join(p) for p in INSPECTION]),
        "suppliers.md": SUPPLIERS_MD.encode(),
        "call.txt": call_transcript().encode(),
    }
    return asked_once(out, files, QUESTIONS_C)


def main_d(out: Path) -> dict[str, Any]:
    """Fold D: round twenty-six's documents (a grant award, a supply agreement, a
    plan), asked once."""
    from dogfood26_cases import AWARD, PLAN_MD, QUESTIONS_D, SUPPLY

    files: dict[str, bytes] = {
        "award.pdf": pdf_bytes(["\n".join(p) for p in AWARD]),
        "supply.pdf": pdf_bytes(["\n".join(p) for p in SUPPLY]),
        "plan.md": PLAN_MD.encode(),
    }
    return asked_once(out, files, QUESTIONS_D)


def main_e(out: Path) -> dict[str, Any]:
    """Fold E: round twenty-six's second held-out fold (a venue hire agreement and a
    rehearsal note), asked once."""
    from dogfood26e_cases import HIRE, QUESTIONS_E, REHEARSAL_MD

    files: dict[str, bytes] = {
        "hire.pdf": pdf_bytes(["\n".join(p) for p in HIRE]),
        "rehearsal.md": REHEARSAL_MD.encode(),
    }
    return asked_once(out, files, QUESTIONS_E)


def asked_once(out: Path, files: dict[str, bytes], questions: list[Question]) -> dict[str, Any]:
    """Ingest ``files`` with ``mem.documents.ingest(path=)`` and ask ``questions`` once."""
    shutil.rmtree(out, ignore_errors=True)
    (out / "home").mkdir(parents=True)
    (out / "home" / "config.toml").write_text(CONFIG, encoding="utf-8")
    config = Config.load(env={}, home=str(out / "home"))
    ingested: dict[str, Any] = {}
    with Memory(out / "docs.db", config=config) as memory:
        for name, data in files.items():
            path = out / name
            path.write_bytes(data)
            doc = memory.documents.ingest(path=path, user_id=USER)
            ingested[name] = memory.documents.process(doc.id, user_id=USER).chunk_count
        answers = [ask(memory, q) for q in questions]
    (out / "answers.json").write_text(json.dumps({"before": answers}, indent=1))
    return {
        "chunks": ingested,
        "before": summary(answers),
        "misses_before": [a["q"] for a in answers if a["kind"] != "none" and a["at"] is None],
        "not_first_before": [a["q"] for a in answers if a["at"] not in (None, 0)],
        "unanswerable_shown": {a["q"]: a["shown"] for a in answers if a["kind"] == "none"},
    }


def main(out: Path, fold: str = "a") -> dict[str, Any]:
    if fold == "c":
        return main_c(out)
    if fold == "d":
        return main_d(out)
    if fold == "e":
        return main_e(out)
    questions = QUESTIONS if fold == "a" else QUESTIONS_B
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    (out / "home").mkdir()
    (out / "home" / "config.toml").write_text(CONFIG, encoding="utf-8")
    paths = build(out)
    ingested: dict[str, Any] = {}
    for name in ("transcript.txt", "fieldwork.md"):  # the CLI
        ingested[name] = cli(out, str(paths[name]))["chunk_count"]
    config = Config.load(env={}, home=str(out / "home"))
    with Memory(out / "docs.db", config=config) as memory:
        for name in ("paper.pdf", "reading.md"):  # the library
            doc = memory.documents.ingest(path=paths[name], user_id=USER)
            ingested[name] = memory.documents.process(doc.id, user_id=USER).chunk_count
        key = memory.keys.create(USER)[1]
        app = create_app(memory, worker=False, mcp=False)
        with serve_in_thread(app) as url, EngramClient(url, key) as client:  # PDFs as bytes
            for name in ("contract.pdf", "manual.pdf"):
                doc = client.documents.ingest(path=paths[name])
                ingested[name] = memory.documents.process(doc.id, user_id=USER).chunk_count
        with site(out / "site") as page:  # a URL
            doc = memory.documents.ingest(url=page, user_id=USER)
            done = memory.documents.process(doc.id, user_id=USER)
            ingested["grants.html"] = done.chunk_count
            ingested["grants.html title"] = done.title
        before = [ask(memory, q) for q in questions]
        chunk_pages = pdf_chunk_pages(out / "docs.db")
        # Edit the fieldwork note, ingest it again with the CLI; delete the reading note.
        note = paths["fieldwork.md"]
        text = note.read_text(encoding="utf-8")
        assert OLD_EDIT in text
        note.write_text(text.replace(OLD_EDIT, NEW_EDIT), encoding="utf-8")
    edited = cli(out, str(paths["fieldwork.md"]))
    with Memory(out / "docs.db", config=config) as memory:
        reading = memory.documents.of_source(paths["reading.md"], user_id=USER)
        for doc in reading:
            memory.documents.delete(doc.id, user_id=USER)
        after = [ask(memory, q) for q in questions]
        edit = ask(memory, EDIT_QUESTION)
        listed = [(d.source, d.status, d.chunk_count) for d in memory.documents.list(user_id=USER)]
    old_lead = flat("six week lead time")
    result = {
        "chunks": ingested,
        "edited_chunks": edited["chunk_count"],
        "pdf_chunks": len(chunk_pages),
        "pdf_chunk_pages_named": chunk_pages,
        "documents_after": len(listed),
        "before": summary(before),
        "after": summary([a for a in after if "reading.md" not in _file_of(a["q"])]),
        "edit": {
            "new_text_first": edit["at"] == 0,
            "old_text_back": sum(old_lead in flat(a["context"]) for a in after + [edit]),
        },
        "deleted": {
            "reading_lines_back": sum(
                line.count("(from reading.md") for a in after for line in [a["context"]]
            ),
        },
        "misses_before": [a["q"] for a in before if a["kind"] != "none" and a["at"] is None],
        "not_first_before": [a["q"] for a in before if a["at"] not in (None, 0)],
        "label_wrong_before": [a["q"] for a in before if a["at"] is not None and not a["label_ok"]],
    }
    (out / "answers.json").write_text(
        json.dumps({"before": before, "after": after, "edit": edit, "listed": listed}, indent=1)
    )
    return result


def _file_of(question: str) -> str:
    for q in [*QUESTIONS, *QUESTIONS_B]:
        if q.text == question:
            return q.file or ""
    return ""


if __name__ == "__main__":
    print(json.dumps(main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "a"), indent=1))
