"""The contradiction set ships no LoCoMo or BEAM text (``shared/bench/README.md``): its
dev-derived sides are references that resolve, checksum-checked, against the dev data."""

from __future__ import annotations

import importlib.util
import json
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from engram.bench import contradiction_refs as refs
from engram.bench import contradictions as contra
from engram.config import Config
from engram.errors import InvalidInputError

SHARED = Path(__file__).resolve().parents[2] / "shared" / "bench"
SHIPPED: list[dict[str, Any]] = json.loads(
    resources.files("engram.data").joinpath("contradictions.json").read_text("utf-8")
)
TURNS = refs.load_turns(SHARED)


def _strings(node: object) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def test_no_string_of_the_shipped_set_is_dev_text() -> None:
    dev = [p for p in SHIPPED if p["source"] != "hand"]
    assert len(dev) == 287
    assert all(refs.is_ref(p["old"]) and refs.is_ref(p["new"]) for p in dev)
    # What a reference holds besides its address is short: literals of rewritten words.
    assert max(len(s) for s in refs.referenced_texts(dev)) <= refs.MAX_LITERAL
    corpus = "\n".join(TURNS.values())
    raw = [(SHARED / refs.LOCOMO_FILE).read_text("utf-8")] + [
        chat.read_text("utf-8") for chat in sorted((SHARED / refs.BEAM_DIR).glob("*/chat.json"))
    ]
    long = [s for s in _strings(SHIPPED) if len(s) > 40]
    assert long, "the hand-written rows hold sentences; the check must see them"
    leaked = [s for s in long if s in corpus or any(s in r for r in raw)]
    assert leaked == []


def test_every_reference_resolves_with_its_checksum() -> None:
    pairs, left_out = contra.load_set(data=SHARED)
    assert left_out == 0 and len(pairs) == len(SHIPPED)
    for shipped, pair in zip(SHIPPED, pairs, strict=True):
        assert {k: v for k, v in pair.items() if k not in ("old", "new")} == {
            k: v for k, v in shipped.items() if k not in ("old", "new")
        }
        for side in ("old", "new"):
            assert isinstance(pair[side], str) and pair[side]
            if refs.is_ref(shipped[side]):
                assert refs.key(pair[side]) == shipped[side]["sha256"]
    # A sentence or a mined fact is part of its turn, not the whole of it.
    parts = [p[s] for p in SHIPPED for s in ("old", "new") if refs.is_ref(p[s])]
    assert sum("parts" in s for s in parts) > 100 and sum("parts" not in s for s in parts) > 100


def test_a_data_file_that_differs_names_the_row_and_the_folder(tmp_path: Path) -> None:
    row = next(p for p in SHIPPED if p["source"].startswith("locomo-mined"))
    bad = dict(row, old=dict(row["old"], sha256="000000000000"))
    path = tmp_path / "set.json"
    path.write_text(json.dumps([bad]), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=rf"row {row['id']}: locomo:.*{SHARED}"):
        contra.load_set(path, SHARED)
    gone = dict(row, new={"beam": "1", "message": 999_999, "sha256": "0" * 12})
    path.write_text(json.dumps([gone]), encoding="utf-8")
    with pytest.raises(InvalidInputError, match=r"beam:1:999999 is not in"):
        contra.load_set(path, SHARED)


def test_without_the_data_only_the_hand_written_rows_are_scored(
    tmp_path: Path, config: Config
) -> None:
    pairs, left_out = contra.load_set(data=tmp_path / "nothing-here")
    assert {p["source"] for p in pairs} == {"hand"} and left_out == 287
    assert contra.load_set() == (pairs, left_out)  # no folder: the same
    result = contra.run(config, tmp_path, mine=True)
    assert result["set"]["left_out"] == 287 and "mining" not in result
    text = contra.markdown(result)
    assert "287 pairs taken from LoCoMo / BEAM dev left out" in text
    assert "Mining not run: no LoCoMo dev file" in text


def test_encode_rebuilds_a_rewritten_sentence_from_its_turn() -> None:
    turn = "Nate: I went to a game convention and met new people, it was great!"
    fact = "Nate went to a game convention and met new people."
    parts = refs.encode(fact, turn)
    assert parts is not None and any(isinstance(p, list) for p in parts)
    side = refs.reference(("locomo", "conv-x", "D1:1"), fact, turn)
    turns = {("locomo", "conv-x", "D1:1"): turn, ("locomo", "", ""): ""}
    assert refs.resolve(side, turns, row="r", where="here") == fact
    assert refs.encode(turn, turn) is None
    assert refs.encode("met new people", turn) == [[turn.index("met"), turn.index(", it")]]
    with pytest.raises(InvalidInputError, match="not derived from that turn"):
        refs.encode("A sentence that shares nothing at all with the turn it names here.", turn)


def test_origin_finds_the_turn_a_fact_was_mined_from() -> None:
    turns = {
        ("locomo", "c", "D1:1"): "Joanna: Not much is new other than the screenplay.",
        ("locomo", "c", "D1:2"): "Nate: I won my second tournament last week!",
    }
    assert refs.origin("Nate won my second tournament last week", turns) == ("locomo", "c", "D1:2")
    assert refs.origin("Priya adopted a three-legged greyhound called Biscuit.", turns) is None
    got = refs.origin("Joanna thinks Not much is new other than the screenplay.", turns)
    assert got == ("locomo", "c", "D1:1")


def _script() -> Any:
    path = Path(__file__).resolve().parents[1] / "scripts" / "contradiction_refs.py"
    spec = importlib.util.spec_from_file_location("contradiction_refs_script", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_script_turns_written_out_rows_into_references() -> None:
    script = _script()
    turns = {
        ("beam", "3", "7"): "user: I switched the cache to Redis. It cut latency in half.",
        ("beam", "3", "9"): "user: Latency is fine now, the cache works.",
        ("beam", "", ""): "",
    }
    row = {"label": False, "source": "beam:3:7/9", "kind": "k", "id": "x1", "fold": "A"}
    pairs = [
        row
        | {"old": "It cut latency in half.", "new": "user: Latency is fine now, the cache works."},
        row
        | {"id": "x2", "old": "Nothing here was said in that chat at all, not a word.", "new": "a"},
        {"old": "Derek lives in Boston.", "new": "Derek left Boston.", "source": "hand", "id": "h"},
    ]
    kept, dropped = script.convert(pairs, turns)
    assert dropped == ["x2"] and [p["id"] for p in kept] == ["x1", "h"]
    assert kept[0]["old"] == {
        "beam": "3",
        "message": 7,
        "parts": [[37, 60]],  # "user: I switched the cache to Redis. " is 37
        "sha256": refs.key("It cut latency in half."),
    }
    assert "parts" not in kept[0]["new"] and kept[1] == pairs[2]
    for side in ("old", "new"):
        assert refs.resolve(kept[0][side], turns, row="x1", where="t") == pairs[0][side]
    shipped = resources.files("engram.data").joinpath("contradictions.json").read_text("utf-8")
    assert script.dump(SHIPPED) == shipped  # the script writes the layout the file has
