"""Recall's worker threads: the keyword leg runs on one beside query embedding and dense
search. A failure there is the recall's, as an ``EngramError``, and never a hang; a
``Memory`` closed while a recall runs leaves no thread behind."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from engram.config import Config, RecallConfig
from engram.errors import RetrievalError, StoreClosedError
from engram.memory import Memory
from engram.recall.request import RecallRequest
from engram.recall.shared import SharedLeg

WAIT = 10.0  # seconds a step may take before the test calls it a hang


def _memory(tmp_path: Path) -> Memory:
    mem = Memory(
        tmp_path / "threads.db",
        config=Config.load(env={}, home=str(tmp_path / "home")),
        embedder=None,
    )
    mem.add("Caroline went hiking in the mountains last weekend", namespace="ns")
    mem.add("Melanie painted a sunrise over the lake", namespace="ns")
    return mem


def _in_thread(call: Any) -> tuple[threading.Thread, dict[str, Any]]:
    """``call()`` on a thread of its own; its result or exception lands in the dict."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["result"] = call()
        except BaseException as exc:  # handed back to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, out


def _recall_threads(before: frozenset[threading.Thread] = frozenset()) -> list[str]:
    """Recall's worker threads alive now, but for those in ``before`` (the threads of
    stores an earlier test in this process left open)."""
    return [
        t.name
        for t in threading.enumerate()
        if t.name.startswith(("engram-recall", "engram-shared")) and t not in before
    ]


def test_the_keyword_leg_runs_on_a_worker_and_answers(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        hits = mem.recall("hiking mountains", namespace="ns").hits
        assert [h.memory.content for h in hits][:1] == [
            "Caroline went hiking in the mountains last weekend"
        ]
        assert any(name.startswith("engram-recall") for name in _recall_threads())


def test_a_keyword_search_failing_on_its_thread_is_a_retrieval_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _memory(tmp_path) as mem:
        searched_on: list[str] = []

        def broken(namespace: str, match: str, limit: int) -> list[tuple[str, float]]:
            searched_on.append(threading.current_thread().name)
            raise ValueError("math domain error")  # as a bug in the term index would

        monkeypatch.setattr(mem.store.keyword, "search", broken)
        thread, out = _in_thread(lambda: mem.recall("hiking mountains", namespace="ns"))
        thread.join(WAIT)
        assert not thread.is_alive(), "recall hung on a failed keyword search"
        error = out.get("error")
        assert isinstance(error, RetrievalError), error
        assert "keyword search" in str(error) and "math domain error" in str(error)
        assert searched_on and searched_on[0].startswith("engram-recall")
        # The store is unharmed: the next recall answers.
        monkeypatch.undo()
        assert mem.recall("sunrise lake", namespace="ns").hits


def test_closing_while_a_recall_runs_leaves_no_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = frozenset(threading.enumerate())
    mem = _memory(tmp_path)
    keyword = mem.store.keyword
    reached, release = threading.Event(), threading.Event()
    exact = keyword.exact

    def held(namespace: str) -> bool:
        # The recall is past the open check and about to start its keyword leg.
        reached.set()
        release.wait(WAIT)
        return exact(namespace)

    monkeypatch.setattr(keyword, "exact", held)
    thread, out = _in_thread(lambda: mem.recall("hiking mountains", namespace="ns"))
    assert reached.wait(WAIT)
    closer, closed = _in_thread(mem.close)
    closer.join(WAIT)
    assert not closer.is_alive(), "close hung while a recall ran"
    assert "error" not in closed
    release.set()
    thread.join(WAIT)
    assert not thread.is_alive(), "the recall hung after close"
    assert isinstance(out.get("error"), StoreClosedError), out
    assert _recall_threads(before) == []


def test_a_closed_shared_leg_starts_no_thread() -> None:
    before = frozenset(threading.enumerate())
    leg = SharedLeg(lambda space: 3)  # the shared space holds memories
    leg.close()
    request = RecallRequest("q", "ns", 4, shared="shared:default")
    with pytest.raises(StoreClosedError):
        leg.start(request, RecallConfig(), lambda r: [])
    assert _recall_threads(before) == []
