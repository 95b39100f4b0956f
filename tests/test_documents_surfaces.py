"""Document ingest through every surface: ``engram ingest`` (then the store is reopened),
the HTTP routes over a real socket (with the server's own worker, and alice trying every
document route on bob's documents), and the MCP ``ingest_document`` tool."""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result
from mcp import Client

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.errors import InvalidInputError
from engram.mcp.server import create_mcp_server
from test_documents_fetch import serve_documents

KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
#: The test site is on 127.0.0.1, which takes the operator's opt-in (issue 26).
LOCAL = {**KEYWORD_ONLY, "ENGRAM_DOCUMENTS_ALLOW_PRIVATE_URLS": "true"}
ALICE, BOB = "user:alice", "user:bob"
RUNBOOK = " ".join(f"Step {i}: page the on-call engineer before deploy {i}." for i in range(80))


@pytest.fixture
def site() -> Iterator[str]:
    with serve_documents() as (url, _):
        yield url


# -- the CLI ---------------------------------------------------------------------------------
def ingest(
    home: Path, *args: str, input: str | None = None, env: dict[str, str] = KEYWORD_ONLY
) -> Result:
    return CliRunner().invoke(cli, ["--home", str(home), "ingest", *args], env=env, input=input)


def reopen(home: Path) -> Memory:
    return Memory(config=Config.load(env={}, home=str(home), embedder={"name": "none"}))


def test_cli_ingests_a_file_and_the_chunks_are_stored(tmp_path: Path) -> None:
    home, path = tmp_path / "home", tmp_path / "runbook.md"
    path.write_text(RUNBOOK, encoding="utf-8")
    result = ingest(home, str(path), "--user", "alice", "--title", "Runbook", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["status"], out["source"], out["title"]) == ("done", str(path), "Runbook")
    assert out["chunk_count"] == len(out["memory_ids"]) == 3  # 4 000 characters
    with reopen(home) as mem:
        for memory_id in out["memory_ids"]:
            record = mem.get(memory_id, user_id="alice")
            assert (record.document_id, record.tags) == (out["id"], ("Runbook",))
        assert mem.documents.get(out["id"], user_id="alice").status == "done"


def test_cli_shows_the_statuses_and_a_summary(tmp_path: Path) -> None:
    result = ingest(tmp_path / "home", "-", "-n", "notes", input="Kites fly best at dawn.")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("ingested ") and "in notes: 1 chunk" in result.stdout
    lines = [line for line in result.stderr.splitlines() if ": " in line]
    assert lines[0].endswith(": queued") and lines[-1].endswith(": done")


def test_cli_no_wait_only_queues(tmp_path: Path) -> None:
    home = tmp_path / "home"
    result = ingest(home, "-", "--no-wait", "--json", input="Queued for later.")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["status"], out["memory_ids"]) == ("queued", [])
    with reopen(home) as mem:
        assert mem.jobs.list(kind="document_ingest").items[0].document_id == out["id"]
        assert mem.documents.process(out["id"]).status == "done"


def test_cli_fetches_a_url(tmp_path: Path, site: str) -> None:
    result = ingest(tmp_path / "home", f"{site}/page.html", "--json", env=LOCAL)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert (out["status"], out["title"], out["source_type"]) == (
        "done",
        "The Falcon Runbook",
        "url",
    )


def test_cli_reports_a_failed_document_with_exit_code_1(tmp_path: Path, site: str) -> None:
    result = ingest(tmp_path / "home", f"{site}/image.png", "--json", env=LOCAL)
    assert result.exit_code == 1
    assert json.loads(result.stdout)["status"] == "failed"
    error = json.loads(result.stderr.strip().splitlines()[-1])
    assert error["error"] == "document_failed" and "image/png" in error["detail"]


@pytest.mark.parametrize(
    ("source", "message"),
    [("file:///etc/hostname", "only http and https"), ("missing.txt", "no file at")],
)
def test_cli_refuses_bad_sources_with_exit_code_2(
    tmp_path: Path, source: str, message: str
) -> None:
    result = ingest(tmp_path / "home", source)
    assert result.exit_code == 2 and message in result.stderr


@pytest.mark.parametrize(("source", "said"), [("", "empty"), ("  ", "blank")])
def test_cli_refuses_an_empty_source_as_empty(tmp_path: Path, source: str, said: str) -> None:
    # Round fourteen: `engram ingest ""` read as Path(""), the current directory, and
    # was refused as "/work/... is a directory".
    home = tmp_path / "home"
    result = ingest(home, source)
    assert result.exit_code == 2, result.output
    assert f'SOURCE is {said}: give a file\'s path, an http(s) URL, or "-"' in result.stderr
    assert "directory" not in result.stderr and not home.exists()


def test_cli_import_refuses_an_empty_file_name_as_empty(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "import", ""], env=KEYWORD_ONLY)
    assert result.exit_code == 2, result.output
    assert 'FILE is empty: give the path of an `engram export` file, or "-"' in result.stderr


@pytest.mark.parametrize(("path", "said"), [("", "empty"), ("  ", "blank")])
def test_the_library_refuses_an_empty_path_as_empty(mem: Memory, path: str, said: str) -> None:
    # Round fourteen's leftover, in the library: ``Path("")`` is the current directory,
    # so ``documents.ingest(path="")`` said "<cwd> is a directory" and
    # ``admin.import_jsonl("")`` "cannot read .": only the CLI said it in words.
    mem.add("Backups run at 02:00 UTC.")
    with pytest.raises(InvalidInputError) as ingested:
        mem.documents.ingest(path=path)
    with pytest.raises(InvalidInputError) as imported:
        mem.admin.import_jsonl(path)
    for caught in (ingested, imported):
        assert str(caught.value) == f"path is {said}: give a file's path", caught.value
    assert mem.documents.list() == [] and len(mem.get_all()) == 1
    with pytest.raises(InvalidInputError, match="path must be a file path, got bytes"):
        mem.documents.ingest(path=b"notes.txt")  # type: ignore[arg-type]


# -- HTTP -----------------------------------------------------------------------------------
class Api:
    def __init__(self, url: str, memory: Memory, keys: dict[str, str]) -> None:
        self.url, self.memory, self.keys = url, memory, keys

    def client(self, who: str) -> httpx.Client:
        headers = {"Authorization": f"Bearer {self.keys[who]}"}
        return httpx.Client(base_url=self.url, timeout=10, headers=headers)


@pytest.fixture
def api(config: Config) -> Iterator[Api]:
    cfg = config.with_overrides(worker={"poll_ms": 100}, documents={"allow_private_urls": True})
    with Memory(":memory:", config=cfg, embedder=HashEmbedder()) as memory:
        keys = {u: memory.keys.create(u)[1] for u in ("alice", "bob")}
        keys["admin"] = memory.keys.create("root", admin=True)[1]
        with serve_in_thread(create_app(memory)) as url:
            yield Api(url, memory, keys)


def settled(client: httpx.Client, document_id: str, **params: str) -> dict[str, Any]:
    """The document once the server's worker has finished with it."""
    deadline = time.monotonic() + 20
    while True:
        body: dict[str, Any] = client.get(f"/v1/documents/{document_id}", params=params).json()
        if body["status"] in ("done", "failed") or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def test_http_queues_a_text_and_the_server_worker_indexes_it(api: Api) -> None:
    with api.client("alice") as alice:
        made = alice.post("/v1/documents", json={"text": RUNBOOK, "title": "Runbook"})
        assert made.status_code == 202, made.text
        assert (made.json()["status"], made.json()["namespace"]) == ("queued", ALICE)
        done = settled(alice, made.json()["id"])
        assert done["status"] == "done" and done["chunk_count"] == len(done["memory_ids"]) == 3
        memory = alice.get(f"/v1/memories/{done['memory_ids'][0]}").json()
        assert (memory["type"], memory["document_id"]) == ("document_chunk", done["id"])
        listed = alice.get("/v1/documents", params={"status": "done"}).json()
        assert [d["id"] for d in listed["items"]] == [done["id"]] and listed["total"] == 1
        hits = alice.post("/v1/recall", json={"query": "on-call engineer deploy 42"}).json()
        assert hits["hits"][0]["memory"]["document_id"] == done["id"]


def test_http_fetches_a_url(api: Api, site: str) -> None:
    with api.client("alice") as alice:
        made = alice.post("/v1/documents", json={"url": f"{site}/page.html"})
        assert made.status_code == 202 and made.json()["source_type"] == "url"
        done = settled(alice, made.json()["id"])
        assert (done["status"], done["title"]) == ("done", "The Falcon Runbook")


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"text": "a", "url": "http://127.0.0.1/"},
        {"url": "file:///etc/passwd"},
        {"path": "/etc/passwd"},
        {"text": ""},
        {"text": "a", "status": "done"},
    ],
)
def test_http_refuses_bad_documents(api: Api, body: dict[str, Any]) -> None:
    with api.client("alice") as alice:
        response = alice.post("/v1/documents", json=body)
        assert response.status_code == 422, response.text
        assert alice.get("/v1/documents").json()["total"] == 0


def test_http_keys_keep_documents_apart(api: Api) -> None:
    bob_doc = api.memory.documents.ingest(
        "Bob's secret runbook: the vault code is 4321.", user_id="bob"
    )
    api.memory.documents.process(bob_doc.id, user_id="bob")
    before = api.memory.documents.get(bob_doc.id, user_id="bob")
    with api.client("alice") as alice:
        for scope in ({"namespace": BOB}, {"user_id": "bob"}, {"namespace": "user:bob/x"}):
            attempts = [
                alice.post("/v1/documents", json={"text": "planted", **scope}),
                alice.get("/v1/documents", params=scope),
                alice.get(f"/v1/documents/{bob_doc.id}", params=scope),
            ]
            assert [r.status_code for r in attempts] == [403, 403, 403]
        # By id from her own namespace: not found, never forbidden (no existence leak).
        own = alice.get(f"/v1/documents/{bob_doc.id}")
        assert own.status_code == 404 and "vault" not in own.text
        assert alice.get("/v1/documents").json() == {
            "items": [],
            "total": 0,
            "limit": 100,
            "offset": 0,
        }
    with api.client("bob") as bob:
        got = bob.get(f"/v1/documents/{bob_doc.id}").json()
        assert got["status"] == "done" and len(got["memory_ids"]) == 1
    with api.client("admin") as admin:
        assert (
            admin.get(f"/v1/documents/{bob_doc.id}", params={"namespace": BOB}).status_code == 200
        )
    assert api.memory.documents.get(bob_doc.id, user_id="bob") == before
    assert api.memory.documents.count(user_id="bob") == 1


# -- MCP ------------------------------------------------------------------------------------


@pytest.fixture
async def alice_mcp(mem: Memory) -> AsyncIterator[Client]:
    async with Client(create_mcp_server(mem, namespace=ALICE)) as client:
        yield client


@pytest.mark.anyio
async def test_mcp_queues_a_document_that_the_worker_indexes(
    alice_mcp: Client, mem: Memory
) -> None:
    result = await alice_mcp.call_tool("ingest_document", {"text": RUNBOOK, "title": "Runbook"})
    assert not result.is_error
    queued = result.structured_content
    assert queued is not None and queued["status"] == "queued"
    assert mem.documents.get(queued["document_id"], namespace=ALICE).namespace == ALICE
    mem.jobs.process_pending()
    assert mem.documents.get(queued["document_id"], namespace=ALICE).status == "done"
    found = await alice_mcp.call_tool("search_memory", {"query": "on-call engineer deploy 7"})
    assert found.structured_content is not None
    assert found.structured_content["hits"][0]["type"] == "document_chunk"
    assert mem.documents.count(namespace=BOB) == 0


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "exactly one of text and url (got neither)"),  # the tool has no path
        ({"text": "a", "url": "http://127.0.0.1/"}, "exactly one of"),
        ({"url": "file:///etc/passwd"}, "only http and https"),
        ({"text": "a", "namespace": BOB}, "'namespace' is not an argument of ingest_document"),
        ({"text": "a", "path": "/etc/passwd"}, "'path' is not an argument of ingest_document"),
    ],
)
async def test_mcp_refuses_bad_documents(
    alice_mcp: Client, mem: Memory, arguments: dict[str, Any], message: str
) -> None:
    result = await alice_mcp.call_tool("ingest_document", arguments)
    assert result.is_error
    assert message in " ".join(getattr(block, "text", "") for block in result.content)
    assert mem.documents.count(namespace=ALICE) == mem.documents.count(namespace=BOB) == 0
