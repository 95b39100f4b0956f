"""Facts that change close the old fact (issue 28, FEATURES G2): the relation
vocabulary, the change claims a text makes, the closing plan on the write path (both
backends), cardinality learned from the namespace, recall "now", and the bench."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram import Memory
from engram.bench import changes as changes_bench
from engram.cli.main import cli
from engram.config import Config
from engram.pipeline import change_signals as claims
from engram.pipeline import vocabulary
from engram.recall import current
from engram.store.protocols.graph import Relation
from engram.store.sqlite.stale import SQLiteGraphCounts

JAN = datetime(2024, 1, 5, 9, tzinfo=UTC)
FEB = datetime(2024, 2, 5, 9, tzinfo=UTC)
MAR = datetime(2024, 3, 5, 9, tzinfo=UTC)
JUN = datetime(2024, 6, 1, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "target", "stored", "one"),
    [
        ("works at", "Acme", "works_at", True),
        ("is_employed_by", "Acme", "works_at", True),
        ("currently-works-for", "Initech", "works_at", True),
        ("joined", "Initech", "works_at", True),
        ("joined", "the chess club", "member_of", False),
        ("moved_to", "Lisbon", "lives_in", True),
        ("is based in", "Oslo", "lives_in", True),
        ("uses", "MySQL", "uses_database", True),
        ("migrated_to", "Postgres", "uses_database", True),
        ("runs on", "PostgreSQL 16", "uses_database", True),
        ("uses", "Redis", "uses_cache", True),
        ("primary_database", "Spanner", "uses_database", True),
        ("ci_tool", "whatever we pick", "uses_ci", True),
        ("has", "a 48V battery", "has_battery", True),
        ("has battery", "12V20Ah battery", "has_battery", True),
        ("battery", "48V battery", "has_battery", True),
        ("is_equipped_with", "a 48V battery", "has_battery", True),
        ("has", "a dog", "has_dog", None),
        ("uses", "some in-house tool", "uses", False),
        ("talks_about", "Valorant", "talks_about", False),
        ("favourite band", "Muse", "favourite_band", None),
    ],
)
def test_relation_names_map_to_one_canonical_relation(
    name: str, target: str, stored: str, one: bool | None
) -> None:
    assert vocabulary.canonical(name, target) == vocabulary.Canonical(stored, one)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We migrated billing to Postgres.", ("billing", "Postgres", claims.CHANGE)),
        ("Alice joined Initech last month.", ("Alice", "Initech", claims.CHANGE)),
        ("Derek swapped the efoil battery for a 48V one.", ("efoil", "48V battery", "change")),
        ("The team switched from Jira to Linear.", ("team", "Linear", claims.CHANGE)),
        ("We now use Vue for the frontend.", ("frontend", "Vue", claims.CHANGE)),
        ("We replaced Heroku with AWS.", ("user", "AWS", claims.CHANGE)),
        (
            "We rewrote the reporting app and switched it to FastAPI.",
            ("reporting app", "FastAPI", "change"),
        ),
        ("The billing service also uses Redis.", ("billing service", "Redis", claims.ADDITION)),
        ("The billing service uses MySQL.", ("billing service", "MySQL", claims.PLAIN)),
        ("Sam: I moved to Lisbon.", ("Sam", "Lisbon", claims.CHANGE)),
        # A hedge after ", so" hedges its own clause only.
        (
            "My sister Ana lives in Porto, so we'll be close to her in Lisbon.",
            ("sister Ana", "Porto", claims.PLAIN),
        ),
    ],
)
def test_claims_carry_their_signal(text: str, expected: tuple[str, str, str]) -> None:
    [claim] = [c for c in claims.read(text) if c.target == expected[1]]
    assert (claim.source, claim.target, claim.signal) == expected


@pytest.mark.parametrize(
    "text",
    [
        "We might move to Lisbon next year.",
        "We never switched the SDK to GitHub Actions.",
        "We are thinking about moving the admin panel to React.",
        "Did you migrate billing to Postgres?",
        "Hana will move to Tokyo in the autumn.",
        # Contracted negations and futures (found mining a chat as a new user: "don't"
        # became a subject that "uses advisory locks", "We'll" one that moved to Lisbon).
        "No, we don't use advisory locks.",
        "I didn't move to Lisbon.",
        "Ann doesn’t use Redis anymore.",
        "We'll move to Lisbon in March.",
        "Sam won't work at Initech.",
        # Round nineteen's lookalikes: "may" the hedge (not the month), past narration,
        # "like" that is no taste, a subject with no relation, a feeling for a person.
        "We may move to Lisbon.",
        "I used to drink tea every morning.",
        "It looks like rain.",
        "The rest of the team is happy.",
        "I love you.",
    ],
)
def test_hedges_negations_and_questions_claim_nothing(text: str) -> None:
    assert claims.read(text) == []


def test_an_emphatic_do_is_no_part_of_the_subject() -> None:
    # "We do use X" is the speaker's plain claim, not one about an entity named "do".
    [claim] = claims.read("Sam: We do use Postgres for the order service.")
    assert (claim.source, claim.target) == ("order service", "Postgres")
    [claim] = claims.read("We did switch to Linear.")
    assert (claim.source, claim.target) == ("user", "Linear")


def test_a_negated_move_closes_nothing(mem: Memory) -> None:
    _told(mem, "Sam: I live in Berlin.", JAN, "neg")
    _told(mem, "Sam: I didn't move to Lisbon.", FEB, "neg")
    assert _facts(mem, "neg") == [("Sam", "lives_in", "Berlin", True)]


def _told(mem: Memory, text: str, when: datetime, namespace: str | None = None) -> str:
    return mem.add(text, created_at=when, namespace=namespace).id


def _facts(mem: Memory, namespace: str | None = None) -> list[tuple[str, str, str, bool]]:
    rows = mem.graph.relations(current_only=False, namespace=namespace)
    return [
        (r.source, r.relation_type, r.target, r.current)
        for r in rows
        if r.relation_type != "talks_about"
    ]


def _window(r: Relation) -> tuple[str, str, str, datetime, datetime | None]:
    return r.source, r.relation_type, r.target, r.valid_from, r.valid_to


def test_the_efoil_story_closes_the_old_battery_and_recall_now_ranks_48v_first(
    mem: Memory,
) -> None:
    old = _told(mem, "Derek owns an efoil with a 12V20Ah battery", JAN)
    new = _told(mem, "Derek swapped the efoil battery for a 48V one", JUN)
    assert [_window(r) for r in mem.graph.timeline("efoil")] == [
        ("Derek", "owns", "efoil", JAN, None),
        ("efoil", "has_battery", "12V20Ah battery", JAN, JUN),
        ("efoil", "has_battery", "48V battery", JUN, None),
    ]
    assert [r.target for r in mem.graph.as_of("2024-03-01", entity="efoil")][-1] == (
        "12V20Ah battery"
    )
    now = mem.recall("What battery does Derek's efoil have now?")
    assert [h.memory.id for h in now.hits][:2] == [new, old]
    # A question about the past is left alone: the old memory keeps its rank.
    past = mem.recall("What battery did Derek's efoil have in January?")
    assert old in [h.memory.id for h in past.hits]


def test_a_plain_present_question_ranks_the_newer_fact_first(mem: Memory) -> None:
    # Found trying engram as a new user: after "I moved to Lisbon", "where do I live?"
    # (no "now" in it) answered Berlin first, though the graph had closed it.
    old = _told(mem, "I live in Berlin.", JAN, "user:ann")
    new = _told(mem, "I moved to Lisbon.", FEB, "user:ann")
    assert [(f[2], f[3]) for f in _facts(mem, "user:ann")] == [("Berlin", False), ("Lisbon", True)]
    hits = [h.memory.id for h in mem.recall("where do I live?", namespace="user:ann").hits]
    assert hits[:2] == [new, old]


@pytest.mark.parametrize(
    ("query", "now"),
    [
        ("where do I live?", True),
        ("What's my job?", True),
        ("how many kids does Melanie have?", True),
        ("where does Derek work these days", True),
        ("where did I live before?", False),
        ("what was my first job?", False),
        ("where do I live since 2020?", False),
        ("Derek's efoil battery", False),
        # now20: a question opening with "when" asks which time holds now; one whose
        # wh-word is the subject with a present verb asks about now (round twelve's).
        ("When is the thesis draft due?", True),
        ("when does book club meet?", True),
        ("When did I move?", False),
        ("where did I live when I was at school?", False),
        ("Where do I live when I'm in London?", False),
        ("who supplies our electricity?", True),
        ("which bank holds my savings?", True),
        ("who supplied our electricity before?", False),
        ("What books has John read?", False),
        ("What has Melanie painted?", False),
        ("What pets wouldn't cause any discomfort to Joanna?", False),
    ],
)
def test_which_queries_ask_about_now(query: str, now: bool) -> None:
    assert current.asks_now(query) is now


def test_the_issue_examples_close_or_keep(mem: Memory) -> None:
    _told(mem, "The billing service uses MySQL", JAN, "billing")
    _told(mem, "We migrated billing to Postgres", FEB, "billing")
    assert _facts(mem, "billing") == [
        ("billing service", "uses_database", "MySQL", False),
        ("billing service", "uses_database", "Postgres", True),
    ]
    _told(mem, "Alice works at Acme", JAN, "jobs")
    _told(mem, "Alice joined Initech", FEB, "jobs")
    assert _facts(mem, "jobs") == [
        ("Alice", "works_at", "Acme", False),
        ("Alice", "works_at", "Initech", True),
    ]
    _told(mem, "The billing service uses MySQL", JAN, "plural")
    _told(mem, "The billing service also uses Redis", FEB, "plural")
    _told(mem, "The billing service uses Postgres too", MAR, "plural")  # "too": one more
    assert {f[2]: f[3] for f in _facts(mem, "plural")} == {
        "MySQL": True,
        "Redis": True,
        "Postgres": True,
    }


def test_chat_that_states_no_change_closes_nothing(mem: Memory) -> None:
    # Lines like these closed facts on LoCoMo dev before the rules were tightened:
    # "went to" is no move, and a loose attribute read ("job" = "hard") never closes.
    for when, line in [
        (JAN, "Caroline: I went to a LGBTQ support group yesterday and it was so powerful."),
        (FEB, "Caroline: I went to a LGBTQ+ counseling workshop last week."),
        (JAN, "Jon: Losing my job was hard, but I'm living my dreams now."),
        (FEB, "Jon: Losing my job was tough but it gave me the push I needed."),
    ]:
        _told(mem, line, when, "chat")
    assert _facts(mem, "chat") and all(f[3] for f in _facts(mem, "chat"))


def test_a_replaced_value_finds_the_fact_that_held_it(mem: Memory) -> None:
    _told(mem, "The API runs on Heroku", JAN)
    _told(mem, "Ben works at Hooli", JAN)
    _told(mem, "We replaced Heroku with AWS", FEB)
    _told(mem, "Ben left Hooli for Pied Piper", MAR)
    assert _facts(mem) == [
        ("API", "uses_cloud", "Heroku", False),
        ("Ben", "works_at", "Hooli", False),
        ("API", "uses_cloud", "AWS", True),
        ("Ben", "works_at", "Pied Piper", True),
    ]


def test_cardinality_is_learned_from_the_namespace(mem: Memory) -> None:
    # "favourite band" is declared nowhere: a plain restatement adds a second one ...
    _told(mem, "Ola's favourite band is Muse", JAN, "fresh")
    _told(mem, "Ola's favourite band is Blur", FEB, "fresh")
    assert [f[3] for f in _facts(mem, "fresh")] == [True, True]
    # ... until the namespace's data shows it held one at a time: three people, each
    # with one, and changes ("now") that closed the old one.
    for person, old, new in [
        ("Ana", "Muse", "Blur"),
        ("Bo", "Oasis", "Pulp"),
        ("Cy", "Suede", "Muse"),
    ]:
        _told(mem, f"{person}'s favourite band is {old}", JAN, "learned")
        _told(mem, f"{person}'s favourite band is now {new}", FEB, "learned")
    _told(mem, "Ola's favourite band is Muse", JAN, "learned")
    _told(mem, "Ola's favourite band is Blur", MAR, "learned")
    ola = [f for f in _facts(mem, "learned") if f[0] == "Ola"]
    assert ola == [
        ("Ola", "favourite_band", "Muse", False),
        ("Ola", "favourite_band", "Blur", True),
    ]
    # Where sources hold several at once, the same relation stays many.
    for person in ("Ana", "Bo", "Cy"):
        _told(mem, f"{person}'s favourite band is Muse", JAN, "many")
        _told(mem, f"{person}'s favourite band is also Blur", FEB, "many")
    _told(mem, "Ola's favourite band is Muse", JAN, "many")
    _told(mem, "Ola's favourite band is Blur", MAR, "many")
    assert all(f[3] for f in _facts(mem, "many"))


def test_the_store_reports_cardinality_and_stale_memories(mem: Memory) -> None:
    ns = "counted"
    old = _told(mem, "Sam lives in Berlin", JAN, ns)
    new = _told(mem, "Sam moved to Lisbon", FEB, ns)
    counts = mem._core.store.graph_counts  # the store part the closing plan reads
    held = counts.relation_cardinality(ns, ["lives_in", "nothing_like_it"])
    assert set(held) == {"lives_in"}
    assert (held["lives_in"].sources, held["lives_in"].multi, held["lives_in"].closed) == (1, 0, 1)
    assert counts.stale_memories(ns, [old, new, "no-such-id"]) == {old}


def test_sqlite_reads_a_namespaces_stale_set_once_while_nothing_changes(
    config: Config, tmp_path: Path
) -> None:
    """On SQLite the memories of closed facts are read once per namespace while the
    database is unchanged; each recall's answer is the per-id read's (stale.py)."""
    with Memory(tmp_path / "stale.db", config=config, embedder=None) as mem:
        ns = "kept"
        old = _told(mem, "Sam lives in Berlin", JAN, ns)
        new = _told(mem, "Sam moved to Lisbon", FEB, ns)
        counts = mem._core.store.graph_counts
        assert isinstance(counts, SQLiteGraphCounts)
        per_id = super(SQLiteGraphCounts, counts).stale_memories
        reads = counts.reads
        assert counts.stale_memories(ns, [old, new, "no-such-id"]) == {old}
        assert counts.stale_memories(ns, [new, old, old]) == {old}
        assert counts.reads == reads + 1  # nothing changed: the set answered
        assert counts.stale_memories("elsewhere", [old, new]) == set()  # its own set
        assert counts.reads == reads + 2
        later = _told(mem, "Sam moved to Porto", MAR, ns)  # a write: read again
        asked = [old, new, later]
        assert counts.stale_memories(ns, asked) == per_id(ns, asked) == {old, new}
        assert counts.reads == reads + 3
        counts._set_max = 1  # more than the set may hold: the candidates' own read
        _told(mem, "Sam likes tea", MAR, ns)
        assert counts.stale_memories(ns, asked) == {old, new}
        assert counts.reads == reads + 4
        assert counts._kept[1][ns] is None


def test_the_stale_factor_one_turns_the_demotion_off(config: Config) -> None:
    cfg = config.with_overrides(recall={"stale_fact_factor": 1.0})
    with Memory(":memory:", config=cfg, embedder=None) as mem:
        old = _told(mem, "Derek owns an efoil with a 12V20Ah battery", JAN)
        _told(mem, "Derek swapped the efoil battery for a 48V one", JUN)
        hits = mem.recall("What battery does Derek's efoil have now?").hits
        assert hits[0].memory.id == old  # the old text matches more words


def test_bench_changes_meets_the_targets_on_both_folds(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["bench", "changes", "--out", str(tmp_path), "--json"], catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "changes.json").read_text("utf-8"))
    assert (tmp_path / "changes.md").read_text("utf-8").startswith("| fold |")
    # fifteen sets
    assert list(data["folds"]) == [*"ABCDEFGHIJKLMNOPQRS", "Z", "AA", "AB", "AC", "AD"]
    # The held-out pairs: E, G and I all changes, F, H and J all non-changes.
    for changed, kept in (("E", "F"), ("G", "H"), ("I", "J")):
        assert data["folds"][changed]["changes"] >= 40
        assert data["folds"][changed]["non_changes"] == 0
        assert data["folds"][kept]["non_changes"] >= 40 and data["folds"][kept]["changes"] == 0
    # K and L (changes22): each at least 50 changes and about a fifth look-alikes.
    for fold in ("K", "L"):
        assert data["folds"][fold]["changes"] >= 50 and data["folds"][fold]["non_changes"] >= 12
    # M and N (changes23), O and P (changes24): 52 changes and 14 look-alikes each.
    for fold in ("M", "N", "O", "P"):
        assert data["folds"][fold]["changes"] >= 50 and data["folds"][fold]["non_changes"] >= 14
    # Q and R (changes26): 40 changes and 16 look-alikes each.
    for fold in ("Q", "R", "Z", "AA", "AB", "AC", "AD"):
        assert data["folds"][fold]["changes"] >= 40 and data["folds"][fold]["non_changes"] >= 16
    # The tuned folds (and issue 28's check, B); D, the chat set's check, misses the
    # change target (docs/benchmarks.md) and is held to the non-change one only.
    assert data["folds"]["D"]["non_change_rate"] <= changes_bench.KEEP_TARGET
    for fold in ("A", "B", "C"):
        score = data["folds"][fold]
        assert score["changes"] >= 50 and score["non_changes"] >= 50
        assert score["change_rate"] >= changes_bench.CHANGE_TARGET
        assert score["non_change_rate"] <= changes_bench.KEEP_TARGET
    # The user questions (now20): told by add and by a mined chat, the new fact first
    # for all but at most one story a fold, and every story asked has a fold.
    user = data["user"]["folds"]
    assert list(user) == list("ABCDEG")
    for by in user.values():
        for told in ("add", "chat"):
            assert by[told]["stories"] == 12 and by[told]["now_first"] >= 11


def test_bench_changes_scores_a_given_set_and_says_what_it_got_wrong(tmp_path: Path) -> None:
    stories = [
        {"id": "c", "fold": "A", "kind": "change", "old": ["Berlin"], "new": "Lisbon",
         "statements": ["Sam lives in Berlin.", "Sam moved to Lisbon."]},
        {"id": "k", "fold": "A", "kind": "keep",
         "statements": ["Sam lives in Berlin.", "Sam lives in Lisbon."]},
    ]  # fmt: skip
    path = tmp_path / "set.json"
    path.write_text(json.dumps({"stories": stories}), "utf-8")
    result = changes_bench.run(Config.load(env={}, home=str(tmp_path / "home")), path)
    assert result["folds"]["A"]["closed_correctly"] == 1
    assert result["folds"]["A"]["closed_wrongly"] == 1  # a plain second home closes
    assert "Wrong: k" in changes_bench.markdown(result)
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]", "utf-8")
    with pytest.raises(Exception, match="changes set"):
        changes_bench.run(Config.load(env={}, home=str(tmp_path / "home")), bad)
