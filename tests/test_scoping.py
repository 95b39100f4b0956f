"""``engram.scoping``: the scope keywords written once, refused and shown as named ones."""

from __future__ import annotations

import inspect
from typing import Unpack

import pytest

from engram import AsyncMemory, Config, Memory
from engram.client import EngramClient
from engram.scoping import OwnerArgs, ScopeArgs, scoped


@scoped
def verb(memory_id: str, *, limit: int = 10, **who: Unpack[ScopeArgs]) -> dict[str, object]:
    return {"memory_id": memory_id, "limit": limit, **who}


@scoped
def owner_verb(run_id: str, **who: Unpack[OwnerArgs]) -> dict[str, object]:
    return {"run_id": run_id, **who}


@scoped
def owner(**who: Unpack[OwnerArgs]) -> dict[str, object]:
    return dict(who)


def test_the_scope_keywords_reach_the_verb_as_given() -> None:
    assert verb("m1", user_id="alice") == {"memory_id": "m1", "limit": 10, "user_id": "alice"}
    assert owner_verb("r1", namespace="team") == {"run_id": "r1", "namespace": "team"}


def test_a_misspelt_keyword_is_pythons_own_type_error() -> None:
    with pytest.raises(TypeError, match=r"^verb\(\) got an unexpected keyword argument 'usr_id'$"):
        verb("m1", usr_id="alice")
    with pytest.raises(TypeError, match="unexpected keyword argument 'run_ids'"):
        owner_verb("r1", run_ids="r2")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match=r"^owner\(\) got an unexpected keyword argument 'run_id'"):
        owner(agent_id="a", run_id="r1")  # type: ignore[call-arg]  # OwnerArgs has no run_id
    assert owner(agent_id="a") == {"agent_id": "a"}


def test_the_signature_lists_the_keywords_first_among_the_keyword_only_ones() -> None:
    shown = inspect.signature(verb)
    assert list(shown.parameters) == [
        "memory_id",
        "namespace",
        "user_id",
        "agent_id",
        "run_id",
        "limit",
    ]
    assert shown.parameters["user_id"].kind is inspect.Parameter.KEYWORD_ONLY
    assert shown.parameters["user_id"].default is None
    assert list(inspect.signature(owner_verb).parameters) == [
        "run_id",
        "namespace",
        "user_id",
        "agent_id",
    ]


def test_a_verb_without_scope_keywords_is_refused_at_definition() -> None:
    with pytest.raises(TypeError, match="@scoped wants"):

        @scoped
        def bare(memory_id: str) -> None: ...


@pytest.mark.parametrize("owner", [Memory, AsyncMemory, EngramClient])
def test_the_front_doors_show_the_scope_keywords(owner: type) -> None:
    """What ``help()`` shows on the library, its async twin and the HTTP client."""
    signature = inspect.signature(owner.get)
    assert list(signature.parameters) == [
        "self",
        "memory_id",
        "namespace",
        "user_id",
        "agent_id",
        "run_id",
    ]


def test_the_library_refuses_a_misspelt_keyword_by_name(config: Config) -> None:
    with Memory(":memory:", config=config, embedder=None) as mem:
        with pytest.raises(TypeError, match=r"^Memory\.get\(\) got an unexpected keyword"):
            mem.get("m1", usr_id="alice")  # type: ignore[call-arg]
        with pytest.raises(TypeError, match=r"^GraphReads\.entities\(\) got an unexpected"):
            mem.graph.entities(namespce="team")  # type: ignore[call-arg]
        with pytest.raises(TypeError, match=r"^Memory\.scope\(\) takes from 1 to 2 positional"):
            mem.scope("team", "alice")  # type: ignore[misc]
        assert mem.scope("team").namespace == "team"
        assert mem.scope(user_id="alice").namespace == "user:alice"
