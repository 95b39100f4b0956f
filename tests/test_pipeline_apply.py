"""The decision pass and its application per mode (seed 004: shadow, controlled, full),
contradiction detection, supersession and the review queue — on both backends."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from conftest import HashEmbedder
from engram import Config, InvalidInputError, Memory, NotFoundError, PermissionDeniedError
from engram.pipeline import contradiction
from engram.pipeline.apply import apply_proposals, derived_item, mode_of
from engram.pipeline.decisions import Proposal, _offline, candidates, decide
from engram.records import PIPELINE_WHO, MemoryRecord, utcnow
from engram.settings import PipelineConfig


def proposal(action: str, content: str, target: str | None = None, conf: float = 0.9) -> Proposal:
    return Proposal(
        action=action,
        content=content,
        fact_type="fact",
        fact_confidence=conf,
        confidence=conf,
        reason="test",
        target_id=target,
    )


@dataclass(frozen=True)
class Fact:
    """An extracted fact as the decision pass sees it."""

    content: str
    type: str = "fact"
    confidence: float = 0.9


def with_mode(mem: Memory, **flags: object) -> None:
    """Switch the pipeline's mode flags of an open Memory (its config is frozen)."""
    core = mem._core
    core.config = replace(core.config, pipeline=replace(core.config.pipeline, **flags))


def holding(config: Config) -> Config:
    """``config`` with updates and deletes allowed and contradictions held for review."""
    flags = {"allow_update_delete": True, "contradiction_action": "hold"}
    return replace(config, pipeline=replace(config.pipeline, **flags))


def run(mem: Memory, source: MemoryRecord, *proposals: Proposal) -> dict[str, int]:
    done = apply_proposals(
        mem._core,
        source,
        list(proposals),
        model="test",
        provider=None,
        facts=1,
        entities=0,
        now=utcnow(),
    )
    return done.outcomes


def fact(mem: Memory, source: MemoryRecord, content: str) -> MemoryRecord:
    """A fact the pipeline wrote earlier, taken from ``source``."""
    item = derived_item(source, proposal("ADD", content), "test")
    [record] = mem.add_many([item])
    return record


# -- contradiction ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new", "contradicts"),
    [
        ("Derek owns an efoil battery", "Derek no longer owns an efoil battery", True),
        (
            "The staging cluster has autoscaling enabled",
            "The staging cluster has autoscaling disabled",
            True,
        ),
        ("Caroline likes hiking in the Alps", "Caroline dislikes hiking in the Alps", True),
        ("Derek owns an efoil battery", "Derek owns an efoil battery pack", False),
        ("The deploy is not frozen", "Lunch is not at noon", False),  # no overlap
        ("Alice uses PostgreSQL", "Alice migrated to MongoDB", True),  # a stated change
        ("Alice uses PostgreSQL", "Alice also uses Redis", False),  # an addition
    ],
)
def test_syntactic_contradictions(old: str, new: str, contradicts: bool) -> None:
    assert contradiction.syntactic(new, old).contradicts is contradicts


class ScriptedJudge:
    """An LLM seam for the semantic check: answers with a fixed text, or raises."""

    model = "judge"

    def __init__(self, answer: str | Exception) -> None:
        self.answer = answer
        self.calls = 0

    def generate(self, prompt: str, *, schema: object = None, timeout: float | None = None) -> str:
        self.calls += 1
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def test_semantic_check_runs_only_when_enabled_and_fails_open() -> None:
    old, new = "Alice's team uses PostgreSQL for billing", "Alice's team moved billing to MongoDB"
    yes = ScriptedJudge('{"contradicts": true, "confidence": 0.8, "reasoning": "moved"}')
    assert not contradiction.detect(new, old, action="UPDATE", provider=yes).contradicts
    assert yes.calls == 0  # semantic_contradiction is off by default
    verdict = contradiction.detect(
        new, old, action="UPDATE", provider=yes, semantic_enabled=True, timeout=5
    )
    assert verdict.contradicts and verdict.method == "semantic" and yes.calls == 1
    for broken in (ScriptedJudge(TimeoutError("slow")), ScriptedJudge("not json at all")):
        verdict = contradiction.detect(
            new, old, action="UPDATE", provider=broken, semantic_enabled=True, timeout=5
        )
        assert not verdict.contradicts  # advisory: fails open
    delete = contradiction.detect(new, old, action="DELETE", provider=yes, semantic_enabled=True)
    assert yes.calls == 1 and not delete.contradicts  # seed 004: UPDATE proposals only


# -- decisions ---------------------------------------------------------------------------
def test_no_candidates_is_an_add_without_a_model(mem: Memory) -> None:
    p = decide(Fact("Caroline went to a support group"), [], provider=None,
               timeout=1, warnings=[])  # fmt: skip
    assert p is not None and p.action == "ADD" and p.decided_by == "fast-path"


def test_offline_rule_none_update_add(mem: Memory) -> None:
    src = mem.add("Derek: I own an efoil with a 12V20Ah battery", user_id="derek")
    old = fact(mem, src, "Derek owns an efoil battery")
    same = _offline(Fact("Derek owns an efoil battery"), [old])
    assert (same.action, same.target_id) == ("NONE", old.id)
    changed = _offline(Fact("Derek no longer owns an efoil battery"), [old])
    assert (changed.action, changed.target_id) == ("UPDATE", old.id)
    raw_only = _offline(Fact("Derek does not own an efoil"), [src])
    assert raw_only.action == "ADD"  # raw memories are never rewritten


def test_candidates_leave_out_the_source_and_its_facts(mem: Memory) -> None:
    src = mem.add("Caroline: I went to the LGBTQ support group on Tuesday", user_id="c")
    own = fact(mem, src, "Caroline went to an LGBTQ support group")
    other = mem.add("The LGBTQ support group meets every Tuesday evening", user_id="c")
    found = candidates(mem._core.retriever, "user:c", "Caroline went to an LGBTQ support group",
                       exclude_source=src.id)  # fmt: skip
    ids = [m.id for m in found]
    assert src.id not in ids and own.id not in ids and other.id in ids


def test_llm_answers_are_checked() -> None:
    stored = MemoryRecord(id="m1", namespace="n", content="x", content_hash="h")

    def llm(answer: str) -> tuple[Proposal | None, list[str]]:
        warnings: list[str] = []
        got = decide(Fact("a new fact here"), [stored], provider=ScriptedJudge(answer),
                     timeout=1, warnings=warnings)  # fmt: skip
        return got, warnings

    ok, _ = llm('{"action": "UPDATE", "targetId": "m1", "confidence": 0.9, "reason": "newer"}')
    assert ok is not None and (ok.action, ok.target_id, ok.decided_by) == ("UPDATE", "m1", "llm")
    made_up, warnings = llm(
        '{"action": "DELETE", "targetId": "m9", "confidence": 1, "reason": "x"}'
    )
    assert made_up is None and "hallucinated" in warnings[0]
    no_reason, warnings = llm('{"action": "ADD", "confidence": 0.9, "reason": ""}')
    assert no_reason is None and "empty reason" in warnings[0]
    fenced, _ = llm(
        '<think>hmm</think>```json\n{"action": "NONE", "confidence": 1, "reason": "dup"}\n```'
    )
    assert fenced is not None and fenced.action == "NONE"
    garbage, warnings = llm("I think you should add it")
    assert garbage is None and "unusable answer" in warnings[0]


# -- modes -------------------------------------------------------------------------------
def test_mode_from_the_flags() -> None:
    assert mode_of(PipelineConfig()) == "controlled"
    assert mode_of(PipelineConfig(shadow_mode=True)) == "shadow"
    assert mode_of(PipelineConfig(mutations_frozen=True, allow_update_delete=True)) == "shadow"
    assert mode_of(PipelineConfig(allow_update_delete=True)) == "full"


def test_shadow_mode_audits_and_writes_nothing(mem: Memory) -> None:
    with_mode(mem, shadow_mode=True)
    src = mem.add("Caroline: I adopted a rescue dog named Pixel", user_id="c")
    outcomes = run(mem, src, proposal("ADD", "Caroline adopted a rescue dog named Pixel"),
                   proposal("NONE", "Caroline has a dog"))  # fmt: skip
    assert outcomes == {"shadow": 1, "recorded": 1}
    assert [r.id for r in mem.get_all(user_id="c")] == [src.id]
    audit = [h for h in mem.history(src.id, user_id="c") if h.event == "proposal"]
    assert [h.after["outcome"] for h in audit if h.after] == ["shadow", "recorded"]


def test_controlled_mode_adds_through_the_gates(mem: Memory) -> None:
    src = mem.add("Caroline: I adopted a rescue dog named Pixel", user_id="c", session_id="s1")
    outcomes = run(
        mem,
        src,
        proposal("ADD", "Caroline adopted a rescue dog named Pixel"),
        proposal("ADD", "Caroline adopted a rescue dog named Pixel"),
        proposal("ADD", "Caroline might like cats", conf=0.5),
        proposal("DELETE", "Pixel is gone", target=src.id),
    )
    assert outcomes == {"created": 1, "deduped": 1, "skipped": 1, "blocked": 1}
    [new] = [r for r in mem.get_all(user_id="c") if r.id != src.id]
    assert (new.who, new.why, new.source_memory_id) == (PIPELINE_WHO, "extracted-fact", src.id)
    assert (new.session_id, new.created_at, new.extraction_model) == (src.session_id,
            src.created_at, "test")  # fmt: skip
    audit = [h.after for h in mem.history(src.id, user_id="c") if h.event == "proposal"]
    assert [a["outcome"] for a in audit if a] == ["created", "deduped", "skipped", "blocked"]
    assert audit[2] is not None and audit[2]["skip_reason"] == "low_fact_confidence"
    assert audit[3] is not None and audit[3]["block_reason"] == "raw memories are never rewritten"


def test_controlled_mode_blocks_destructive_changes(mem: Memory) -> None:
    src = mem.add("Derek: my efoil has a 12V20Ah battery", user_id="d")
    old = fact(mem, src, "Derek's efoil has a 12V20Ah battery")
    outcomes = run(mem, src, proposal("UPDATE", "Derek's efoil has a 48V battery", old.id))
    assert outcomes == {"blocked": 1}
    assert mem.get(old.id, user_id="d").superseded_by is None


def test_full_mode_supersedes_and_history_shows_the_chain(mem: Memory) -> None:
    with_mode(mem, allow_update_delete=True)
    src = mem.add("Derek: I swapped the battery for a 48V one", user_id="d")
    old = fact(mem, src, "Derek's efoil has a 12V20Ah battery")
    outcomes = run(mem, src, proposal("UPDATE", "Derek's efoil has a 48V battery", old.id))
    assert outcomes == {"superseded": 1}
    kept = mem.get(old.id, user_id="d")
    assert kept.superseded_by is not None
    new = mem.get(kept.superseded_by, user_id="d")
    assert new.content == "Derek's efoil has a 48V battery"
    events = [h.event for h in mem.history(old.id, user_id="d")]
    assert events[-1] == "superseded"
    hits = {h.id for h in mem.recall("Derek efoil battery", user_id="d", limit=10).hits}
    assert new.id in hits and old.id not in hits  # recall answers with the successor
    gone = fact(mem, src, "Derek keeps the efoil in the garage")
    assert run(mem, src, proposal("DELETE", "the efoil was sold", gone.id)) == {"deleted": 1}
    with pytest.raises(NotFoundError):
        mem.get(gone.id, user_id="d")


def test_contradictions_wait_for_review(mem: Memory) -> None:
    with_mode(mem, allow_update_delete=True, contradiction_action="hold")
    src = mem.add("Caroline: I am not vegetarian any more", user_id="c")
    old = fact(mem, src, "Caroline is vegetarian")
    update = proposal("UPDATE", "Caroline is not vegetarian", old.id)
    assert run(mem, src, update) == {"review": 1}
    assert mem.get(old.id, user_id="c").superseded_by is None  # held back
    [item] = mem.review.list(user_id="c")
    assert (item.action, item.target_id, item.status) == ("UPDATE", old.id, "pending")
    audit = [h.after for h in mem.history(src.id, user_id="c") if h.event == "proposal"]
    assert audit[-1] is not None and audit[-1]["review_needed"] is True
    approved = mem.review.approve(item.id, note="she said so", user_id="c")
    assert approved.status == "approved" and mem.review.count(user_id="c") == 0
    assert mem.get(old.id, user_id="c").superseded_by is not None
    with pytest.raises(InvalidInputError, match="already approved"):
        mem.review.approve(item.id, user_id="c")
    assert [h.event for h in mem.history(src.id, user_id="c")][-1] == "review"


def test_a_job_lists_a_review_item_once(mem: Memory) -> None:
    """Two proposals over one old fact join one pending item (the queue keeps one per
    target and action): the job's result names that item once, not once a proposal."""
    with_mode(mem, allow_update_delete=True, contradiction_action="hold")
    src = mem.add("Caroline: I am not vegetarian any more", user_id="c")
    old = fact(mem, src, "Caroline is vegetarian")
    twice = [
        proposal("UPDATE", "Caroline is not vegetarian", old.id),
        proposal("UPDATE", "Caroline is no longer vegetarian", old.id),
    ]
    done = apply_proposals(
        mem._core, src, twice, model="test", provider=None, facts=2, entities=0, now=utcnow()
    )
    [item] = mem.review.list(user_id="c")
    assert done.outcomes == {"review": 2}
    assert done.to_dict()["review"] == [item.id]


def test_rejecting_changes_nothing_and_review_is_namespaced(mem: Memory) -> None:
    with_mode(mem, allow_update_delete=True, contradiction_action="hold")
    src = mem.add("Caroline: I do not live in Boston", user_id="c")
    old = fact(mem, src, "Caroline lives in Boston")
    run(mem, src, proposal("UPDATE", "Caroline does not live in Boston", old.id))
    [item] = mem.review.list(user_id="c")
    assert mem.review.list(user_id="eve") == []
    with pytest.raises(NotFoundError):
        mem.review.reject(item.id, user_id="eve")
    assert mem.review.reject(item.id, user_id="c").status == "rejected"
    assert mem.get(old.id, user_id="c").superseded_by is None
    assert [i.status for i in mem.review.list(user_id="c", status=None)] == ["rejected"]
    with pytest.raises(InvalidInputError):
        mem.review.list(user_id="c", status="maybe")


def test_shadow_mode_cannot_approve(tmp_path: Path) -> None:
    config = Config.load(
        env={},
        home=str(tmp_path),
        pipeline={"allow_update_delete": True, "contradiction_action": "hold"},
    )
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as mem:
        src = mem.add("Caroline: I am not vegetarian")
        old = fact(mem, src, "Caroline is vegetarian")
        run(mem, src, proposal("UPDATE", "Caroline is not vegetarian", old.id))
        [item] = mem.review.list()
        with_mode(mem, mutations_frozen=True)
        with pytest.raises(PermissionDeniedError):
            mem.review.approve(item.id)


def test_review_over_http_and_the_cli(tmp_path: Path, config: Config) -> None:
    import json

    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from engram.api import create_app
    from engram.cli.main import cli

    path = tmp_path / "review.db"
    with Memory(path, config=holding(config), embedder=HashEmbedder()) as mem:
        src = mem.add("Caroline: I am not vegetarian", user_id="c")
        pairs = [
            ("Caroline is vegetarian", "Caroline is not vegetarian"),
            ("Caroline likes tofu dishes", "Caroline dislikes tofu dishes"),
        ]
        for old, new in pairs:
            run(mem, src, proposal("UPDATE", new, fact(mem, src, old).id))
        client = TestClient(create_app(mem, auth=False, mcp=False))
        listed = client.get("/v1/review", params={"user_id": "c"}).json()
        assert listed["total"] == 2 and listed.keys() == {"items", "total", "limit", "offset"}
        first = listed["items"][0]["id"]
        done = client.post(f"/v1/review/{first}/approve", params={"user_id": "c"}, json={})
        assert done.status_code == 200 and done.json()["status"] == "approved"
        assert client.get(f"/v1/review/{first}", params={"user_id": "x"}).status_code == 404
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    base = ["--home", str(tmp_path / "home"), "--db", str(path), "review"]
    out = CliRunner(env=env).invoke(cli, [*base, "list", "--user", "c", "--json"])
    assert out.exit_code == 0, out.output
    [pending] = json.loads(out.output)["items"]
    rejected = CliRunner(env=env).invoke(cli, [*base, "reject", str(pending["id"]), "--user", "c"])
    assert rejected.exit_code == 0 and "rejected" in rejected.output
    empty = CliRunner(env=env).invoke(cli, [*base, "list", "--user", "c"])
    assert "no pending review items" in empty.output
