"""Shared fixtures: deterministic embedders that plug in through the real Embedder seam."""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import logging
import sqlite3
import sys
import threading
import warnings
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from mcp import Client

from engram import Config, Memory
from engram.api import create_app
from engram.api.logs import JsonFormatter
from engram.api.server import serve_in_thread
from engram.cli.main import cli
from engram.embed.base import Vectors
from engram.mcp.server import create_mcp_server
from engram.pipeline import handlers as registry_module
from engram.pipeline.handlers import Handler
from engram.records import Hit, MemoryRecord, ScoreBreakdown
from engram.store import Store, open_store
from hashembed import HashEmbedder

if TYPE_CHECKING:
    from pgserver import PgServer


def pytest_addoption(parser: pytest.Parser) -> None:
    """Know pyproject's ``asyncio_default_fixture_loop_scope`` without pytest-asyncio.

    langchain-tests (the ``dev`` extra) installs pytest-asyncio, which turns an unset
    scope into a warning, an error under ``-W error``; where pytest-asyncio is absent
    the key would be an unknown option, an error too. Registering it here (the same
    string option pytest-asyncio declares) keeps both cases clean."""
    parser.addini(
        "asyncio_default_fixture_loop_scope", "pytest-asyncio's fixture loop scope", "string"
    )


# UMAP (the [viz] extra) warns at import that TensorFlow is missing. Imported once here,
# in the main thread with that warning ignored: a graph view's background warm-up would
# otherwise import it on a thread while pytest's per-test filters turn warnings into
# errors, and the failure would surface in whatever test runs then. Without the extra
# the graph view falls back to PCA (its tests cover both).
with warnings.catch_warnings(), contextlib.suppress(ImportError):
    warnings.simplefilter("ignore")
    import umap  # noqa: F401

SHARED = Path(__file__).resolve().parents[2] / "shared"

#: The test HTTP clients' read timeout: a hang guard, not a speed check. The first
#: ``GET /openapi.json`` (the schema of every route) takes about 2.7 s at load 3 and
#: passed 10 s at load 9 (test_trust_edges.py); 60 s is 20x that, and a request that
#: never answers still fails, well before pytest-timeout's 300 s.
HTTP_TIMEOUT = 60.0


def bearer_client(url: str, key: str) -> httpx.Client:
    """An HTTP client of the server at ``url`` that sends ``key`` on every request."""
    return httpx.Client(
        base_url=url, timeout=HTTP_TIMEOUT, headers={"Authorization": f"Bearer {key}"}
    )


@contextlib.contextmanager
def bearer_clients(url: str, keys: dict[str, str], *users: str) -> Iterator[list[httpx.Client]]:
    """``bearer_client`` of each of ``users`` (names in ``keys``), closed together."""
    with contextlib.ExitStack() as stack:
        yield [stack.enter_context(bearer_client(url, keys[user])) for user in users]


def user_keys(
    memory: Memory, users: Sequence[str] = ("alice", "bob"), *, admin: bool = True
) -> dict[str, str]:
    """An API key per user, and with ``admin`` an admin key of ``root`` as ``keys["admin"]``:
    the callers the HTTP tests speak as."""
    keys = {user: memory.keys.create(user)[1] for user in users}
    if admin:
        keys["admin"] = memory.keys.create("root", admin=True)[1]
    return keys


@dataclass
class Api:
    """A running server, its store, and keys for alice and an admin."""

    url: str
    memory: Memory
    alice: str
    admin: str

    def client(self, key: str | None = None) -> httpx.Client:
        """An HTTP client of the server speaking as API ``key`` (none: anonymous)."""
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=HTTP_TIMEOUT)


@contextlib.contextmanager
def keyed_server(
    memory: Memory, users: Sequence[str] = ("alice", "bob"), *, admin: bool = True, **app: Any
) -> Iterator[tuple[str, dict[str, str]]]:
    """``memory`` served on 127.0.0.1 (``create_app(memory, **app)``) with the keys of
    ``user_keys``: the server's URL and the keys."""
    keys = user_keys(memory, users, admin=admin)
    with serve_in_thread(create_app(memory, **app)) as url:
        yield url, keys


@pytest.fixture
async def alice(mem: Memory) -> AsyncIterator[Client]:
    """An MCP client of ``mem``'s tools in alice's namespace (``user:alice``)."""
    async with Client(create_mcp_server(mem, namespace="user:alice")) as client:
        yield client


def in_threads(target: Callable[[], object], count: int, timeout: float | None = None) -> None:
    """Run ``target`` in ``count`` threads at once and wait for them all (each join up to
    ``timeout`` seconds): the concurrency tests' writers and leasers."""
    threads = [threading.Thread(target=target) for _ in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout)


DOCS = Path(__file__).resolve().parents[1] / "docs"


def run_doc_example(
    capsys: pytest.CaptureFixture[str],
    page: str,
    *,
    after: str | None = None,
    printed: str = "```text\n",
) -> None:
    """Run the first ``python`` block of ``docs/<page>`` (of its part after the line
    ``after``) and check that it prints what the page's first ``printed`` block says."""
    # tests/test_docs_examples.py's marker of a compared block is not part of it.
    text = (DOCS / page).read_text("utf-8").replace("<!-- output -->\n", "")
    if after is not None:
        text = text.split(after, 1)[1]
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    expected = text.split(printed, 1)[1].split("```", 1)[0]
    exec(compile(code, f"docs/{page}", "exec"), {"__name__": "docs_example"})  # noqa: S102
    assert capsys.readouterr().out == expected


#: The environment of the CLI tests: keyword-only recall (no model) and no config file.
KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


def import_script(name: str) -> Any:
    """``scripts/<name>.py`` as a module (``scripts/`` is on the path only while it is
    imported)."""
    folder = str(Path(__file__).resolve().parents[1] / "scripts")
    sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(folder)


def run_cli(home: Path, *args: str) -> Result:
    """``engram --home HOME ARGS`` in this process, keyword-only (``KEYWORD_ONLY``)."""
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=KEYWORD_ONLY)


@dataclass
class Served:
    """A served ``Memory`` and API keys by name (``"alice"``, ``"admin"`` ...)."""

    url: str
    memory: Memory
    keys: dict[str, str]

    def client(self, who: str) -> httpx.Client:
        """A client that sends ``who``'s key."""
        return bearer_client(self.url, self.keys[who])


async def tool_call(c: Client, tool: str, **arguments: Any) -> Any:
    """Call an MCP tool and return its structured result, failing on a tool error."""
    result = await c.call_tool(tool, arguments)
    assert not result.is_error, result.content
    assert result.structured_content is not None
    return result.structured_content


def flat_breakdown(score: float) -> ScoreBreakdown:
    """A score breakdown whose every stage is ``score`` (no vector or BM25 leg, neutral
    quality and recency)."""
    return ScoreBreakdown(
        sim=None,
        bm25=None,
        fused=score,
        quality_factor=1.0,
        quality_weight=0.5,
        rank_score=score,
        recency=1.0,
        final=score,
    )


def ranked_hit(
    memory_id: str,
    score: float,
    *,
    content: str | None = None,
    session: str | None = None,
    **metadata: Any,
) -> Hit:
    """A ranked hit of namespace "ns" whose every score stage is ``score``: for the
    tests of what recall does with a ranking (rerank, diversity) without a store."""
    memory = MemoryRecord(
        id=memory_id,
        namespace="ns",
        content=content or f"memory {memory_id}",
        content_hash=memory_id,
        session_id=session,
        metadata=dict(metadata),
    )
    return Hit(memory=memory, score=score, breakdown=flat_breakdown(score))


@pytest.fixture
def anyio_backend() -> str:
    """The MCP tests run on asyncio."""
    return "asyncio"


class Clock:
    """A clock a test moves by hand: the ``clock`` seam of the parts with schedules
    (sessions, lifecycle, maintenance, org ...), so no test sleeps."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def schema_problems(path: str | Path) -> list[str]:
    """What is wrong with a SQLite store that should be fully migrated: an empty list if
    all is well (tests/test_concurrency.py, scripts/reliability_concurrency.py)."""
    from engram.store.sql import migrations
    from engram.store.sqlite.dialect import SQLITE

    conn = sqlite3.connect(path)
    try:
        problems = []
        names = [r[0] for r in conn.execute("SELECT name FROM schema_migrations ORDER BY name")]
        if names != [name for name, _ in migrations.named(SQLITE)]:
            problems.append(f"migrations {names}")
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        for name in ("memories", "memory_vectors", "api_keys", "fts_pending", "fts_namespaces"):
            if name not in tables:
                problems.append(f"missing {name}")
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            problems.append("not in WAL mode")
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            problems.append("integrity_check failed")
        return problems
    finally:
        conn.close()


def record_battery(
    mem: Memory,
    first: str,
    later: str,
    *,
    times: tuple[datetime | None, datetime | None] = (None, None),
    namespace: str | None = None,
) -> None:
    """Issue 12's battery story in the graph: memory ``first`` says Derek's efoil has a
    12V20Ah battery, ``later`` that it has a 48V one (``times``: when each was stated)."""
    mem.graph.record(
        first,
        [("Derek", "owns", "efoil", 0.9), ("efoil", "has battery", "12V20Ah battery", 0.8)],
        entity_types={"Derek": "person", "efoil": "item"},
        now=times[0],
        namespace=namespace,
    )
    mem.graph.record(
        later, [("efoil", "has_battery", "48V battery", 0.9)], now=times[1], namespace=namespace
    )


class FailingEmbedder(HashEmbedder):
    """An embedder whose model is gone: every call raises."""

    name = "test-failing"

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        raise RuntimeError("model server unreachable")


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> Clock:
    """A clock at the test module's ``T0``, moved by hand."""
    return Clock(request.module.T0)


#: The environments of unit tests that drive the pipeline by hand, or run it without
#: the linker.
NO_PIPELINE = {"ENGRAM_PIPELINE_ENABLED": "false"}
NO_LINKER = {"ENGRAM_PIPELINE_LINKER": "false"}


def section_config(
    tmp_path: Path, env: dict[str, str], section: str, values: dict[str, Any]
) -> Config:
    """A config rooted in ``tmp_path/home``, read from ``env`` alone, with ``values``
    overriding the settings of ``[section]``."""
    return Config.load(env=env, home=str(tmp_path / "home")).with_overrides(**{section: values})


def locomo_sample(
    sample_id: str,
    speakers: tuple[str, str],
    sessions: Sequence[tuple[str, list[dict[str, Any]]]],
    **extra: Any,
) -> dict[str, Any]:
    """One conversation in LoCoMo's file format: ``sessions`` as (date and time, turns)
    in order; ``extra`` its other top-level keys (``qa``, ``observation``...)."""
    conversation: dict[str, Any] = {"speaker_a": speakers[0], "speaker_b": speakers[1]}
    for n, (when, turns) in enumerate(sessions, 1):
        conversation[f"session_{n}_date_time"] = when
        conversation[f"session_{n}"] = turns
    return {"sample_id": sample_id, "conversation": conversation, **extra}


def locomo_turn(speaker: str, dia_id: str, text: str, **extra: str) -> dict[str, str]:
    """One turn of a LoCoMo session (``extra``: ``blip_caption``...)."""
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


@pytest.fixture
def config(tmp_path: Path) -> Config:
    """A config rooted in a temp dir, isolated from the user's environment."""
    return Config.load(env={}, home=str(tmp_path / "home"))


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One PostgreSQL 16 + pgvector server for the session (see tests/pgserver.py).

    It fails loudly when the server cannot start: the PostgreSQL tests never skip in
    silence. ``make test-fast`` (``-m "not postgres"``) leaves them out on purpose.
    """
    try:
        from pgserver import PgServer  # psycopg is only needed when these tests run

        server = PgServer.start()
    except Exception as exc:
        pytest.fail(
            f"PostgreSQL for the postgres-marked tests could not start: {exc}", pytrace=False
        )
    yield server
    server.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """An empty, migrated PostgreSQL database for one test (emptied again afterwards)."""
    name = pg_server.shared_database()
    yield pg_server.database_url(name)
    pg_server.reset(name)


#: The store backends every ``mem`` test runs on: one suite, two engines.
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The store backend of this test run: "sqlite" or "postgres"."""
    return str(request.param)


@pytest.fixture
def store_location(backend: str, request: pytest.FixtureRequest) -> str:
    """Where ``mem`` keeps its data: ``:memory:`` or a fresh PostgreSQL database."""
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return ":memory:"


@pytest.fixture
def reopenable(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """A store that a second ``Memory`` (or process) can open again: a SQLite file, or a
    fresh PostgreSQL database."""
    if backend == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return str(tmp_path / "engram.db")


@pytest.fixture(scope="module", params=BACKENDS)
def module_mem(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Memory]:
    """``mem`` built once per test module and backend, for tests that only read it: a
    module fixture fills it (and may serve it) once, instead of once per test. A test
    that writes takes ``mem``; one that must change nothing checks so, and fails first
    if it did (PostgreSQL: a database of its own, dropped after the module)."""
    config = Config.load(env={}, home=str(tmp_path_factory.mktemp("home")))
    if request.param != "postgres":
        with Memory(":memory:", config=config, embedder=HashEmbedder()) as m:
            yield m
        return
    server = request.getfixturevalue("pg_server")
    name = server.create_database()
    try:
        with Memory(server.database_url(name), config=config, embedder=HashEmbedder()) as m:
            yield m
    finally:
        server.drop_database(name)


@pytest.fixture
def any_store(config: Config, store_location: str) -> Iterator[Store]:
    """A bare store on each backend, opened the way ``Memory`` opens it."""
    store = open_store(store_location, config)
    yield store
    store.close()


@pytest.fixture
def mem(config: Config, store_location: str) -> Iterator[Memory]:
    """A store with the hash embedder, on each backend (SQLite in memory, PostgreSQL)."""
    with Memory(store_location, config=config, embedder=HashEmbedder()) as m:
        yield m


#: What ``http_server`` yields: the URL, the keys of ``user_keys`` and the store.
HttpServed = tuple[str, dict[str, str], Memory]


@pytest.fixture
def http_server(config: Config) -> Iterator[HttpServed]:
    """A store in memory with the hash embedder, served on 127.0.0.1 without the
    pipeline worker and without ``/mcp`` (no test of it speaks MCP over HTTP; the MCP
    server is most of an app's cost), with API keys for alice, bob and an admin
    (``user_keys``)."""
    with (
        Memory(":memory:", config=config, embedder=HashEmbedder()) as memory,
        keyed_server(memory, worker=False, mcp=False) as (url, keys),
    ):
        yield url, keys, memory


@pytest.fixture
def small_docs(config: Config, store_location: str) -> Iterator[Memory]:
    """``mem`` with 200-character document chunks sharing 20 (a 3-page PDF of
    ``pdf_maker.ROLLOUT_PAGES`` is three chunks, one a page: each is 150 characters) and
    private URLs allowed (the tests' sites are on 127.0.0.1)."""
    small = {"chunk_size": 200, "chunk_overlap": 20, "allow_private_urls": True}
    with Memory(
        store_location, config=config.with_overrides(documents=small), embedder=HashEmbedder()
    ) as m:
        yield m


@pytest.fixture
def abstaining_mem(config: Config, store_location: str) -> Iterator[Memory]:
    """``mem`` with a wide hash embedder under the calibrated model's name, so engram's
    abstain decision (FEATURES E7) applies to an unrelated query."""
    from engram.recall.abstain import CALIBRATION

    embedder = HashEmbedder(4096)
    embedder.name = CALIBRATION.embedder
    with Memory(store_location, config=config, embedder=embedder) as m:
        yield m


@pytest.fixture
def file_mem(config: Config, tmp_path: Path) -> Iterator[Memory]:
    """A file-backed store with the hash embedder."""
    with Memory(tmp_path / "engram.db", config=config, embedder=HashEmbedder()) as m:
        yield m


@pytest.fixture
def api(config: Config) -> Iterator[tuple[TestClient, Memory]]:
    """The HTTP API without keys over a fresh store (namespace ``default``); a test
    module that needs another app defines its own ``api``."""
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        app = create_app(memory, auth=False, mcp=False)
        # A 500 must show up as a status code here, not as an exception in the test.
        with TestClient(app, raise_server_exceptions=False) as client:
            yield client, memory


@pytest.fixture
def use_handler() -> Iterator[Callable[[str, Handler], None]]:
    """Register job handlers in the default registry for one test, then restore it."""
    replaced: dict[str, Handler | None] = {}

    def use(kind: str, handler: Handler) -> None:
        replaced.setdefault(kind, registry_module.register(kind, handler))

    yield use
    for kind, previous in replaced.items():
        if previous is None:
            registry_module.unregister(kind)
        else:
            registry_module.register(kind, previous)


@pytest.fixture
def access_lines() -> Iterator[io.StringIO]:
    """engram's log records, formatted by the JSON formatter, in a buffer."""
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("engram")
    old = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield buffer
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old)


@contextlib.contextmanager
def opened_store(location: str | Path, config: Config) -> Iterator[Store]:
    """The store at ``location``, opened (and so migrated) for the block, closed after."""
    store = open_store(str(location), config)
    try:
        yield store
    finally:
        store.close()


def sqlite_before(path: Path, migration: str) -> Path:
    """A new SQLite file at ``path`` migrated up to just before ``migration`` (which must
    exist, and is checked not applied): an older store for an upgrade test."""
    from engram.store.sql import migrations
    from engram.store.sqlite.dialect import SQLITE

    names = [name for name, _ in migrations.named(SQLITE)]
    assert migration in names
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrations.migrate(conn, SQLITE, upto=names[names.index(migration) - 1])
        assert migration not in migrations.applied(conn, SQLITE)
    finally:
        conn.close()
    return path


@contextlib.contextmanager
def postgres_before(pg_server: object, migration: str) -> Iterator[str]:
    """The URL of a new PostgreSQL database migrated up to just before ``migration``
    (which must exist, and is checked not applied), dropped afterwards: an older
    database for an upgrade test."""
    import psycopg

    from engram.store.postgres.dialect import POSTGRES
    from engram.store.sql import migrations

    names = [name for name, _ in migrations.named(POSTGRES)]
    assert migration in names
    name = pg_server.create_database(migrated=False)  # type: ignore[attr-defined]
    url: str = pg_server.database_url(name)  # type: ignore[attr-defined]
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            migrations.migrate(conn, POSTGRES, upto=names[names.index(migration) - 1])
            assert migration not in migrations.applied(conn, POSTGRES)
        yield url
    finally:
        pg_server.drop_database(name)  # type: ignore[attr-defined]


@pytest.fixture
def tiny_locomo(tmp_path: Path) -> Path:
    """A LoCoMo-format file of one short conversation, for the benchmarks' own tests."""
    topics = ["hiking", "painting", "a puppy", "the bakery", "chess", "a road trip"]
    turns = [
        {
            "speaker": "Ann" if i % 2 else "Ben",
            "dia_id": f"D1:{i + 1}",
            "text": f"Last week I spent time on {topic} number {i}",
        }
        for i, topic in enumerate(topics * 4)
    ]
    data = [
        {
            "sample_id": "c1",
            "conversation": {
                "speaker_a": "Ann",
                "speaker_b": "Ben",
                "session_1_date_time": "1:56 pm on 8 May, 2023",
                "session_1": turns,
            },
            "qa": [
                {"question": f"What did Ann do with {t}?", "evidence": ["D1:1"], "category": 4}
                for t in topics
            ],
        }
    ]
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(data))
    return path
