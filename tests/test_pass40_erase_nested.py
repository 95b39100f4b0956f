"""Erasing a user takes the namespaces below theirs (new-user pass, round thirty: a
privacy officer). The docs lay a crew out as ``user:<u>`` (shared by its agents),
``user:<u>/shared`` (``mem.shared``'s handoffs) and ``user:<u>/<agent>`` (private notes),
and call ``erase(user_id=...)`` "erasing a user"; it erased ``user:<u>`` alone, so the
customer's name and phone stayed in the handoffs and the agents' notes.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from conftest import HashEmbedder, run_cli, user_keys
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread

PHONE = "+44 7700 900123"


def _crew(mem: Memory, user: str = "alice") -> None:
    mem.add(f"{user.title()}'s phone is {PHONE}", user_id=user, agent_id="support")
    mem.shared.publish("support", f"Handoff: call {user.title()} on {PHONE}", user_id=user)
    mem.add(f"private: {user.title()} prefers calls", namespace=f"user:{user}/support")
    mem.transcripts.add("s1", f"user: call me on {PHONE}", namespace=f"user:{user}/support")


def _left(mem: Memory, user: str = "alice") -> list[str]:
    return [
        ns
        for ns in mem.store.erase.namespaces()
        if ns == f"user:{user}" or ns.startswith(f"user:{user}/")
    ]


def test_erasing_a_user_takes_their_shared_space_and_agents_notes(mem: Memory) -> None:
    _crew(mem, "alice")
    _crew(mem, "alicia")  # a user whose name starts like hers keeps everything
    plan = mem.erasure.erase(user_id="alice", dry_run=True)
    assert plan.nested == ["user:alice/shared", "user:alice/support"]
    assert plan.memories == 3 and _left(mem) != []
    done = mem.erasure.erase(user_id="alice", actor="dpo")
    assert done.memories == 3 and done.nested == plan.nested
    assert _left(mem) == []
    assert mem.search(PHONE, user_id="alice") == []
    audited = {a.namespace for a in mem.erasure.audit(all_namespaces=True)}
    assert audited == {"user:alice", "user:alice/shared", "user:alice/support"}
    assert len(_left(mem, "alicia")) == 3


def test_nested_false_and_a_filtered_erase_stay_in_one_namespace(mem: Memory) -> None:
    _crew(mem)
    alone = mem.erasure.erase(user_id="alice", nested=False)
    assert alone.nested == [] and _left(mem) == ["user:alice/shared", "user:alice/support"]
    _crew(mem)
    picked = mem.erasure.erase(user_id="alice", filters={"agent_id": "support"})
    assert picked.nested == [] and "user:alice/shared" in _left(mem)


@pytest.fixture
def crew_server(config: Config) -> Iterator[tuple[str, Memory, dict[str, str]]]:
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = user_keys(memory, ("alice",))
        keys["support"] = memory.keys.create("alice", agent="support")[1]
        _crew(memory)
        memory.add("coder's own notes", namespace="user:alice/coder")
        with serve_in_thread(create_app(memory, worker=False)) as url:
            yield url, memory, keys


def _post(url: str, key: str, body: dict[str, object]) -> httpx.Response:
    with httpx.Client(base_url=url, timeout=10) as c:
        return c.post("/v1/memories/erase", json=body, headers={"Authorization": f"Bearer {key}"})


def test_http_erases_the_nested_namespaces_only_where_the_key_reaches(
    crew_server: tuple[str, Memory, dict[str, str]],
) -> None:
    url, memory, keys = crew_server
    # An agent-bound key does not reach another agent's notes: refused, nothing erased.
    refused = _post(url, keys["support"], {"user_id": "alice"})
    assert refused.status_code == 403, refused.text
    assert len(_left(memory)) == 4
    done = _post(url, keys["alice"], {"user_id": "alice"})
    assert done.status_code == 200, done.text
    assert done.json()["nested"] == ["user:alice/coder", "user:alice/shared", "user:alice/support"]
    assert _left(memory) == []


def test_cli_forget_all_names_the_nested_namespaces(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert run_cli(home, "add", "Alice's phone", "--user", "alice").exit_code == 0
    assert run_cli(home, "add", "a handoff", "--namespace", "user:alice/shared").exit_code == 0
    dry = run_cli(home, "forget", "--all", "--user", "alice", "--dry-run")
    assert "would erase 2 memories" in dry.output and "'user:alice/shared'" in dry.output
    done = run_cli(home, "forget", "--all", "--user", "alice", "--yes")
    assert done.exit_code == 0 and "erased 2 memories" in done.output, done.output
    listed = run_cli(home, "list", "--namespace", "user:alice/shared")
    assert "a handoff" not in listed.output


def test_cli_export_of_a_user_carries_the_nested_namespaces(tmp_path: Path) -> None:
    """A subject access request: ``engram export --user alice`` named only ``user:alice``,
    so the handoffs and agents' notes holding her phone were not in her copy."""
    home = tmp_path / "home"
    assert run_cli(home, "add", "Alice's phone", "--user", "alice").exit_code == 0
    assert (
        run_cli(home, "add", f"handoff {PHONE}", "--namespace", "user:alice/shared").exit_code == 0
    )
    assert run_cli(home, "add", "not hers", "--namespace", "user:alicia").exit_code == 0
    out = tmp_path / "alice.jsonl"
    done = run_cli(home, "export", "--user", "alice", "-o", str(out))
    assert done.exit_code == 0 and "'user:alice/shared'" in done.output, done.output
    text = out.read_text(encoding="utf-8")
    assert PHONE in text and "Alice's phone" in text and "not hers" not in text
    alone = tmp_path / "alone.jsonl"
    assert (
        run_cli(home, "export", "--user", "alice", "--no-nested", "-o", str(alone)).exit_code == 0
    )
    assert PHONE not in alone.read_text(encoding="utf-8")


def test_importing_an_export_from_before_an_erase_warns_that_it_undid_it(
    tmp_path: Path,
) -> None:
    """An export made before an erase brings the person back when imported; nothing
    said so (round thirty). Now the import names each erase it undid."""
    home = tmp_path / "home"
    assert run_cli(home, "add", f"Alice's phone is {PHONE}", "--user", "alice").exit_code == 0
    assert run_cli(home, "add", "Bob likes tea", "--user", "bob").exit_code == 0
    backup = tmp_path / "backup.jsonl"
    assert run_cli(home, "export", "--all", "-o", str(backup)).exit_code == 0
    assert run_cli(home, "forget", "--all", "--user", "alice", "--yes").exit_code == 0
    restored = run_cli(home, "import", str(backup))
    assert restored.exit_code == 0, restored.output
    assert "namespace 'user:alice' was erased" in restored.output
    assert "engram forget --all --namespace user:alice" in restored.output
    assert "user:bob" not in restored.output.split("warning:", 1)[1]
    # An export made after the erase undoes nothing: no warning.
    later = tmp_path / "later.jsonl"
    assert run_cli(home, "forget", "--all", "--user", "alice", "--yes").exit_code == 0
    assert run_cli(home, "export", "--all", "-o", str(later)).exit_code == 0
    again = run_cli(home, "import", str(later))
    assert again.exit_code == 0 and "was erased" not in again.output


def test_an_erase_of_a_user_who_is_not_there_says_so(mem: Memory, tmp_path: Path) -> None:
    """``forget --all --user alcie`` printed "erased 0 memories" like any erase: a DPO
    with a typo believed the customer erased (round thirty)."""
    mem.add("Alice's phone", user_id="alice")
    missing = mem.erasure.erase(user_id="alcie", actor="dpo")
    assert missing.held is False and missing.memories == 0
    assert mem.erasure.erase(user_id="alice", dry_run=True).held is True
    home = tmp_path / "home"
    assert run_cli(home, "add", "Alice's phone", "--user", "alice").exit_code == 0
    typo = run_cli(home, "forget", "--all", "--user", "alcie", "--yes")
    assert "warning: namespace 'user:alcie' holds nothing" in typo.output
    real = run_cli(home, "forget", "--all", "--user", "alice", "--yes")
    assert "warning" not in real.output
