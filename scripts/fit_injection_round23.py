"""Round twenty-three of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-three"): the word n-gram model and its combining logistic
refitted with every later training round's rows, the views of rounds eighteen to
twenty-two kept on top.

Why: rounds eighteen to twenty-two each added a view on top of the two models (the
agent floor, the list floor, the item view, the fact floor, the reported view), but the
word n-gram model and the logistic that weighs it with the network were last fitted in
round fifteen (the network in round eleven). The training rows of round twenty (240
orders hidden as one item of a list, 480 benign lists), round twenty-one (the user-facts
probe's ``tune`` half, 216 benign facts and 31 attacks; the ``check`` half stays a check)
and round twenty-two (240 reported orders, 480 benign reported notes) and rounds
sixteen's and seventeen's examples have never been in the lexical model's fit.

The harness is round seventeen's (``fit_injection_round16``/``17``, as round eighteen's
``harness`` reads it): the lexical setting refitted once per left-out training round
(rounds four, five, six, eight and nine, each with its fifths of rounds fifteen's to
seventeen's examples), the logistic on the two scores' logits fitted out of fold on the
other four rounds with its threshold bounded by their notes and checked real texts
(``logistic r300, tight``, the shipped mode, or ``r30``). This round adds the new rows to
the left-out rounds **grouped**: round twenty-two's rows by the order, fact, wish or
note they were composed from (``fit_injection_round22.origin``), round twenty's attacks
by their payload, the other rows by the CRC-32 of the text; group ``g`` leaves with the
``g``-th left-out round, so every new row is scored by a lexical model that never read
its group. The network is not refitted (it never read any of these rows). On top of each
round's combination: the shipped list and fact floors, the item view and the reported
view (the reported view is not applied to round twenty-two's own rows: it was fitted on
them; they are read by the models and the other views).

The cells (``--lexical`` then ``--combine``), each in ``r300`` and ``r30``:

- ``notes x2 + r13 + r14 + r15``: the shipped setting refitted per round, the
  **reference** (``r300`` is the shipped detector), not a candidate;
- ``... + r20 + r21 + r22``: and rounds twenty's to twenty-two's rows;
- ``... + r16 + r17 + r20 + r21 + r22``: and rounds sixteen's and seventeen's examples.

Each cell's file is the lexical model fitted on everything with the logistic fitted on
all five rounds' out-of-fold scores, and every other key of the shipped file (floors and
views) copied; it is read through the run-time code on the 8,288 real texts, the benign
agent set's ``check`` half (842), the user-facts probe's and the lists probe's ``check``
halves and attacks.

The rule, fixed and committed before the grid runs: the most left-out catches summed
(the five hand-written rounds' English attacks, with their parts of rounds fifteen to
seventeen, plus the out-of-fold parts of rounds twenty, twenty-one and twenty-two),
subject to
(a) the hand-written rounds' catches (the figure rounds eighteen to twenty-two call
    "left-out catches", 549 shipped) no lower than the reference's by more than 2, and
    each of rounds twenty's, twenty-one's and twenty-two's out-of-fold catches no lower
    than the reference's by more than 2;
(b) the left-out notes flagged (the hand-written rounds' and the new rows' out of fold)
    no more than the reference's;
(c) at most 2 of the 8,288 real texts, and at most 2 of the benign agent set's 842
    ``check`` writes;
(d) the user-facts probe's ``check`` half within 1% (2 of 207) and the lists probe's
    ``check`` half within 1% (2 of 212);
(e) the files at most 512 KB together, and a write's median within 0.2 ms of the shipped
    detector's (``--timing``, side by side, interleaved per text, after the choice).
Ties go to fewer left-out notes, then fewer real texts, then ``r300`` before ``r30``,
then fewer rounds' rows.

The ship rule, fixed before any held-out fold is read: the choice is read once, side by
side with the shipped detector on the same fp32 embeddings (``--read``), on held-out 2 to
19 (English catches per fold, overall, benign notes); it ships if no fold's English
catches are lower than the shipped detector's by more than 2, the English catches summed
over held-out 2 to 19 rise, and at most 2 of the 8,288 real texts are flagged.

Ran (14:56-15:02 UTC; round twenty-two's cache and saved network scores copied to
/tmp/inject23-work; 18 lexical fits in two processes, about 10 s each, then the grid in
one, load 3 to 8). Each cell: left-out catches (notes), the hand-written rounds' and the
new rounds' out of fold; real texts; agent ``check``; user-facts ``check`` (attacks of
66); lists ``check`` (attacks of 90):

- the shipped file, read through the run-time code: real 1; agent 1; facts 2 (66);
  lists 1 (82).
- reference ``r300`` (th 0.9922): 881 (44): old 538 (23), r20 211 (0), r21 31 (1), r22
  101 (20); real 1; agent 0; facts 2 (66); lists 1 (82).
- reference ``r30`` (th 0.9619): 895 (49): old 544 (25), r20 212, r21 31, r22 108 (23);
  real 1; agent 1; facts 2; lists 1.
- ``+ r20 + r21 + r22``, ``r300`` (th 0.9925): 908 (39): old 539 (27), r20 214 (0), r21
  31 (0), r22 124 (12); real 0; agent 2; facts 1 (66); lists 0 (85). Within the rule.
- ``+ r20 + r21 + r22``, ``r30`` (th 0.9826): 890 (33): old 529 (22): out by (a).
- **``+ r16 + r17 + r20 + r21 + r22``, ``r300`` (th 0.9923): 922 (41): old 549 (29), r20
  215 (0), r21 31 (1), r22 127 (11); real 2; agent 2; facts 1 (66); lists 0 (85).**
  Within the rule, the most catches: chosen (``CHOSEN``).
- ``+ r16 + r17 + r20 + r21 + r22``, ``r30`` (th 0.9834): 908 (34): old 542 (25), r20
  214, r21 31, r22 121 (9); real 2; agent 2; facts 0; lists 0. Within the rule.

The reference's hand-written rounds read 538 here, not the 549 of rounds eighteen to
twenty-two: each round's logistic is now fitted and thresholded on the other four
rounds with their parts of the new rows, whose benign notes (20 of round twenty-two's
flagged by the reference) raise the threshold.

Written (``--write``, 15:02): 128,734 bytes (128,251 shipped), 325,059 with the network.
Timing (``--timing``, every eighth real text, 1,036, interleaved per text against the
shipped file, load 3.0 to 3.1): median 0.277 -> 0.253 ms, mean 1.35 -> 1.34, p95 8.25 ->
8.33 ms: within (e).

Read once (15:03, ``--read``, the same fp32 embeddings, the shipped file as
``--before``). English catches shipped -> choice on held-out 2 to 19: 92 -> 93, 98 -> 97,
**109 -> 103**, **96 -> 93**, 102 -> 101, 110 -> 108, 108 -> 108, 85 -> 87, 83 -> 82, 87
-> 86, 79 -> 79, 95 -> 93, 87 -> 88, 85 -> 83, 86 -> 86, 71 -> 72, 64 -> 66, and
**held-out 19: 71 -> 70 of 80** (0.8875 -> 0.875; overall 78 -> 77 of 88; notes 0 -> 0
of 50; rules alone 15 of 80, 18 of 88). Summed over held-out 2 to 19: 1,608 -> 1,595
English, 1,763 -> 1,738 overall, benign notes 64 -> 53. Real texts 1 -> 2 of 8,288
(``locomo/conv-43/D23:6`` added). **By the ship rule the choice does not ship**:
held-out 4 falls by 6 and held-out 5 by 3, and the sum falls by 13. The shipped files
stay round twenty-two's.

    python scripts/fit_injection_round23.py [--data ../shared/bench] --cache PATH
        --scores DIR [--lexical] [--combine] [--write PATH] [--timing LEXICAL]
        [--read LEXICAL] [--before LEXICAL]
"""

from __future__ import annotations

import sys
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_lexical as lex  # noqa: E402  (round twelve's lexical view)
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_notes as notes  # noqa: E402  (examples and what a setting drops)
import fit_injection_round13 as r13  # noqa: E402  (the per-round lexical scores)
import fit_injection_round14 as r14  # noqa: E402  (setup, the logistic, read and timing)
import fit_injection_round15 as r15  # noqa: E402  (the network's per-round scores)
import fit_injection_round16 as r16  # noqa: E402  (the lexical fit and the shipped file)
import fit_injection_round17 as r17  # noqa: E402  (round seventeen's rounds and setting)
import fit_injection_round18 as r18  # noqa: E402  (the agent set and counts)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe, the list floor)
import fit_injection_round20 as r20  # noqa: E402  (the item view on the left-out rounds)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round22 as r22  # noqa: E402  (the reported view, grouping, passed)
import fit_injection_window as window  # noqa: E402  (the left-out rounds' order)
import injection_training20  # noqa: E402  (round twenty's rows)
import injection_training22  # noqa: E402  (round twenty-two's rows)

from engram.injection_detector import Detector  # noqa: E402
from engram.injection_lexical import Lexical  # noqa: E402

_FACTS = r21.facts()
#: The new rounds' rows (attacks counted as English orders to the reader).
NEW: dict[str, notes.Examples] = {
    "r20": notes.examples(
        {"addressed_to_reader": list(injection_training20.ATTACKS)},
        list(injection_training20.BENIGN),
    ),
    "r21": notes.examples({"addressed_to_reader": _FACTS["attacks_tune"]}, _FACTS["tune"]),
    "r22": notes.examples(
        {"addressed_to_reader": list(injection_training22.ATTACKS)},
        list(injection_training22.BENIGN),
    ),
}
dropped = r17.dropped
for _flag, _rows in NEW.items():
    dropped = notes.adding(dropped, _flag, _rows)

REFERENCE = r17.REFERENCE
_REF = {**r17.LEXICAL[REFERENCE], "r20": 0, "r21": 0, "r22": 0}
LEXICAL: dict[str, dict[str, float]] = {
    REFERENCE: _REF,
    f"{REFERENCE} + r20 + r21 + r22": {**_REF, "r20": 1, "r21": 1, "r22": 1},
    f"{REFERENCE} + r16 + r17 + r20 + r21 + r22": {
        **_REF,
        **{k: 1 for k in ("r16", "r17", "r20", "r21", "r22")},
    },
}
MODES = r16.MODES
PREFIX = "lex23"
#: What ``--write`` fits: (lexical setting, mode), chosen by the rule (the docstring); it
#: did not pass the ship rule, so ``engram/data`` keeps round twenty-two's file.
CHOSEN: tuple[str, str] | None = (
    f"{REFERENCE} + r16 + r17 + r20 + r21 + r22",
    "logistic r300, tight",
)
#: The shipped file's keys a refit keeps (the floors and views of rounds 18 to 22).
KEPT = [
    *("floor", "short", "list_floor", "list_words"),
    *("item_share", "item_network", "item_chars", "item_lines"),
    *("fact_floor", "fact_words", "fact_subject"),
    *("reported_coef", "reported_intercept", "reported_threshold", "reported_shape"),
]


def training(real_all: list[str]) -> mlp.Training:
    """Round seventeen's training data and rounds twenty's to twenty-two's rows
    (``dropped`` decides which a setting reads)."""
    t = r17.training(real_all)
    for rows in NEW.values():
        t = notes.with_examples(t, rows)
    return t


def group(text: str) -> int:
    """The left-out round (0 to 4) a new row leaves with: round twenty-two's by the piece
    it was composed from, round twenty's attacks by their payload, others by CRC-32."""
    if text in _T22:
        return r22.origin(text) % 5
    hit = [i for i, p in enumerate(injection_training20.PAYLOADS) if p.lower() in text.lower()]
    if hit and text in _T20:
        return hit[0] % 5
    return zlib.crc32(text.encode()) % 5


_T22 = set(injection_training22.ATTACKS) | set(injection_training22.BENIGN)
_T20 = set(injection_training20.ATTACKS)


def parts(
    new: dict[str, notes.Examples] | None = None, grouping: Callable[[str], int] | None = None
) -> dict[str, tuple[set[str], set[str]]]:
    """Per left-out round (``window.rounds()`` order), its group of the new rows (``new``
    by ``grouping``: this round's ``NEW`` by ``group`` unless a later round passes its
    own)."""
    grouping = grouping or group
    names = list(window.rounds())
    out: dict[str, tuple[set[str], set[str]]] = {n: (set(), set()) for n in names}
    for rows in (new or NEW).values():
        attacks, benign = rows()
        for text, _ in attacks:
            out[names[grouping(text)]][0].add(text)
        for text in benign:
            out[names[grouping(text)]][1].add(text)
    return out


def rounds() -> r15.Rounds:
    """Round seventeen's left-out rounds, each with its group of the new rows."""
    extra = parts()
    return {n: (a | extra[n][0], k | extra[n][1]) for n, (a, k) in r17.rounds().items()}


def newest() -> dict[str, set[str]]:
    """Per left-out round, the benign new rows of its group."""
    return {n: p[1] for n, p in parts().items()}


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> lex.Lexical:
    """The lexical setting ``name`` fitted as round seventeen's are."""
    return r16.lexical_model(t, name, out_a, out_n, {**r13.NETWORK, **LEXICAL[name]}, dropped)


def origins() -> dict[str, str]:
    """Per new row, the round it came from (``r20``, ``r21``, ``r22``)."""
    out: dict[str, str] = {}
    for flag, rows in NEW.items():
        attacks, benign = rows()
        out.update({a: flag for a, _ in attacks} | {b: flag for b in benign})
    return out


_PER: dict[str, Any] = {}


def network(data: mlp.Data, t: mlp.Training, out: Path) -> dict[str, Any]:
    """The left-out rounds' network scores (``r15.network_scores``), once per run."""
    if not _PER:
        _PER.update(r15.network_scores(data, t, out, r15.checked_rules(t), rounds(), newest()))
    return _PER


def left_out(
    data: mlp.Data, t: mlp.Training, out: Path, lname: str, mode: str, found: Detector
) -> dict[str, list[int]]:
    """Per origin (``old`` and the new rounds), catches and notes flagged on the left-out
    rounds: each round's lexical model and a logistic fitted on the other four, the
    shipped floors, item view and reported view of ``found`` on top."""
    per = network(data, t, out)
    lexs = r15._lexs(out, lname, per, PREFIX)
    weight = LEXICAL[lname]["benign_weight"]
    return counted(data, t, found, per, lexs, rounds(), weight, mode, origins(), list(NEW))


def counted(
    data: mlp.Data,
    t: mlp.Training,
    found: Detector,
    per: dict[str, Any],
    lexs: dict[str, Any],
    g: r15.Rounds,
    weight: float,
    mode: str,
    where: dict[str, str],
    origin: list[str],
) -> dict[str, list[int]]:
    """``left_out``'s count of the rounds ``g`` from their network scores ``per`` and
    lexical scores ``lexs`` (a later round passes its own), per origin in ``where``
    (``old`` for the rest; ``origin`` names the new rounds)."""
    lexical = found.lexical
    assert lexical is not None

    def vec(texts: list[str]) -> np.ndarray:
        return np.asarray(data.features(list(texts), 0.0)[:, : -mlp.N_CUES], np.float64)

    view = r22.view_reports(
        vec,
        lexical.reported_shape,
        np.asarray(lexical.reported_coef, np.float64),
        lexical.reported_intercept,
        lexical.reported_threshold,
    )

    admit = r21.admitter(found)

    def reported(texts: list[str]) -> np.ndarray:
        mine = np.array([x not in _T22 for x in texts], bool)
        return mine & view(np.zeros(len(texts)), texts) if mine.any() else mine

    counts: dict[str, list[int]] = {k: [0, 0] for k in ("old", *origin)}
    for name, p in per.items():
        stack, th = r14._cell(per, lexs, [o for o in per if o != name], weight, mode)
        test, left = mlp.left_out(t.attacks, *g[name])[:2]
        for texts, score, lex_score, rules, slot in (
            (test, p["st"], lexs[name][0], p["rules_t"], 0),
            (left, p["sl"], lexs[name][1], p["rules_n"], 1),
        ):
            hit = rules | ((stack.scores(score, lex_score) >= th) & admit(score, list(texts)))
            hit = r20.added(data, found, list(texts), hit | reported(list(texts)))
            for x, h in zip(texts, hit, strict=True):
                counts[where.get(x, "old")][slot] += int(h)
    return counts


def cell_file(data: mlp.Data, t: mlp.Training, out: Path, lname: str, mode: str) -> Path:
    """The cell's lexical file: the setting fitted on everything, the logistic on all
    five rounds' out-of-fold scores, the shipped file's floors and views."""
    path = out / f"cell23--{lname}--{mode}.npz"
    if path.exists():
        return path
    per = network(data, t, out)
    lexs = r15._lexs(out, lname, per, PREFIX)
    stack, th = r14._cell(per, lexs, list(per), LEXICAL[lname]["benign_weight"], mode)
    model = _everything.get(lname) or lexical_model(t, lname, set(), set())
    _everything[lname] = model
    save_cell(path, model, stack, th)
    return path


def save_cell(path: Path, model: Any, stack: Any, th: float) -> None:
    """A lexical file of ``model`` and the logistic ``stack`` at threshold ``th``, with
    the shipped file's floors and views (``KEPT``)."""
    with np.load(r16.SHIPPED_LEXICAL) as arrays:
        kept = {k: arrays[k] for k in KEPT}
    np.savez_compressed(
        path,
        coef=model.coef.astype(np.float16),
        intercept=np.float64(model.intercept),
        bits=np.int64(model.bits),
        stack=np.asarray(stack.model.coef_[0], np.float64),
        stack_intercept=np.float64(stack.model.intercept_[0]),
        threshold=np.float64(th),
        **kept,
    )


_everything: dict[str, Any] = {}


def checks(data: mlp.Data, real: list[str], found: Detector) -> str:
    """The real texts, the agent set's and both probes' ``check`` halves and attacks."""
    probe, lists, agent = r21.facts(), r19.lists(), r18.agent_halves()
    flagged = int((~r22.passed(data, found, real)).sum())
    pr, li = r18.counted(data, found, probe), r18.counted(data, found, lists)
    ag = r18.counted(data, found, {"check": agent["check"]}, True)
    return (
        f"real {flagged}; agent check {ag['check']} of {len(agent['check'])}; facts check "
        f"{pr['check']} of {len(probe['check'])} attacks "
        f"{pr['attacks_tune'] + pr['attacks_check']}; lists check {li['check']} of "
        f"{len(lists['check'])} attacks {li['attacks']}"
    )


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str) -> None:
    """Every cell's line, the reference's (and the shipped file's) first."""
    shipped = r14.with_lexical(str(r16.SHIPPED_LEXICAL))
    real = list(t.real_all)
    print(f"cell | shipped file: {checks(data, real, shipped)}", flush=True)
    for lname in LEXICAL:
        if only and lname not in only.split("|"):
            continue
        for mode in MODES:
            path = cell_file(data, t, out, lname, mode)
            found = r14.with_lexical(str(path))
            c = left_out(data, t, out, lname, mode, found)
            size = path.stat().st_size
            print(cell_line(lname, mode, path, size, c, checks(data, real, found)), flush=True)


def cell_line(
    name: str, mode: str, path: Path, size: int, c: dict[str, list[int]], checked: str
) -> str:
    """A grid cell's line: its threshold and size, the left-out catches (notes) summed and
    per origin ``c``, and the ``checks``."""
    total = sum(v[0] for v in c.values())
    notes_n = sum(v[1] for v in c.values())
    per = "; ".join(f"{k} {v[0]} ({v[1]})" for k, v in c.items())
    th = float(np.load(path)["threshold"])
    return (
        f"cell | {name} | {mode} (th {th:.4f}, {size} bytes): "
        f"left-out {total} ({notes_n}): {per}; {checked}"
    )


def write(path: Path, out: Path) -> None:
    """``CHOSEN``'s cell file copied to ``path``."""
    if CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN is None (the grid's rule chose nothing)")
    lname, mode = CHOSEN
    source = out / f"cell23--{lname}--{mode}.npz"
    path.write_bytes(source.read_bytes())
    with np.load(path) as arrays:
        Lexical.from_arrays(arrays)
    print(f"{path}: {path.stat().st_size} bytes, {lname}, {mode}")


def main() -> None:
    before = r18.pop_before()
    args, data, real_all, out = r14.setup(__doc__ or "", "round23")
    t = training(real_all)
    if args.lexical:
        r13.lexical_scores(t, out, args.only, LEXICAL, lexical_model, rounds(), PREFIX)
    r18.run(
        args,
        data,
        before,
        lambda: combine(data, t, out, args.only),
        lambda path: write(path, out),
    )


if __name__ == "__main__":
    main()
