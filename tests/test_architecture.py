"""The shape of the code: no import cycles, small modules, small protocols, thin
surfaces, and parts that the async front door mirrors.

These keep the "one concern, one room" layout (docs/architecture.md) from eroding as
new concerns arrive.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterable
from pathlib import Path

import grimp
import pytest

from engram import AsyncMemory, Memory
from engram.admin import Admin
from engram.agents import Agents
from engram.aio import (
    AsyncAdmin,
    AsyncAgents,
    AsyncBackend,
    AsyncDocuments,
    AsyncHealth,
    AsyncJobs,
    AsyncKeys,
    AsyncPalace,
    AsyncRuns,
    AsyncShared,
    AsyncTranscripts,
    Awaitable,
)
from engram.backend import Backend
from engram.documents import Documents
from engram.health import Health
from engram.jobs import Jobs
from engram.keys import Keys
from engram.palace import Palace
from engram.runs import Runs
from engram.shared import Shared
from engram.store import protocols
from engram.transcripts import Transcripts

SRC = Path(__file__).resolve().parents[1] / "src" / "engram"

#: STYLE 1: a module that passes this many lines is asking to be split.
MAX_MODULE_LINES = 600
#: A protocol with more methods than this is several concerns in one.
MAX_PROTOCOL_METHODS = 12


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


@pytest.fixture(scope="module")
def imports() -> dict[str, set[str]]:
    """Module -> the engram modules it imports at run time (anywhere in the module,
    function bodies included; ``if TYPE_CHECKING:`` imports left out)."""
    graph = grimp.build_graph("engram", exclude_type_checking_imports=True)
    return {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}


def test_no_module_import_cycle(imports: dict[str, set[str]]) -> None:
    assert _cycles(imports) == []


def _package(module: str) -> str:
    return ".".join(module.split(".")[:2])


def test_no_package_import_cycle(imports: dict[str, set[str]]) -> None:
    packages: dict[str, set[str]] = {}
    for module, targets in imports.items():
        for target in targets:
            if _package(module) != _package(target):
                packages.setdefault(_package(module), set()).add(_package(target))
    assert _cycles(packages) == []


def test_the_cycle_check_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_is_too_long() -> None:
    long = {
        str(path.relative_to(SRC)): n
        for path in SRC.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}


def _protocol_methods(protocol: type) -> list[str]:
    return [
        name
        for name, value in vars(protocol).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    ]


PROTOCOLS = [
    value
    for value in vars(protocols).values()
    if inspect.isclass(value) and getattr(value, "_is_protocol", False)
]


@pytest.mark.parametrize("protocol", PROTOCOLS, ids=lambda p: p.__name__)
def test_every_store_protocol_is_small(protocol: type) -> None:
    methods = _protocol_methods(protocol)
    if protocol is protocols.Store:
        # The backend grows one read-only part per concern; its own verbs stay few.
        methods = [m for m in methods if not isinstance(vars(protocol)[m], property)]
    assert 0 < len(methods) <= MAX_PROTOCOL_METHODS


def test_each_store_protocol_has_a_module_of_its_own() -> None:
    homes = [p.__module__ for p in PROTOCOLS if p.__name__ != "VectorSearch"]
    assert len(homes) == len(set(homes))


def test_every_backend_part_implements_its_protocol(any_store: protocols.Store) -> None:
    assert isinstance(any_store, protocols.Store)
    parts = {
        "memories": protocols.MemoryStore,
        "feedback": protocols.FeedbackStore,
        "keyword": protocols.KeywordIndex,
        "vectors": protocols.VectorStore,
        "transcripts": protocols.TranscriptStore,
        "keys": protocols.KeyStore,
        "transfer": protocols.TransferStore,
        "tables": protocols.TableStore,
        "curation": protocols.CurationStore,
        "erase": protocols.EraseStore,
        "org": protocols.OrgStore,
        "blocks": protocols.CoreBlockStore,
        "chat_settings": protocols.ChatSettingsStore,
        "palace_turns": protocols.PalaceTurnStore,
        "maintenance": protocols.MaintenanceStore,
        "agents": protocols.AgentStore,
        "lifecycle": protocols.LifecycleStore,
    }
    for name, protocol in parts.items():
        assert isinstance(getattr(any_store, name), protocol), name


def _attributes(tree: ast.AST) -> Iterable[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            yield node.attr


@pytest.mark.parametrize("surface", ["cli", "api", "mcp"])
def test_surfaces_never_reach_into_the_store(surface: str) -> None:
    """The CLI, HTTP API and MCP server call ``Memory`` and its parts, never a store."""
    for path in (SRC / surface).rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        assert "store" not in set(_attributes(tree)), path.name
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("engram.store"), (path.name, node.module)


def _public(cls: type) -> set[str]:
    return {
        name
        for name, value in vars(cls).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


@pytest.mark.parametrize(
    ("sync", "twin"),
    [
        (Keys, AsyncKeys),
        (Transcripts, AsyncTranscripts),
        (Admin, AsyncAdmin),
        (Health, AsyncHealth),
        (Palace, AsyncPalace),
        (Runs, AsyncRuns),
        (Documents, AsyncDocuments),
        (Shared, AsyncShared),
        (Jobs, AsyncJobs),
        (Agents, AsyncAgents),
        (Backend, AsyncBackend),
    ],
    ids=[
        "keys",
        "transcripts",
        "admin",
        "health",
        "palace",
        "runs",
        "documents",
        "shared",
        "jobs",
        "agents",
        "backend",
    ],
)
def test_every_part_verb_has_an_async_twin(sync: type, twin: type) -> None:
    """Every public verb of a part is a coroutine of the same signature on its async twin;
    a property (``Admin.location``, ``Jobs.running``...) is a property there too."""
    assert _public(sync) == _public(twin)
    for name in _public(sync):
        if isinstance(vars(sync)[name], property):
            assert isinstance(vars(twin)[name], property), name
            continue
        assert inspect.iscoroutinefunction(getattr(twin, name)), name
        assert inspect.signature(getattr(twin, name)) == inspect.signature(getattr(sync, name))


def test_every_memory_verb_has_an_async_twin() -> None:
    verbs = {n for n in _public(Memory) if not isinstance(vars(Memory)[n], property)}
    verbs -= {"scope"}  # resolves a namespace, no I/O
    assert verbs <= set(vars(AsyncMemory))
    for name in verbs:
        assert inspect.iscoroutinefunction(getattr(AsyncMemory, name)), name


def test_async_memory_has_the_same_parts(config: object) -> None:
    mem = AsyncMemory(":memory:", config=config, embedder=None)  # type: ignore[arg-type]
    try:
        for part in ("keys", "transcripts", "admin"):
            wrapped = getattr(mem, part)
            assert isinstance(wrapped, Awaitable)
            assert wrapped.sync is getattr(mem.sync, part)
    finally:
        mem.sync.close()


#: docs/architecture.md's layers, top to bottom: a package may import only packages in
#: rows below its own (siblings in an ``independent=False`` row may import each other).
LAYERS = (
    grimp.Layer("cli", "client"),
    grimp.Layer("api", "bench", independent=False),
    grimp.Layer("mcp", "dashboard"),  # dashboard: the built web page, no Python logic
    grimp.Layer("compat", "adapters"),  # doors for other libraries and frameworks
    grimp.Layer("aio", "serving"),  # serving: what runs beside every server
    grimp.Layer("memory"),
    grimp.Layer("parts"),  # builds the parts below and hands each what it needs
    grimp.Layer("chat"),  # seed 003's chat turn: joins recall, the palace and sessions
    grimp.Layer(
        "keys",
        "transcripts",
        "admin",
        "graph",
        "jobs",
        "review",
        "documents",
        "palace",
        "health",
        "runs",
        "erasure",
        "browse",
        "sessions",
        "lifecycle",
        "inject",
        "procedures",
        "maintenance",
        "org",
        "backend",
        "agents",
        "shared",
    ),
    grimp.Layer("pipeline"),
    grimp.Layer("write", "filters", "transfer", "migrate_store"),
    # a repeat write's merge; an import's row order and lines; the carried tables' copy
    grimp.Layer("dedupe", "transfer_order", "transfer_lines", "table_copy", "write_link"),
    grimp.Layer("core"),
    grimp.Layer(
        "recall",
        "safety",
        "safety_rules",
        "safety_reader",  # round thirty's reader-order rules, imports nothing of engram
        "safety_orders",  # round thirty-two's order rules, built on safety_reader's
        "safety_wishes",  # round thirty-one's guard for the user's wishes, imports nothing
        "safety_values",  # round thirty-three's guard for notes of a value, imports nothing
        "safety_standing",  # round thirty-four's standing disclosure orders, on safety_reader's
        "safety_owned",  # round thirty-five's guard for an owner's own note, on safety_reader's
        "safety_widened",  # round thirty-five's pieces, on safety_orders' and safety_standing's
        "safety_lapsed",  # round thirty-six's pieces, on safety_orders' and safety_standing's
        "safety_machine",  # round thirty-seven's guard for tool output, imports nothing
        "safety_quoted",  # round thirty-eight's guard for a report's quoted attack, imports nothing
        "safety_addressed",  # round thirty-eight's reader addressed, on safety_orders' and reader's
        "spotlight",
        "validate",
        "injection_detector",  # the learned half of the scan, run where vectors are made
        "injection_lexical",  # its word n-gram view (round fifteen), imports nothing of engram
        "injection_neighbours",  # its neighbour view (round twenty-six), no import at run time
        independent=False,
    ),
    grimp.Layer("embed", "llm", independent=False),
    grimp.Layer("store"),
    grimp.Layer(
        "records",
        "text",
        "config",
        "settings",
        "netguard",  # the URL fetcher's address rules, which [documents] settings parse
        "errors",
        "_version",
        "schedule",
        "scoping",  # the scope keywords (``**who: Unpack[ScopeArgs]``), imports nothing
        "lifetime",  # ``with`` support (``Closing``), imports nothing
        "ids",  # the one id-prefix resolver (new-user pass, round ten), imports errors only
        "refusals",  # the longer input refusals' words (round thirteen), imports errors only
        "validation_words",  # pydantic's errors in words, for HTTP and MCP (err24)
        independent=False,
    ),
)


def test_packages_follow_the_documented_layers() -> None:
    graph = grimp.build_graph("engram", exclude_type_checking_imports=True)
    illegal = graph.find_illegal_dependencies_for_layers(layers=LAYERS, containers={"engram"})
    assert {(d.importer, d.imported) for d in illegal} == set()


def test_every_package_has_a_layer() -> None:
    named = {name for layer in LAYERS for name in layer.module_tails}
    present = {p.stem for p in SRC.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert present - {"__init__", "__main__", "py"} <= named
