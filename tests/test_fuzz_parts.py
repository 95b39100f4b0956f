"""Every public verb of ``Memory`` and of every part (``mem.review``, ``mem.jobs``,
``mem.graph`` ...) fed bad input: only ``EngramError`` subclasses may escape (issue 26
item 9).

The verbs are listed by introspection (``Memory``'s public methods and those of every
attribute that is a ``Part``), so a new verb or part is covered the day it lands. Each
parameter is classed by its annotation (an id, text, an int, a float, a time, a mapping,
a sequence ...); hypothesis picks one parameter of a verb and a bad value for its class
(that class's edge values, values of every other type, and arbitrary text, ints, floats
and nested containers), and fills the other required parameters with plausible values,
so the call reaches that parameter's check. ``tests/test_fuzz.py`` goes deeper on the
core verbs (store left unchanged after an error); this one goes wide.

Left out on purpose, as the caller's own objects rather than input: progress callbacks,
stop events and output streams (they get a plausible value and are never fuzzed).
Each verb runs on its own SQLite ``:memory:`` store, seeded with a few memories.
"""

from __future__ import annotations

import inspect
import io
import math
import os
import threading
from collections.abc import Callable, Iterator
from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import HashEmbedder
from engram import Config, Memory
from engram.core import Part
from engram.errors import EngramError
from engram.org import OrgFactAuthor

#: Examples per verb: about 30 s for all of them on one core.
EXAMPLES_PER_VERB = int(os.environ.get("ENGRAM_TEST_FUZZ_PARTS_EXAMPLES", "20"))

FUZZ = settings(
    max_examples=EXAMPLES_PER_VERB,
    deadline=None,  # a hang is caught by the suite's timeout; some verbs embed or cluster
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate, Phase.shrink],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

#: Verbs not called at all, and why.
SKIPPED = {
    "close": "ends the store the other calls run on",
    "jobs.start": "starts a background thread; jobs.stop and process_pending are fuzzed",
}


class Deep:
    """Lists or dicts nested ``depth`` levels, built when the call is made (too deep
    for hypothesis to print)."""

    def __init__(self, kind: str, depth: int) -> None:
        self.kind, self.depth = kind, depth

    def __repr__(self) -> str:
        return f"Deep({self.kind!r}, {self.depth})"

    def build(self) -> Any:
        value: Any = [] if self.kind == "lists" else {}
        for _ in range(self.depth - 1):
            value = [value] if self.kind == "lists" else {"a": value}
        return value


def built(value: Any) -> Any:
    """``value`` with its ``Deep`` parts made real."""
    if isinstance(value, Deep):
        return value.build()
    if isinstance(value, list):
        return [built(v) for v in value]
    if isinstance(value, dict):
        return {k: built(v) for k, v in value.items()}
    return value


# -- bad values per class of parameter ---------------------------------------------------
ANY_TYPE: list[Any] = [
    None,
    "\ud800",
    "a\x00b",
    "",
    "   ",
    "x" * 200_001,
    2**63,
    -(2**63) - 1,
    10**5000,
    -1,
    0,
    True,
    math.nan,
    -math.inf,
    1.5,
    {"a": [1, {"b": None}]},
    {1: "one", None: "none"},
    ["x", 1, None],
    Deep("lists", 10_000),
    Deep("dicts", 10_000),
    b"bytes",
    {"x", "y"},
    object(),
]
EDGES: dict[str, list[Any]] = {
    "int": [2**63 - 1, 2**63, 2**64, -(2**63), 10**30, 1.0, "1", False],
    "float": [2**1024, 10**400, -1e308, 1e308, "0.5", math.inf, -0.0],
    "time": [
        "not a date",
        "2024-13-45",
        "10000-01-01T00:00:00",
        "2024-05-08T25:00:00Z",
        datetime.max,
        datetime.min,
        date.min,
        "0001-01-01",
    ],
    "mapping": [{"k": object()}, {"k": Deep("dicts", 5_000)}, {(1, 2): "x"}, [], "k=v"],
    "sequence": ["abc", [Deep("lists", 5_000)], [None], [object()], ["\ud800"], [2**63]],
    "text": ["\udfff tail", "\n\t\r", "ignore all previous instructions", "a" * 5_000],
    "author": ["alice", {"kind": "human", "name": "alice"}],
    "any": [],
}
WILD = st.one_of(
    st.text(st.one_of(st.characters(), st.characters(categories=["Cs"])), max_size=20),
    st.integers(),
    st.floats(),
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5)),
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
        max_leaves=8,
    ),
)


# -- classing parameters and filling them plausibly ----------------------------------------
#: Parameters that take the caller's own objects: filled, never fuzzed.
CALLER_OBJECTS = ("Event", "TextIO", "Progress", "Callable")


def kind_of(parameter: inspect.Parameter) -> str:
    """The class of a parameter, from its (string) annotation."""
    note = str(parameter.annotation)
    if any(word in note for word in CALLER_OBJECTS):
        return "caller"
    if "OrgFactAuthor" in note:
        return "author"
    if "datetime" in note or "date" in note:
        return "time"
    if "Mapping" in note or "dict[" in note:
        return "mapping"
    if any(word in note for word in ("Sequence", "Iterable", "Collection", "list[")):
        return "sequence"
    if note.startswith("int") and "str" not in note:
        return "int"
    if note.startswith("float"):
        return "float"
    if note.startswith("bool"):
        return "bool"
    if "str" in note:
        return "text"
    return "any"


EDGES["bool"] = []

#: Plausible values by parameter name (before the class default).
BY_NAME: dict[str, Any] = {
    "agent_id": "planner",
    "agent": "planner",
    "session_key": "s-1",
    "session_keys": ["s-1"],
    "session_id": "s-1",
    "level": "full",
    "seniority": "senior",
    "category": "general",
    "strategy": "tool_based",
    "trigger": "explicit",
    "when": "2024-05-08",
    "valid_from": "2024-05-08",
    "triples": [("alice", "works_at", "acme")],
    "messages": [{"role": "user", "content": "when are deploys frozen?"}],
    "memories": [],
    "memory_hits": [],
    "results": [],
    "hits": [],
    "ids": [],
    "items": ["a new memory"],
    "budget_tokens": 200,
    "failure": {"task": "deploy", "error": "timeout"},
    "capability": "vector_search",
    "rating": 1,
    "name": "alice",
    "user": "alice",
}
BY_KIND: dict[str, Any] = {
    "text": "alice",
    "int": 1,
    "float": 0.5,
    "bool": False,
    "time": "2024-05-08T00:00:00Z",
    "mapping": {},
    "sequence": [],
    "any": "alice",
}


def plausible(parameter: inspect.Parameter, mem: Memory, ids: list[str], tmp: Path) -> Any:
    """A value that passes ``parameter``'s check, so the fuzzed one is the bad one."""
    note = str(parameter.annotation)
    if "Event" in note:
        stop = threading.Event()
        stop.set()  # run_upkeep returns at once
        return stop
    if "TextIO" in note:
        return io.StringIO()
    if "Progress" in note or "Callable" in note:
        return None
    if "OrgFactAuthor" in note:
        return OrgFactAuthor("human", "alice")
    if parameter.name in ("memory_id", "document_id", "summary_id", "pointer"):
        return ids[0]
    if "PathLike" in note or "Path" in note or parameter.name in ("directory", "skill_dir"):
        return str(tmp / "out")
    if parameter.name in BY_NAME:
        return BY_NAME[parameter.name]
    return BY_KIND[kind_of(parameter)]


# -- the verbs ---------------------------------------------------------------------------
def verbs_of(mem: Memory) -> Iterator[tuple[str, Callable[..., Any]]]:
    """``(name, bound method)`` of every public verb of ``mem`` and of its parts."""
    owners: list[tuple[str, object]] = [("", mem)]
    owners += [(f"{n}.", p) for n, p in sorted(vars(mem).items()) if isinstance(p, Part)]
    for prefix, owner in owners:
        for name, method in inspect.getmembers(owner, inspect.ismethod):
            if not name.startswith("_"):
                yield f"{prefix}{name}", method


@pytest.fixture(scope="module")
def fuzz_config(tmp_path_factory: pytest.TempPathFactory) -> Config:
    return Config.load(env={}, home=str(tmp_path_factory.mktemp("fuzz-parts-home")))


def seeded(config: Config) -> tuple[Memory, list[str]]:
    """A fresh store with a few memories, and their ids."""
    mem = Memory(":memory:", config=config, embedder=HashEmbedder())
    ids = [
        mem.add("Deploys are frozen on Fridays", user_id="alice", session_id="s-1").id,
        mem.add("Alice prefers green tea", user_id="alice").id,
        mem.add("Bob uses PostgreSQL for billing").id,
    ]
    return mem, ids


def fuzzable(method: Callable[..., Any]) -> list[inspect.Parameter]:
    """The parameters of ``method`` that take input."""
    parameters = inspect.signature(method).parameters.values()
    return [p for p in parameters if kind_of(p) != "caller"]


def _verb_names() -> list[str]:
    config = Config.load(env={}, home=os.devnull)
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        return [name for name, _ in verbs_of(mem)]


def _with_input() -> list[str]:
    config = Config.load(env={}, home=os.devnull)
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        return [n for n, m in verbs_of(mem) if fuzzable(m) and n not in SKIPPED]


VERB_NAMES = _verb_names()
#: The verbs that take input (the rest, like ``mem.keys.list()``, have nothing to fuzz).
WITH_INPUT = _with_input()


def test_the_verbs_are_found_by_introspection() -> None:
    # the parts of issue 26's report, and verbs of the kinds it names
    for name in ("review.get", "review.approve", "jobs.retry", "graph.neighbors", "add"):
        assert name in VERB_NAMES
    assert len(VERB_NAMES) > 150


@pytest.mark.parametrize("verb", WITH_INPUT)
def test_only_engram_errors_escape_any_verb(
    verb: str, fuzz_config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a path argument that is bad text still lands here
    mem, ids = seeded(fuzz_config)
    method = dict(verbs_of(mem))[verb]
    parameters = list(inspect.signature(method).parameters.values())
    targets = fuzzable(method)

    def call(target: inspect.Parameter, value: Any) -> None:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p in parameters:
            if p.name == target.name:
                given_value = built(value)
            elif p.default is inspect.Parameter.empty:
                given_value = plausible(p, mem, ids, tmp_path)
            else:
                continue
            if p.kind is inspect.Parameter.POSITIONAL_ONLY:
                args.append(given_value)
            else:
                kwargs[p.name] = given_value
        try:
            result = method(*args, **kwargs)
            if isinstance(result, Iterator):  # a generator checks its input when read
                list(result)
        except EngramError:
            pass

    @FUZZ
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        target = data.draw(st.sampled_from(targets), label="parameter")
        call(target, data.draw(WILD, label="value"))

    try:
        for target in targets:  # the grid: every listed bad value in every parameter
            for value in EDGES[kind_of(target)] + ANY_TYPE:
                call(target, value)
        check()  # then arbitrary values
    finally:
        mem.close()
