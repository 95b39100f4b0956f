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
from engram.bench import categories, paraphrase
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
