"""The category bridge experiment (issue 24, round 3): labels, features and the veto."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import HashEmbedder
from engram import Memory
from engram.bench import abstain as abstain_bench
from engram.bench import abstain_line, categories, paraphrase
from engram.config import Config
from engram.errors import InvalidInputError
from engram.recall import abstain
from test_paraphrase import _small as small_set

LABELS = ["web framework", "database", "veterinarian", "date and time", "garden", "music"]
LABELS += ["recipe", "flight", "weather", "salary"]


def test_the_packaged_list_is_a_few_hundred_distinct_labels() -> None:
    labels = categories.load_labels()
    assert 200 <= len(labels) <= 600
    assert len(set(labels)) == len(labels)
    assert not any(label.startswith("#") for label in labels)


@pytest.mark.parametrize(
    ("text", "message"),
    [("# only a comment\n\n", "holds no category labels"), ("cat\ndog\ncat\n", "twice: cat")],
)
def test_a_bad_label_file_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "labels.txt"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InvalidInputError, match=message):
        categories.load_labels(path)


def test_a_label_is_named_by_its_keywords_not_its_stopwords() -> None:
    bridge = categories.Categories(HashEmbedder(), LABELS)
    # "databases" names "database" through the stem; "and" alone never names
    # "date and time", and "web" without "framework" is not "web framework".
    assert bridge.named("Which databases and web servers do we run?") == {1}
    assert bridge.named("Which web framework does the API use?") == {0}
    assert bridge.named("When is the vet appointment?") == set()


def test_the_store_mentioning_the_named_category_is_told_apart() -> None:
    bridge = categories.Categories(HashEmbedder(256), LABELS)
    embed = HashEmbedder(256).embed_batch
    query = "Which database do we use?"
    about = embed(["The database is Postgres 16 on a managed instance."])
    # Nearer five other labels than "database": tagged with them, not with it.
    other = embed(["The veterinarian likes garden music, a recipe, a flight and weather."])
    q = embed([query])[0]
    named = bridge.named(query)
    recorded = ("background", *categories.NAMES[1:])
    near = dict(zip(recorded, bridge.features(q, about, named), strict=True))
    far = dict(zip(recorded, bridge.features(q, other, named), strict=True))
    # The background is the query's alone: the same whatever the candidates.
    assert near["background"] == far["background"] > 0.0
    assert near["cat_named"] == far["cat_named"] == 1.0
    assert near["cat_named_tagged"] == 1.0 and far["cat_named_tagged"] == 0.0
    assert near["cat_bridge"] > far["cat_bridge"]
    assert near["cat_profile"] > far["cat_profile"]
    # No candidate: nothing to bridge to, but the query still names its category.
    empty = bridge.features(q, np.zeros((0, q.shape[0]), dtype=np.float32), named)
    assert empty == [near["background"], 0.0, 0.0, 0.0, 0.0, 1.0, 0.0]


def _row(
    kind: str, sim: float, named: float, tagged: float, held_out: bool = False
) -> abstain_bench.Row:
    return abstain_bench.Row(
        kind,
        "paraphrase",
        0,
        f"{kind}-{sim}-{named}-{tagged}",
        "agent",
        sim,
        0.0,
        3,
        False,
        0.3,
        0.3,
        0 if kind == "answerable" else None,
        1.0,
        held_out=held_out,
        hit_sims=[sim],
        hit_overlaps=[0.0],
        hit_fused=[0.3],
        hit_scores=[0.3],
        gold_ranks=[0] if kind == "answerable" else [],
        split=paraphrase.HELD_OUT if held_out else paraphrase.CALIBRATION,
        categories=[0.1, 0.2, 0.2, 0.2, 0.2, named, tagged],
    )


def test_the_veto_silences_only_an_untagged_named_category_below_its_cosine() -> None:
    shipped = abstain_bench.Policy("shipped", abstain.CALIBRATION, abstain.CALIBRATION.embedder)
    veto = replace(shipped, veto=0.3)
    untagged = _row("cross", 0.25, 1.0, 0.0)
    # 0.25 is above the shipped silent floor: one line without the veto, silent with it.
    assert abstain_bench.shown(untagged, shipped) and not abstain_bench.shown(untagged, veto)
    assert abstain_bench.shown(_row("cross", 0.25, 1.0, 1.0), veto)  # the store has it
    assert abstain_bench.shown(_row("cross", 0.25, 0.0, 0.0), veto)  # names no category
    assert abstain_bench.shown(_row("cross", 0.35, 1.0, 0.0), veto)  # cosine above the veto


def test_the_veto_cosine_stops_before_it_silences_a_fitting_question() -> None:
    shipped = abstain_bench.Policy("shipped", abstain.CALIBRATION, abstain.CALIBRATION.embedder)
    rows = [_row("answerable", 0.32, 1.0, 0.0), _row("cross", 0.2, 1.0, 0.0)]
    # 0.35 would silence the answerable question at 0.32: the highest safe step is 0.3.
    assert categories.pick_veto(rows, shipped) == 0.3
    # A held-out question never moves it.
    held = [*rows, _row("answerable", 0.2, 1.0, 0.0, held_out=True)]
    assert categories.pick_veto(held, shipped) == 0.3


def test_the_paraphrase_run_measures_and_compares_the_bridge(
    tmp_path: Path, config: Config
) -> None:
    path = small_set(tmp_path)  # two calibration and two held-out stores
    embedder = HashEmbedder()

    @contextlib.contextmanager
    def fresh() -> Iterator[Memory]:
        with Memory(":memory:", config=config, embedder=embedder) as mem:
            yield mem

    bridge = categories.Categories(embedder)
    rows = paraphrase.collect(paraphrase.load(path), fresh, categories=bridge.measure)
    assert all(r.categories is not None and len(r.categories) == 7 for r in rows)
    assert "cat_named_tagged" in rows[0].evidence().values()
    compared = categories.compare(rows, embedder.name)
    assert set(compared) >= {name for name, _ in categories.VARIANTS}
    assert any(name.startswith("shipped + category veto") for name in compared)
    cells = compared["best cosine + overlap (shipped)"]["groups"]["paraphrase calibration"]
    assert cells["answerable wrongly silent"] == 0.0  # the fit's silent floor keeps them all
    assert categories.markdown(compared).startswith("| variant | group |")


def test_the_background_is_added_to_rows_saved_without_it() -> None:
    bridge = categories.Categories(HashEmbedder(256), LABELS)
    saved = replace(_row("cross", 0.4, 0.0, 0.0), question_id="q1", categories=None)
    measured = _row("answerable", 0.3, 1.0, 1.0)
    rows = categories.with_background([saved, measured], {"q1": "Which database?"}, bridge)
    assert rows[1] is measured  # already measured: kept as it was
    assert rows[0].categories is not None and len(rows[0].categories) == 1
    values = rows[0].evidence().values()
    # The standout is the best cosine less the query's background among the labels;
    # the candidate features are absent, not zero.
    assert values["cat_standout"] == pytest.approx(0.4 - rows[0].categories[0])
    assert "cat_bridge" not in values
    with pytest.raises(InvalidInputError, match="no question text for 1 rows"):
        categories.with_background([saved], {}, bridge)


def _asked(kind: str, qid: str, sim: float, background: float, split: str) -> abstain_bench.Row:
    """A row asked of the store its question id names, with only the query's
    background among the labels measured (``cat_standout`` = sim - background)."""
    return replace(
        _row(kind, sim, 0.0, 0.0, held_out=split != paraphrase.CALIBRATION),
        question_id=qid,
        split=split,
        categories=[background],
    )


def _two_stores() -> list[abstain_bench.Row]:
    cal = paraphrase.CALIBRATION
    rows = [_asked("answerable", f"a:a{n}", 0.30 + 0.02 * n, 0.25, cal) for n in range(4)]
    rows += [_asked("answerable", f"b:a{n}", 0.20 + 0.02 * n, 0.10, cal) for n in range(4)]
    # Cross-domain questions: a low cosine, and nearer the generic labels than any memory.
    rows += [_asked("cross", f"b:a{n}>a", 0.16 + 0.02 * n, 0.30, cal) for n in range(4)]
    rows += [_asked("cross", f"a:a{n}>b", 0.12 + 0.02 * n, 0.30, cal) for n in range(4)]
    return rows


def test_each_off_topic_test_keeps_every_calibration_question() -> None:
    rows = _two_stores()
    held = _asked("answerable", "c:a0", 0.05, 0.0, paraphrase.HELD_OUT_4)
    policies = categories.rule_policies([*rows, held], abstain.CALIBRATION.embedder)
    assert len(policies) == 4  # the cosine alone; a direction, with a margin; a box
    for model, policy in policies.values():
        assert policy.off_topic is not None
        fitted = [r for r in rows if r.set == "answerable"]
        assert all(abstain_bench.shown(r, policy) for r in fitted), model
    # cat_standout separates these cross-domain questions where the cosine alone cannot
    # (the lowest answerable at 0.20 keeps those at 0.16 and 0.18 answered).
    name = next(n for n in policies if "along" in n and "margin" not in n)
    cross = [r for r in rows if r.set == "cross"]
    silent = sum(1 for r in cross if not abstain_bench.shown(r, policies[name][1]))
    alone = policies["off-topic: best cosine below the lowest calibration question"][1]
    assert silent == len(cross) > sum(1 for r in cross if not abstain_bench.shown(r, alone))


def test_an_off_topic_test_alone_silences_and_the_rest_below_confidence_is_one_line() -> None:
    shipped = paraphrase.shipped_policy(abstain.CALIBRATION.embedder)
    low = _asked("cross", "a:a0>b", 0.05, 0.0, paraphrase.CALIBRATION)
    # Below the shipped silent floor: silent as shipped; one line when a separate test
    # says it is not clearly off-topic; silent when it says it is.
    assert abstain_bench.shown(low, shipped) == []
    assert len(abstain_bench.shown(low, replace(shipped, off_topic=lambda r: False))) == 1
    assert abstain_bench.shown(low, replace(shipped, off_topic=lambda r: True)) == []
    high = _asked("answerable", "a:a1", 0.9, 0.0, paraphrase.CALIBRATION)
    assert abstain_bench.verdict(high, replace(shipped, off_topic=lambda r: False)) == "related"


def test_the_margin_is_how_far_a_left_out_store_falls_below_the_others_floor() -> None:
    rows = _two_stores()
    answerable = [r for r in rows if r.set == "answerable"]
    cross = [r for r in rows if r.set == "cross"]
    feature = categories.named_feature("cat_standout")
    margin = categories.loso_margin(answerable, cross, feature)
    assert margin > 0.0  # each store's lowest question is below the other's floor
    angle, floor = categories.fit_direction(answerable, cross, feature)
    value = abstain_line.along(feature, angle)
    assert min(value(r) for r in answerable) == pytest.approx(floor)
    sim, bound = categories.fit_box(answerable, cross, feature)
    assert not [r for r in answerable if (r.sim or 0.0) < sim and feature(r) < bound]
    with pytest.raises(InvalidInputError, match="no calibration rows"):
        categories.fit_direction([], cross, feature)


def test_a_store_profile_ranks_the_best_cosine_among_what_labels_find_there() -> None:
    bridge = categories.Categories(HashEmbedder(256), LABELS)
    profiles = categories.Profiles(bridge)
    profiles.add_texts("garden-allotment", ["The tomatoes are sown indoors.", "Plot 14 rent."])
    profiles.add("bench:locomo:conv-26", np.eye(256, dtype=np.float32)[:3])
    cross = _asked("cross", "auto-fleet:a1>garden-allotment", 0.4, 0.0, paraphrase.HELD_OUT_4)
    assert categories.searched(cross) == "garden-allotment"
    assert categories.searched(replace(cross, question_id="garden-allotment:u2")) == (
        "garden-allotment"
    )
    mean, spread = profiles.stats["garden-allotment"]
    assert profiles.standing(cross) == pytest.approx((0.4 - mean) / spread)
    dev = replace(cross, dataset="locomo", namespace="bench:locomo:conv-26")
    assert categories.searched(dev) == "bench:locomo:conv-26"
    with pytest.raises(InvalidInputError, match="no vectors"):
        profiles.add("empty", np.zeros((0, 256), dtype=np.float32))
