"""Round twenty-four of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-four"): the network refitted with every round's training
rows, and the hand-written rounds' notes weighed more beside the composed rows, alone
and together, the views of rounds nineteen to twenty-two kept on top.

Why: round twenty-three refitted the word n-gram model and its logistic on every round's
rows and lost 13 catches on held-out 3 to 7; a likely cause is that the thousand-odd rows
of rounds twenty to twenty-two (lists, facts about the user and reported notes, composed
or probe rows) outweigh the hand-written rounds' few hundred notes. It left two levers
untried: (a) refitting the **network** (last fitted in round eleven, it never read any
row of rounds twelve on) with the new rows; (b) weighing the hand-written rounds' notes
more (x3) or the new rounds' rows less (x0.5). This round also adds its own training
rows (``scripts/injection_training24.py``: reported orders, passives and mild
concealment addressed to the assistant, and their benign look-alikes), read as round
``r24`` beside rounds twenty to twenty-two.

The harness is round twenty-three's: the five hand-written left-out rounds (four, five,
six, eight, nine, each with its fifths of rounds fifteen's to seventeen's examples), and
the new rows (rounds twenty, twenty-one, twenty-two and twenty-four) joined to them
**grouped** (``fit_injection_round23.group``: round twenty-two's rows by the piece they
were composed from, round twenty's attacks by their payload, the others by CRC-32), so
each row is scored by models that never read its group. Per cell, both models are
fitted once per left-out round; the logistic on their logits is fitted out of fold on
the other four rounds with its threshold bounded by their notes and checked real texts
(``logistic r300, tight`` and ``r30``). On top: the shipped list and fact floors, item
view and reported view (the reported view not on round twenty-two's own rows).

The network settings (``NETWORKS``): ``shipped`` (round eleven's fit per left-out round,
its scores of round thirteen's run; the rows it never read are scored by the shipped
file, as round twenty-three did), and round eleven's setting (256 units, notes x2, real
texts x3, 130 epochs, the fitted 0.9995 quantile) refitted with every round's rows (the
lexical choice of round twenty-three's flags, ``r13`` to ``r17``, ``r20`` to ``r22``,
and ``r24``): ``every round``, ``every round, hand x3`` (each note of the hand-written
rounds, every note outside rounds twenty to twenty-two and the benign agent set, weighs
3 times as much) and ``every round, new x0.5`` (each row of rounds twenty, twenty-one
and twenty-two, attacks and notes, weighs half). The lexical settings (``LEXICAL``): the
reference (the shipped ``notes x2 + r13 + r14 + r15``), and the same three weighings of
every round's rows. The cells (``CELLS``), each in ``r300`` and ``r30``:

- ``shipped`` / reference: the shipped detector refitted per round (**the reference**);
- ``shipped`` / ``every round``: round twenty-three's refit with round twenty-four's rows;
- ``shipped`` / ``every round, hand x3`` and ``... new x0.5``: lever (b) alone;
- ``every round`` / reference: lever (a) alone;
- ``every round`` / ``every round``: lever (a) with round twenty-three's refit;
- ``every round, hand x3`` / ``every round, hand x3`` and the same for ``new x0.5``:
  (a) and (b) together.

Each cell's files are both models fitted on everything (the network's input weights
rounded to float16 before its threshold is read, as shipped) with the logistic fitted on
all five rounds' out-of-fold scores, and every other key of the shipped lexical file
copied; they are read through the run-time code on the 8,288 real texts, the benign
agent set's ``check`` half (842), and the user-facts and lists probes' ``check`` halves.

The rule, fixed and committed before the grid runs: the most left-out catches summed
(the hand-written rounds' English attacks plus the new rows' attacks out of fold),
subject to
(a) the hand-written rounds' catches no lower than the reference's by more than 2 (the
    "left-out training rounds' catches" of the brief), and each of rounds twenty's,
    twenty-one's, twenty-two's and twenty-four's out-of-fold catches no lower than the
    reference's by more than 2;
(b) the left-out notes flagged (the hand-written rounds' and the new rows' out of fold)
    no more than the reference's;
(c) at most 2 of the 8,288 real texts, and at most 2 of the benign agent set's 842
    ``check`` writes;
(d) the user-facts probe's ``check`` half within 1% (2 of 207) and the lists probe's
    ``check`` half within 1% (2 of 212);
(e) the files at most 512 KB together, and a write's median within 0.2 ms of the shipped
    detector's (``--timing``, side by side, interleaved per text, after the choice).
Ties go to fewer left-out notes, then fewer real texts, then the shipped network before a
refit, then ``r300`` before ``r30``.

The ship rule, fixed before any held-out fold is read: the choice is read once, side by
side with the shipped detector on the same fp32 embeddings (``--read``), on held-out 2 to
20 (English catches per fold, overall, benign notes); it ships if no fold's English
catches are lower than the shipped detector's by more than 2, the English catches summed
over held-out 2 to 20 rise, and at most 2 of the 8,288 real texts are flagged.
Held-out 20's English figure is reported for both.

Ran (17:22-18:09 UTC, load 9 to 15; round twenty-three's cache and round thirteen's
per-round network scores copied to /tmp/inject24-work): the networks ``every round`` and
``every round, hand x3`` (six fits each, about 5 minutes a fit); ``every round, new
x0.5``'s network was **not fitted, for time**, so its two cells did not run. Each cell:
left-out catches (notes), the hand-written rounds' and the new rounds' out of fold
(attacks of r20 240, r21 31, r22 240, r24 44); real texts; agent, user-facts and lists
``check`` halves:

- the shipped files, read through the run-time code: real 1; agent 1; facts 2; lists 1.
- reference ``shipped / notes x2 + r13 + r14 + r15``, ``r300`` (th 0.9919): 895 (46): old
  538 (23), r20 210 (0), r21 31 (1), r22 101 (20), r24 15 (2); real 1; agent 0; facts 2;
  lists 1. ``r30``: 910 (51): old 544 (25), r20 212, r21 31, r22 108 (22), r24 15 (3).
- ``shipped / every round``: ``r300`` 921 (39): old 540 (25), r20 214, r21 31, r22 121
  (11), r24 15 (3); real 1; agent 2; facts 1; lists 0: within the rule. ``r30`` 899 (29):
  old 529: out by (a).
- ``shipped / every round, hand x3``: **``r300`` 929 (34): old 540 (20), r20 215 (0), r21
  31 (0), r22 128 (10), r24 15 (4); real 1; agent 2; facts 1; lists 0: within the rule,
  the most catches: chosen.** ``r30`` 907 (27): old 528: out by (a).
- ``shipped / every round, new x0.5``: ``r300`` 917 (37): old 538, r20 213, r22 121, r24
  14; real 1; agent 1; facts 1; lists 0: within. ``r30`` 903 (30): old 528: out by (a).
- ``every round / notes x2 + r13 + r14 + r15`` (lever a alone): ``r300`` 881 (33): old 525
  (18), r20 203, r22 107 (12): out by (a); ``r30`` 888 (36): old 527: out.
- ``every round / every round``: ``r300`` 935 (33): old 544 (20), r20 **203** (0), r21 31
  (1), r22 140 (10), r24 17 (2); real 1; agent 0: out by (a) (round twenty's 203 is 7
  under the reference's 210); ``r30`` 934 (32): the same, out.
- ``every round, hand x3 / every round, hand x3``: ``r300`` 883 (22): old 509 (13), r20
  203: out by (a); real 2. ``r30`` 881 (22): old 507: out.

The refitted network lowers the hand-written rounds' catches (525 to 509 against 538)
and round twenty's (203 against 210) while it flags far fewer notes (22 to 36 against
46). Files of the choice: 196,325 bytes (the shipped network) and 129,201 (lexical),
325,526 together. Timing (``--timing``, every eighth real text, 1,036, interleaved per
text, load about 14): median 0.321 -> 0.338 ms, mean 6.58 -> 7.52, p95 39.7 -> 40.9 ms:
within (e).

Read once (18:10, ``--read``, the same fp32 embeddings, the shipped files as before).
English catches shipped -> choice on held-out 2 to 20: 92 -> 92, 98 -> 96, **109 ->
101**, **96 -> 92**, **102 -> 98**, **110 -> 103**, 108 -> 107, 85 -> 83, **83 -> 80**,
**87 -> 84**, 79 -> 79, **95 -> 91**, 87 -> 85, **85 -> 82**, **86 -> 83**, 71 -> 71, 64
-> 63, 71 -> 69, and **held-out 20: 66 -> 66 of 80** (0.825 both; overall 70 -> 68 of 88;
notes 4 -> 3 of 50; rules alone 16 of 80, 17 of 88). Summed over held-out 2 to 20: 1,674
-> 1,625 English, 1,833 -> 1,764 overall, benign notes 68 -> 46. Real texts 1 -> 1
(``locomo/conv-41/D6:13`` -> ``beam/1/content``). **By the ship rule the choice does not
ship**: nine folds fall by more than 2 and the sum falls by 49. The shipped files stay
round twenty-two's; ``CHOSEN`` names the cell the rule chose.

    python scripts/fit_injection_round24.py [--data ../shared/bench] --cache PATH
        --scores DIR [--network NAME] [--lexical] [--combine] [--write DIR]
        [--timing DIR] [--read DIR]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit, examples)
import fit_injection_round13 as r13  # noqa: E402  (the network setting, lexical scores)
import fit_injection_round14 as r14  # noqa: E402  (setup, the logistic, read and timing)
import fit_injection_round15 as r15  # noqa: E402  (the shipped network's per-round scores)
import fit_injection_round16 as r16  # noqa: E402  (the lexical fit and the shipped file)
import fit_injection_round17 as r17  # noqa: E402  (round seventeen's left-out rounds)
import fit_injection_round23 as r23  # noqa: E402  (round twenty-three's rows and checks)
import fit_injection_window as window  # noqa: E402  (the left-out rounds, the file's arrays)
import injection_training24  # noqa: E402  (round twenty-four's rows)

from engram.injection_detector import Detector  # noqa: E402

#: The new rounds' rows: round twenty-three's and round twenty-four's.
NEW: dict[str, notes.Examples] = {
    **r23.NEW,
    "r24": notes.examples(injection_training24.ATTACKS, injection_training24.BENIGN),
}
dropped = notes.adding(r23.dropped, "r24", NEW["r24"])
#: The rounds whose rows ``new x0.5`` weighs half (the composed and probe rows).
HALVED = ("r20", "r21", "r22")

REFERENCE = r23.REFERENCE
_EVERY = {**r23.LEXICAL[f"{REFERENCE} + r16 + r17 + r20 + r21 + r22"], "r24": 1}
_WEIGHED = {
    "every round": _EVERY,
    "every round, hand x3": {**_EVERY, "hand": 3.0},
    "every round, new x0.5": {**_EVERY, "new": 0.5},
}
LEXICAL: dict[str, dict[str, float]] = {REFERENCE: {**r23.LEXICAL[REFERENCE], "r24": 0}}
LEXICAL.update(_WEIGHED)
#: The network settings: round eleven's, refitted with every round's rows.
NETWORKS: dict[str, dict[str, float]] = {
    name: {
        **r13.NETWORK,
        **{k: v for k, v in s.items() if k[1:].isdigit() or k in ("hand", "new")},
    }
    for name, s in _WEIGHED.items()
}
CELLS: list[tuple[str, str]] = [
    ("shipped", REFERENCE),
    ("shipped", "every round"),
    ("shipped", "every round, hand x3"),
    ("shipped", "every round, new x0.5"),
    ("every round", REFERENCE),
    ("every round", "every round"),
    ("every round, hand x3", "every round, hand x3"),
    ("every round, new x0.5", "every round, new x0.5"),
]
MODES = r16.MODES
PREFIX = "lex24"
#: What ``--write`` writes: (network, lexical setting, mode), chosen by the rule (the
#: docstring); it did not pass the ship rule, so ``engram/data`` keeps round twenty-two's.
CHOSEN: tuple[str, str, str] | None = ("shipped", "every round, hand x3", "logistic r300, tight")


def training(real_all: list[str]) -> mlp.Training:
    """Round twenty-three's training data and round twenty-four's rows."""
    return notes.with_examples(r23.training(real_all), NEW["r24"])


def parts() -> dict[str, tuple[set[str], set[str]]]:
    """Per left-out round (``window.rounds()`` order), its group of the new rows."""
    return r23.parts(NEW)


def rounds(extra: dict[str, tuple[set[str], set[str]]] | None = None) -> r15.Rounds:
    """Round seventeen's left-out rounds, each with its group of the new rows (``extra``:
    a later round's groups)."""
    extra = extra or parts()
    return {n: (a | extra[n][0], k | extra[n][1]) for n, (a, k) in r17.rounds().items()}


def origins(new: dict[str, notes.Examples] | None = None) -> dict[str, str]:
    """Per new row, the round it came from (``r20``, ``r21``, ``r22``, ``r24``; a later
    round passes its own ``new``)."""
    out: dict[str, str] = {}
    for flag, rows in (new or NEW).items():
        attacks, benign = rows()
        out.update({a: flag for a, _ in attacks} | {b: flag for b in benign})
    return out


@contextmanager
def weighed(t: mlp.Training, s: dict[str, float]) -> Iterator[None]:
    """``fit_injection_mlp.WEIGHTS`` set for setting ``s`` during one fit: ``hand`` times
    each hand-written round's note (every note outside ``HALVED`` and the agent set),
    ``new`` times each row of ``HALVED``."""
    where = origins()
    weights: dict[str, float] = {}
    if s.get("hand"):
        agent = set(t.agent)
        weights.update(
            {n: s["hand"] for n in t.notes if where.get(n) not in HALVED and n not in agent}
        )
    if s.get("new"):
        weights.update({x: s["new"] for x, flag in where.items() if flag in HALVED})
    mlp.WEIGHTS.clear()
    mlp.WEIGHTS.update(weights)
    try:
        yield
    finally:
        mlp.WEIGHTS.clear()


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> Any:
    """The lexical setting ``name`` fitted as round seventeen's are, with its weights."""
    s = {**r13.NETWORK, **LEXICAL[name]}
    with weighed(t, s):
        return r16.lexical_model(t, name, out_a, out_n, s, dropped)


@dataclass(frozen=True)
class Harness:
    """What this round's grid functions read, so a later round can pass its own: the
    network and lexical settings, what a setting leaves out, the left-out rounds and
    their groups of the new rows, the weights of one fit, the lexical fit, and the tag
    its files carry (``net24--``, ``lex24--``, ``cell24--``)."""

    networks: dict[str, dict[str, float]]
    lexical: dict[str, dict[str, float]]
    drop: notes.Drop
    groups: Callable[[], r15.Rounds]
    partition: Callable[[], dict[str, tuple[set[str], set[str]]]]
    weigh: Callable[[mlp.Training, dict[str, float]], AbstractContextManager[None]]
    fit: Callable[[mlp.Training, str, set[str], set[str]], Any]
    tag: str


HARNESS = Harness(NETWORKS, LEXICAL, dropped, rounds, parts, weighed, lexical_model, "24")


def network_fits(
    data: mlp.Data, t: mlp.Training, out: Path, only: str, h: Harness = HARNESS, at: str = ""
) -> None:
    """Per refitted network setting (``only``: those named), its fit per left-out round
    (``at``: those named; scores of the round's attacks, notes and the checked real
    texts, and its threshold) and on everything (written as ``injection_detector.npz``
    is), kept in ``out``."""
    real = [t.real_all[i] for i in t.fitted]
    i = r13.EPOCH_INDEX
    with np.load(r13.SHIPPED) as shipped:
        embedder = str(shipped["embedder"])
    for nname, s in h.networks.items():
        if only and nname not in only.split("|"):
            continue
        drop_a, drop_n = h.drop(s)
        for name, (out_a, out_n) in [*h.groups().items(), ("everything", (set(), set()))]:
            path = out / f"net{h.tag}--{nname}--{name}.npz"
            if path.exists() or (at and name not in at.split("|")):
                continue
            test, left, _, _ = mlp.left_out(t.attacks, out_a, out_n)
            with h.weigh(t, s):
                fit = notes.Fit(
                    data,
                    s,
                    [a for a, _ in t.attacks if a not in drop_a | out_a],
                    real,
                    [n for n in t.notes if n not in drop_n | out_n] + t.agent,
                    t.real_all,
                )
            if name == "everything":
                window.rounded(fit, i)
                th = fit.threshold(*r13.NET_THRESHOLD, i)
                arrays = window.shipped_arrays(fit, embedder, i, th)
                np.savez_compressed(network_path(nname, out, h.tag), **arrays)  # type: ignore[arg-type]
                np.savez(path, th=th)
            else:
                th = fit.threshold(*r13.NET_THRESHOLD, i)
                st, sl = fit.scores(test, 0)[i], fit.scores(left, 0)[i]
                sr = fit.scores(r13.checked(t), 0)[i]
                np.savez(path, st=st, sl=sl, sr=sr, th=th)
            print(f"network {nname} | {name}: th {th:.4f}", flush=True)


_PER: dict[str, dict[str, Any]] = {}


def network(
    data: mlp.Data, t: mlp.Training, out: Path, nname: str, h: Harness = HARNESS
) -> dict[str, Any]:
    """The left-out rounds' network scores of setting ``nname`` (``shipped``: round
    fifteen's reading of round thirteen's per-round fits), once per run."""
    key = f"{h.tag}/{nname}"
    if key in _PER:
        return _PER[key]
    rules = r15.checked_rules(t)
    newest = {n: p[1] for n, p in h.partition().items()}
    if nname == "shipped":
        _PER[key] = r15.network_scores(data, t, out, rules, h.groups(), newest)
        return _PER[key]
    per: dict[str, Any] = {}
    for name, (out_a, out_n) in h.groups().items():
        test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_a, out_n)
        got = dict(np.load(out / f"net{h.tag}--{nname}--{name}.npz"))
        fresh = np.array([x in newest[name] for x in left])
        per[name] = r15.round_scores(got, fresh, rules_t, rules_n, rules)
    _PER[key] = per
    return per


def network_path(nname: str, out: Path, tag: str = "24") -> Path:
    """The network file of setting ``nname``."""
    return r13.SHIPPED if nname == "shipped" else out / f"net{tag}--{nname}.npz"


def detector(network_file: Path, lexical_file: str) -> Detector:
    """The run-time detector of a network file and a lexical file."""
    from dataclasses import replace

    from engram.injection_lexical import Lexical

    net = replace(Detector.from_arrays(dict(np.load(network_file))), lexical=None)
    with np.load(lexical_file) as arrays:
        return replace(net, lexical=Lexical.from_arrays(arrays))


def left_out(
    data: mlp.Data, t: mlp.Training, out: Path, cell: tuple[str, str], mode: str, found: Detector
) -> dict[str, list[int]]:
    """Per origin (``old`` and the new rounds), catches and notes flagged on the left-out
    rounds: each round's two models and a logistic fitted on the other four, the shipped
    floors, item view and reported view of ``found`` on top."""
    nname, lname = cell
    per = network(data, t, out, nname)
    lexs = r15._lexs(out, lname, per, PREFIX)
    weight = LEXICAL[lname]["benign_weight"]
    return r23.counted(data, t, found, per, lexs, rounds(), weight, mode, origins(), list(NEW))


def cell_file(
    data: mlp.Data,
    t: mlp.Training,
    out: Path,
    cell: tuple[str, str],
    mode: str,
    h: Harness = HARNESS,
) -> Path:
    """The cell's lexical file: the setting fitted on everything, the logistic on all
    five rounds' out-of-fold scores, the shipped file's floors and views."""
    nname, lname = cell
    path = out / f"cell{h.tag}--{nname}--{lname}--{mode}.npz"
    if path.exists():
        return path
    per = network(data, t, out, nname, h)
    lexs = r15._lexs(out, lname, per, f"lex{h.tag}")
    stack, th = r14._cell(per, lexs, list(per), h.lexical[lname]["benign_weight"], mode)
    key = f"{h.tag}/{lname}"
    model = _everything.get(key) or h.fit(t, lname, set(), set())
    _everything[key] = model
    r23.save_cell(path, model, stack, th)
    return path


_everything: dict[str, Any] = {}


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str) -> None:
    """Every cell's line, the shipped files' first."""
    shipped = detector(r13.SHIPPED, str(r16.SHIPPED_LEXICAL))
    real = list(t.real_all)
    print(f"cell | shipped files: {r23.checks(data, real, shipped)}", flush=True)
    for cell in CELLS:
        if only and " / ".join(cell) not in only.split("|"):
            continue
        for mode in MODES:
            path = cell_file(data, t, out, cell, mode)
            net_file = network_path(cell[0], out)
            found = detector(net_file, str(path))
            c = left_out(data, t, out, cell, mode, found)
            size = path.stat().st_size + net_file.stat().st_size
            checked = r23.checks(data, real, found)
            print(r23.cell_line(" / ".join(cell), mode, path, size, c, checked), flush=True)


def write(
    path: Path, out: Path, chosen: tuple[str, str, str] | None = CHOSEN, tag: str = "24"
) -> None:
    """``chosen``'s two files (``CHOSEN`` unless a later round passes its own) copied into
    the folder ``path``."""
    if chosen is None:
        raise SystemExit("no cell chosen: CHOSEN is None (the grid's rule chose nothing)")
    nname, lname, mode = chosen
    path.mkdir(parents=True, exist_ok=True)
    lexical = out / f"cell{tag}--{nname}--{lname}--{mode}.npz"
    (path / "injection_lexical.npz").write_bytes(lexical.read_bytes())
    (path / "injection_detector.npz").write_bytes(network_path(nname, out, tag).read_bytes())
    detector(path / "injection_detector.npz", str(path / "injection_lexical.npz"))
    for f in sorted(path.glob("injection_*.npz")):
        print(f"{f}: {f.stat().st_size} bytes ({nname} / {lname}, {mode})")


def files(folder: str) -> Detector:
    """The detector of a folder holding ``injection_detector.npz`` and
    ``injection_lexical.npz`` (the shipped ones when ``folder`` is empty)."""
    if not folder:
        return detector(r13.SHIPPED, str(r16.SHIPPED_LEXICAL))
    return detector(
        Path(folder) / "injection_detector.npz", str(Path(folder) / "injection_lexical.npz")
    )


def timing(data: mlp.Data, real_all: list[str], after: str, before: str) -> None:
    """Round fourteen's ``timing`` with both files of each side (folders)."""

    interleaved(data, real_all, files(before), files(after))


def interleaved(data: mlp.Data, real_all: list[str], old: Detector, new: Detector) -> None:
    """A write's time with ``old`` (``shipped``) and ``new`` (``candidate``) on every eighth
    real text, one at a time, interleaved per text (which goes first alternating), the
    write's own vector not timed: median, mean and p95 in ms."""
    import time

    from engram.safety import scan

    texts = real_all[::8]
    vectors = data.features(texts, 0.0)[:, : -mlp.N_CUES]
    took: dict[str, list[float]] = {"shipped": [], "candidate": []}
    for n, (text, vector) in enumerate(zip(texts, vectors, strict=True)):
        order = [("shipped", old), ("candidate", new)]
        for name, found in order if n % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            if not scan(text):
                found.reasons(vector[None, :], [text])
            took[name].append(1000 * (time.perf_counter() - start))
    mlp.report_timings(took, 3)


def read(data: mlp.Data, real_all: list[tuple[str, str]], after: str, before: str) -> None:
    """Every fold read once: the rules, the shipped files (``before``) and the candidate
    (``after``; none when empty: no cell met the rule), side by side on the same cached
    embeddings (round fourteen's ``read`` with both files of each side)."""
    r14.read(data, real_all, after, before, files)


def popped(flag: str) -> str:
    """``flag VALUE`` taken off the command line (before the parser reads it): the value,
    or "" when the flag is absent."""
    if flag not in sys.argv:
        return ""
    at = sys.argv.index(flag)
    value = sys.argv.pop(at + 1)
    sys.argv.pop(at)
    return value


def main() -> None:
    from engram.bench.injection import real_texts

    before, network_only = popped("--before"), popped("--network")
    args, data, real_all, out = r14.setup(__doc__ or "", "round24")
    t = training(real_all)
    if network_only:
        network_fits(data, t, out, "" if network_only == "all" else network_only)
    if args.lexical:
        r13.lexical_scores(t, out, args.only, LEXICAL, lexical_model, rounds(), PREFIX)
    if args.combine:
        combine(data, t, out, args.only)
    if args.timing:
        timing(data, real_all, args.timing, before)
    if args.write:
        write(Path(args.write), out)
    if args.read is not None:
        read(data, real_texts(args.data), args.read, before)


if __name__ == "__main__":
    main()
