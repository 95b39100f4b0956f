"""A file given as bytes: ``mem.documents.ingest(data=..., filename=...)``, the same bytes
over HTTP (``POST /v1/documents`` with ``file``) and ``engram.client``'s ``path=``, which
reads a local file and sends its bytes. A PDF is read page by page whichever way it came,
bad input is refused saying what to do, and nothing is stored when it is."""

from __future__ import annotations

import base64
from pathlib import Path

import httpx
import pytest

from conftest import HashEmbedder, HttpServed
from engram import Config, Memory
from engram.client import EngramClient
from engram.errors import ContentTooLargeError, EmptyContentError, InvalidInputError
from pdf_maker import ROLLOUT_PAGES, pdf_bytes

ALICE = "user:alice"
PAGES = ROLLOUT_PAGES


def labels(mem: Memory, doc_id: str) -> list[tuple[str, list[int] | None]]:
    chunks = mem.documents.chunks(doc_id, namespace=ALICE)
    metas = [mem.get(c.memory_id, namespace=ALICE).metadata for c in chunks]
    return [(meta["source"], meta.get("pages")) for meta in metas]


# -- the library ------------------------------------------------------------------------
def test_pdf_bytes_are_read_page_by_page_and_labelled_by_their_name(small_docs: Memory) -> None:
    doc = small_docs.documents.ingest(
        data=pdf_bytes(PAGES), filename="C:\\Users\\sam\\reports/paper.pdf", namespace=ALICE
    )
    # Only the name is kept: the directories are the caller's machine's.
    assert (doc.source_type, doc.source, doc.content_type) == (
        "file",
        "paper.pdf",
        "application/pdf",
    )
    assert small_docs.documents.process(doc.id, namespace=ALICE).status == "done"
    assert labels(small_docs, doc.id) == [("paper.pdf", [n, n]) for n in (1, 2, 3)]
    assert "(from paper.pdf, p. 1)" in small_docs.recall("Page 1 falcon rollout", **_a()).context
    # The same bytes under the same name again: the document it already is.
    again = small_docs.documents.ingest(
        data=pdf_bytes(PAGES), filename="paper.pdf", namespace=ALICE
    )
    assert again.id == doc.id and small_docs.documents.count(namespace=ALICE) == 1


def test_text_bytes_are_decoded_as_a_files_text_would_be(small_docs: Memory) -> None:
    note = "# Deploys\n\nRun ops/deploy.sh from the bastion host.\n"
    doc = small_docs.documents.ingest(data=note.encode("utf-16"), filename="notes.md", **_a())
    assert (doc.source, doc.content_type) == ("notes.md", "text/markdown")
    assert small_docs.documents.process(doc.id, **_a()).status == "done"
    assert "deploy.sh" in small_docs.recall("how do deploys run?", **_a()).context
    unnamed = small_docs.documents.ingest(data=b"The wifi password is on the fridge.", **_a())
    assert (unnamed.source, unnamed.content_type) == (None, "text/plain")


@pytest.mark.parametrize(
    ("kwargs", "error", "said"),
    [
        ({"data": "a string"}, InvalidInputError, "data must be bytes"),
        ({"text": "t", "data": b"x"}, InvalidInputError, r"got text, data"),
        ({"text": "t", "filename": "a.md"}, InvalidInputError, "filename names the bytes"),
        ({"data": b"x", "filename": "../"}, InvalidInputError, "has no name in it"),
        ({"data": b"x", "filename": 7}, InvalidInputError, "filename is a file's name"),
        ({"data": b"%PDF-1.4 broken", "filename": "a.pdf"}, InvalidInputError, "damaged"),
        ({"data": b"plain", "filename": "a.pdf"}, InvalidInputError, "give it a .txt"),
        ({"data": b"\xff\xfe\xff", "filename": "a.txt"}, InvalidInputError, "not valid UTF-16"),
        (
            {"data": b"PK\x03\x04\x14\x00\x08\x00\x9c\xff", "filename": "a.docx"},
            InvalidInputError,
            "pandoc",
        ),
        ({"data": b"  \n ", "filename": "a.txt"}, EmptyContentError, "a.txt is empty"),
        ({"data": b"x" * 2000}, ContentTooLargeError, "max_content_bytes"),
    ],
)
def test_bad_bytes_are_refused_saying_what_to_do_and_store_nothing(
    config: Config, store_location: str, kwargs: dict[str, object], error: type, said: str
) -> None:
    tight = config.with_overrides(documents={"max_content_bytes": 1024})
    with Memory(store_location, config=tight, embedder=HashEmbedder()) as mem:
        kept = mem.documents.ingest("An earlier document.", **_a())
        with pytest.raises(error, match=said):
            mem.documents.ingest(**kwargs, **_a())  # type: ignore[arg-type]
        assert [d.id for d in mem.documents.list(**_a())] == [kept.id]
        assert sum(mem.jobs.counts(namespace=ALICE).values()) == 1


def _a() -> dict[str, str]:
    return {"namespace": ALICE}


# -- HTTP and the client -----------------------------------------------------------------
def _file(data: bytes, name: str | None = "paper.pdf") -> dict[str, object]:
    body: dict[str, object] = {"data_base64": base64.b64encode(data).decode()}
    return body if name is None else {**body, "name": name}


def test_a_pdf_sent_over_http_is_read_like_a_local_one(http_server: HttpServed) -> None:
    url, keys, memory = http_server
    with httpx.Client(base_url=url, headers=_bearer(keys["alice"]), timeout=10) as alice:
        sent = alice.post("/v1/documents", json={"file": _file(pdf_bytes(PAGES))})
        assert sent.status_code == 202, sent.text
        doc = sent.json()
        assert (doc["source"], doc["content_type"]) == ("paper.pdf", "application/pdf")
        assert memory.documents.process(doc["id"], **_a()).status == "done"
        hit = alice.post("/v1/recall", json={"query": "the osprey rollout"}).json()
        assert "(from paper.pdf, p" in hit["context"]


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"file": {"data_base64": "not base64!", "name": "a.pdf"}}, "not valid base64"),
        ({"text": "t", "file": {"data_base64": "eA=="}}, "exactly one of text, file and url"),
        ({"file": {"data_base64": "eA==", "name": "a.pdf"}}, "is not a PDF"),
    ],
)
def test_a_bad_upload_is_a_422_that_says_what_to_do(
    http_server: HttpServed, body: dict[str, object], said: str
) -> None:
    url, keys, memory = http_server
    with httpx.Client(base_url=url, headers=_bearer(keys["alice"]), timeout=10) as alice:
        answer = alice.post("/v1/documents", json=body)
        assert answer.status_code == 422 and said in answer.text, answer.text
    assert memory.documents.count(**_a()) == 0


def test_a_document_may_be_larger_than_any_other_request(http_server: HttpServed) -> None:
    """The 1 MiB body limit would refuse a 1 MB file's base64; the documents route's
    limit is the base64 of ``[documents] max_content_bytes`` (10 MiB)."""
    url, keys, memory = http_server
    big = ("The quarterly report names the falcon rollout. " * 25_000).encode()[:1_200_000]
    with httpx.Client(base_url=url, headers=_bearer(keys["alice"]), timeout=30) as alice:
        sent = alice.post("/v1/documents", json={"file": _file(big, "report.txt")})
        assert sent.status_code == 202, sent.text[:300]
        refused = alice.post("/v1/memories", json={"content": big.decode()})
        assert refused.status_code == 413 and "api.max_body_bytes" in refused.text
        limit = memory.config.documents.max_content_bytes
        over = alice.post(
            "/v1/documents",
            content=b" " * (4 * limit // 3 + 70_000),
            headers={"Content-Type": "application/json"},
        )
        assert over.status_code == 413 and "max_content_bytes" in over.text


def test_the_client_sends_a_local_pdf_by_path(http_server: HttpServed, tmp_path: Path) -> None:
    url, keys, memory = http_server
    path = tmp_path / "paper.pdf"
    path.write_bytes(pdf_bytes(PAGES))
    with EngramClient(url, keys["alice"], timeout=10) as client:
        doc = client.documents.ingest(path=path, title="Rollouts")
        assert (doc.source, doc.content_type, doc.title) == (
            "paper.pdf",
            "application/pdf",
            "Rollouts",
        )
        memory.documents.process(doc.id, **_a())
        assert "(from paper.pdf, p" in client.recall("the heron rollout").context
        with pytest.raises(InvalidInputError, match="path must be a readable file"):
            client.documents.ingest(path=tmp_path / "missing.pdf")
        with pytest.raises(InvalidInputError, match="exactly one of text, path, data or url"):
            client.documents.ingest("text", path=path)


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def test_the_documents_limit_holds_behind_a_proxys_prefix() -> None:
    """Behind a proxy's prefix the path is "/engram/v1/documents": the wider limit is the
    documents route's there too, and no other route gets it."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import PlainTextResponse
    from starlette.routing import Route
    from starlette.testclient import TestClient

    from engram.api.limits import BodyLimit

    async def echo(request: Request) -> PlainTextResponse:
        return PlainTextResponse(str(len(await request.body())))

    app = Starlette(routes=[Route("/{rest:path}", echo, methods=["POST"])])
    limited = BodyLimit(app, max_bytes=10, wider={"/v1/documents": (100, "the documents'")})
    with TestClient(limited) as client:
        for path in ("/v1/documents", "/engram/v1/documents"):
            assert client.post(path, content=b"x" * 50).text == "50"
            assert client.post(path, content=b"x" * 101).status_code == 413
        for path in ("/v1/memories", "/engram/v1/documentsx", "/x-v1/documents"):
            assert client.post(path, content=b"x" * 50).status_code == 413, path
