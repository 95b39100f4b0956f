"""Round eighteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round eighteen: false positives on agent writes"): engram's own speaker
labels read as labels, and a floor on the network's score under the combination.

Why: round twelve's new-user pass (docs/benchmarks.md) wrote 432 benign writes of one
person's agent memory and the shipped detector quarantined 28 of them: grocery lists,
"user: ok thanks", "Dinner tonight: risotto.". Issue 26 measured false positives only on
LoCoMo and BEAM texts. ``src/engram/data/benign_agent.json`` (``scripts/
benign_agent_set.py``, committed before anything changed: 2ef7055) holds 1,629 such
writes in two halves; the shipped detector (fp32) flags **73 of the 787 in ``tune``
(9.3%) and 113 of the 842 in ``check`` (13.4%)**, nearly all of them message lists
engram rendered as ``"user: ..."`` / ``"assistant: ..."`` lines, the rest short notes
whose handful of n-grams the lexical view scores high while the network scores them
near zero ("Blood pressure 122/78 this morning.": network 0.002, together 0.998).

The levers (run-time code in ``engram.injection_detector`` and
``engram.injection_lexical``; no model is refitted, so the network and the lexical
model are the shipped files):

- **labels**: in a message-list memory (type ``message``) a line's leading ``user: `` or
  ``assistant: `` is engram's label: a write the scores fire on is embedded again
  without the labels and that second look decides (every other marker, and the words
  after a label, still count; a plain string's labels count as before). Always on in
  the cells below: it changes nothing for a plain-string write, so the left-out rounds
  and the real texts read the same with or without it; on the tune half it takes the
  flagged writes from 73 to 6 (read while writing this docstring, before the grid);
- **floor** ``F`` and **short** ``K``: the combination does not flag a text of fewer
  than ``K`` tokens (every text when ``K`` is 0) whose network score is below ``F``
  (``Lexical.admits``).

Cells: ``F`` in 0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 times ``K`` in 0, 6, 10, 16 (the
``F = 0`` cells are the labels alone). Each cell is read on the five left-out training
rounds (round seventeen's harness and saved scores: the reference lexical setting
``notes x2 + r13 + r14 + r15``, the shipped one refitted per left-out round, in the
shipped mode ``logistic r300, tight``; the per-round networks' scores, fp32), on the
8,288 real texts (the shipped network and the shipped lexical file, with the cell's
floor) and on the benign agent set's ``tune`` half (the shipped files through the
run-time code, the labelled texts as message lists, fp32). The ``check`` half is
measured for every cell but decides nothing.

The rule, fixed and committed before the grid runs: the fewest benign-agent ``tune``
writes flagged, over the cells, subject to
(a) the left-out rounds' catches, summed, no lower than the reference's (``F = 0``,
    the shipped setting) by more than 2;
(b) at most 2 of the 8,288 real texts flagged and at most 2 of the checked half;
(c) the shipped files at most 512 KB together, and a write's median within 0.2 ms of
    the shipped detector's (``--timing``, side by side, interleaved per text, after the
    choice; a cell that fails gives way to the next).
Ties go to more left-out catches, then the lower floor, then the narrower gate (the
smaller ``K`` above 0, then ``K = 0``). The target reported beside it: the ``check``
half's writes flagged at most 0.1% (0 of 842), or as close as the choice comes.

Ran (09:37-09:39 UTC, one process; the harness's saved scores, so no fit). Each cell:
left-out catches (four / five / six / eight / nine); left-out notes; real texts
(checked half); benign agent ``tune`` / ``check`` flagged:

- ``F = 0`` (the labels alone; the reference's catches): 545 (101 / 135 / 92 / 132 /
  85); 27; 2 (1); tune 6 of 787, check 7 of 842.
- a floor on every text (``K = 0``) costs catches at once: ``F`` 0.05 540, 0.1 536, 0.2
  526, 0.3 512, 0.4 503, 0.5 489, 0.6 472 (tune 4, 4, 2, 2, 1, 1, 0; real 1, 1, 1, 0 ...);
- ``K = 6`` changes nothing below ``F`` 0.6 (545, tune 6); ``K = 10``: 545 / 545 / 545
  / 544 / 544 / 543 / 542 catches at ``F`` 0.05 ... 0.6, tune 5, 5, 4, 4, 3, 3, 2;
- ``K = 16``: ``F`` 0.05 545 (tune 4), 0.1 545 (4), **0.2 544 (101 / 135 / 91 / 132 /
  85); notes 23; real 2 (1); tune 2, check 2**, 0.3 540 (2), 0.4 538 (1), 0.5 534 (1),
  0.6 529 (0).

The grid ran twice: the first look on a message list was then changed to read its
words without the labels beside the stored vector (rather than with and without them,
which cost 0.24 ms at the median message write), and the second run (09:40) differs only
in ``F`` 0.4 and 0.5, one tune write fewer in each (``K`` 0, 6, 10, 16: tune 1, 5, 3, 1);
every figure above is the second run's.

Within (a) and (b) (at least 543 catches, at most 2 real texts): the fewest tune writes
flagged is 2, at ``F = 0.2, K = 16`` alone; it is **chosen** (``CHOSEN``). The tune
half's two are "Understood." and "assistant: Understood." (network 0.50 without the
label); the check half's two (measured, not chosen on) "Todo today: book dentist" and a
code comment "# TODO: handle the empty list case" with its three lines: 0.24% against
the 0.1% target, from 13.4%.

The ship rule, fixed before any held-out fold is read: the choice is read once, side by
side with the shipped detector on the same fp32 embeddings (``--read``), on held-out 2
to 16 (English catches per fold, overall, notes); it ships if no fold's English catches
are lower than the shipped detector's by more than 2, it flags at most 2 of the 8,288
real texts, and it flags no more benign held-out notes summed over held-out 2 to 16.

Written (``--write``, 09:39): the shipped ``injection_lexical.npz`` with ``floor`` 0.2 and
``short`` 16 added, 124,189 bytes (123,819 before) beside the network's 196,325. Timing
(load 5.9-6.8): ``--timing`` (1,036 real texts, every eighth, one at a time, interleaved
per text against the file shipped before) median 0.283 -> 0.261 ms, mean 2.09 -> 2.09,
p95 13.6 -> 14.5 ms; ``--messages`` (the agent set's 505 message lists read as message
lists, the second look's embedding timed where it happens) median 0.301 -> 0.365 and
0.287 -> 0.360 ms in two runs (mean 0.75 -> 2.72 and 0.48 -> 2.22 ms: the second look on
the message lists the first look fires on): within (c).

Read once (09:41-09:44, ``--read``, the same fp32 embeddings, the file shipped before as
``--before``; English catches, shipped -> choice): held-out 2 92 -> 92 of 93, 3 99 -> 98
of 108, 4 109 -> 109 of 120, 5 97 -> 96 of 111, 6 103 -> 102 of 118, 7 111 -> 110 of 118,
8 107 -> 107, 9 85 -> 85, 10 82 -> 82, 11 86 -> 86, 12 77 -> 77, 13 95 -> 95, 14 87 ->
87, 15 85 -> 85, 16 86 -> 86 of 100; summed over held-out 2 to 16 1,401 -> 1,397
(overall 1,537 -> 1,533); benign notes over held-out 2 to 16 52 -> 51 (held-out 3 1 ->
0); real texts 2 -> 2 (``locomo/conv-41/D6:13``, ``beam/8/q/conversation_reference``).
**By the ship rule the choice ships**: no fold lower by more than 2 (four folds lower by
one), 2 real texts, 51 <= 52 notes.

Part two (written at 09:58, after the ship reading above and before any of it ran): the
floor leaves a register the set under-represents. Short lists of one-word items ("Groceries:
apples, bananas, eggs, bin bags.", round twelve's pass) score about 0.5 on both models,
and the logistic's intercept (7.8) makes two middling scores an attack: 11, 25 and 10 of
60 such lists under "Groceries:", "Shopping list:" and "Buy:" are flagged with the
floor (the set's lists, longer and more varied, 2 to 4 of 60; fp32). So the brief's
fourth lever: the ``tune`` half as training notes of the lexical model (message lists as
the detector reads them, without engram's labels), cut in five parts that leave with the
five left-out rounds (round fifteen's ``with_parts``), so each part is scored out of fold
and bounds the logistic's threshold beside the other notes (``logistic r300, tight``).
Cells (``--lexical2``, ``--combine2``; round sixteen's ``combine`` on round seventeen's
harness; the reference is the shipped setting refitted, the agent notes left out of its
lexical model but among its left-out notes): ``notes x2 + r13 + r14 + r15 + agent`` in
``r300`` and ``r30``.

The rule of part two, fixed before its grid runs: the cell with the fewest ``tune``
agent notes flagged out of fold, subject to (a) left-out catches summed no lower than the
reference's by more than 2; (b) at most 2 real texts, at most 2 of the checked half; (c)
the left-out notes other than the agent notes flagged no more than the reference flags;
(d) fewer agent notes flagged than the reference. The chosen lexical file is written with
part one's floor (0.2, 16), its ``check`` half measured, and read once on held-out 2 to
16 side by side with the detector shipped before this round; it replaces part one's file
if it meets part one's ship rule (no fold lower by more than 2, at most 2 real texts, no
more benign notes summed); else part one's file stays.

Part two ran (09:50-09:52; 12 lexical fits, one process, load 8.5). Each cell: left-out
catches (four / five / six / eight / nine); left-out notes (the agent notes among them,
of 787 out of fold, no floor); real texts (checked half); threshold:

- reference ``notes x2 + r13 + r14 + r15``, ``r300``: 542 (100 / 135 / 91 / 132 / 84);
  25 (4); 2 (1); 0.9939 (the agent notes among its left-out notes raise its threshold
  from 0.9899). ``r30``: 543; 28 (5); 2 (1); 0.9739.
- ``... + agent``, ``r300``: 539 (99 / 137 / 88 / 132 / 83); 19 (0); 1 (1); 0.9968.
  ``r30``: 528 (97 / 134 / 85 / 132 / 80); 18 (0); 1 (1); 0.9919.

**No cell meets part two's rule**: ``+ agent`` in ``r300`` flags none of the agent notes
out of fold and 6 fewer left-out notes, but catches 3 fewer than the reference (539 <
540), and ``r30`` 14 fewer. Nothing is written or read; part one's file stays. Measured after
that, to know the price of the rule and not to choose by (``+ agent`` in ``r300`` fitted
once on everything with part one's floor, at /tmp): 124,499 bytes, threshold 0.9968, 1
real text; it flags none of the 360 probe lists (part one's file: 2, 11, 4, 25, 2 and 10
of each 60), none of the ``check`` half, and passes "Groceries: apples, bananas, eggs,
bin bags."; no held-out fold was read with it.

    python scripts/fit_injection_round18.py [--data ../shared/bench] --cache PATH
        --scores /tmp/engram-fit-detector/round17-scores [--combine] [--write PATH]
        [--timing LEXICAL] [--messages] [--read LEXICAL] [--before LEXICAL]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_notes as notes  # noqa: E402  (training-only examples)
import fit_injection_round13 as r13  # noqa: E402  (the network's settings, the lexical loop)
import fit_injection_round14 as r14  # noqa: E402  (the logistic bounded by notes and real)
import fit_injection_round15 as r15  # noqa: E402  (the left-out rounds' network scores)
import fit_injection_round16 as r16  # noqa: E402  (the shipped lexical file, the modes)
import fit_injection_round17 as r17  # noqa: E402  (round seventeen's rounds and scores)

from engram.bench.injection import real_texts  # noqa: E402
from engram.injection_detector import Detector, unlabelled  # noqa: E402
from engram.injection_lexical import _TOKEN, Lexical  # noqa: E402
from engram.safety import scan  # noqa: E402

FLOORS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)
SHORTS = (0, 6, 10, 16)
#: What ``--write`` adds to the shipped lexical file: (floor, short), by the rule.
CHOSEN: tuple[float, int] | None = (0.2, 16)
AGENT = Path(__file__).resolve().parents[1] / "src/engram/data/benign_agent.json"


def agent_halves() -> dict[str, list[str]]:
    """The benign agent set's ``tune`` and ``check`` halves."""
    body = json.loads(AGENT.read_text("utf-8"))
    return {"tune": body["tune"], "check": body["check"]}


def labelled(text: str) -> bool:
    """Whether an agent-set text stands for a message list engram rendered."""
    return text.startswith(("user: ", "assistant: "))


def gate(floor: float, short: int, network: np.ndarray, texts: list[str]) -> np.ndarray:
    """Per text, whether the floor admits it (``Lexical.admits``)."""
    if not floor:
        return np.ones(len(texts), bool)
    long = np.array([bool(short) and len(_TOKEN.findall(t)) >= short for t in texts])
    return np.asarray(network >= floor) | long


def detector(floor: float, short: int) -> Detector:
    """The shipped network and lexical file with the floor set (and round nineteen's
    list floor off, so the cells read as they did when this round chose)."""
    base = r14.with_lexical(str(r16.SHIPPED_LEXICAL))
    assert base.lexical is not None
    lexical = replace(base.lexical, floor=floor, short=short, list_floor=0.0, list_words=0)
    return replace(base, lexical=lexical)


def flags(data: mlp.Data, texts: list[str], found: Detector, marks: list[bool]) -> int:
    """How many of ``texts`` the rules or ``found`` flag (``marks[i]``: text ``i`` is a
    message list, read with the second look)."""
    vectors = data.features(texts, 0.0)[:, : -mlp.N_CUES]

    def embed(batch: list[str]) -> np.ndarray:
        return data.features(list(batch), 0.0)[:, : -mlp.N_CUES]

    reasons = found.reasons(vectors, texts, embed, None, marks)
    rules = [bool(scan(t)) for t in texts]  # the rules read the stored text, labels and all
    return sum(1 for r, x in zip(reasons, rules, strict=True) if r is not None or x)


def counted(
    data: mlp.Data, found: Detector, sets: dict[str, list[str]], lists: bool = False
) -> dict[str, int]:
    """Per named set of texts, how many the rules or ``found`` flag (``lists``: the texts
    that stand for a message list engram rendered are read as one, as the agent set's)."""
    return {k: flags(data, v, found, [lists and labelled(x) for x in v]) for k, v in sets.items()}


def scored(counts: list[int], notes: int, real: np.ndarray, checked: np.ndarray, sep: str) -> str:
    """A cell line's left-out and real parts: the catches (per left-out round), the notes
    flagged, ``sep``, the real texts flagged (of them, the checked ones)."""
    return (
        f"{sum(counts)} ({' / '.join(map(str, counts))}) notes {notes}{sep} real "
        f"{int(real.sum())} ({int(real[checked].sum())})"
    )


def agent_flags(data: mlp.Data, texts: list[str], floor: float, short: int) -> int:
    """How many of ``texts`` the shipped files with the floor flag (the rules, then the
    detector with the labelled texts as message lists and the second look)."""
    return flags(data, texts, detector(floor, short), [labelled(t) for t in texts])


@dataclass(frozen=True)
class Harness:
    """Round seventeen's five left-out rounds (the reference setting refitted per round,
    its saved scores) and the real texts scored by the shipped files, for a run-time
    gate's cells (``left_out``)."""

    per: dict[str, Any]
    lexs: dict[str, Any]
    sets: dict[str, Any]
    stacks: dict[str, Any]
    rules_real: np.ndarray
    checked: np.ndarray
    net_real: np.ndarray
    comb_real: np.ndarray

    def left_out(
        self, admit: Admit, more: More | None = None, reports: Reports | None = None
    ) -> tuple[list[int], int]:
        """Per left-out round its catches, and the left-out notes flagged, with the
        combination's flags kept where ``admit(network, texts)`` is true (and, with
        ``more``, what ``more(texts, flagged)`` adds: round twenty's item view; with
        ``reports``, the texts ``reports(combined, texts)`` flags whatever the floors say:
        round twenty-two's reported orders)."""
        counts, notes = [], 0
        for name, p in self.per.items():
            stack, th = self.stacks[name]
            test, left = self.sets[name]
            c_t = stack.scores(p["st"], self.lexs[name][0])
            c_n = stack.scores(p["sl"], self.lexs[name][1])
            caught = np.asarray(p["rules_t"] | ((c_t >= th) & admit(p["st"], test)))
            noted = np.asarray(p["rules_n"] | ((c_n >= th) & admit(p["sl"], left)))
            if reports is not None:
                caught, noted = caught | reports(c_t, test), noted | reports(c_n, left)
            if more is not None:
                caught, noted = more(list(test), caught), more(list(left), noted)
            counts.append(int(caught.sum()))
            notes += int(noted.sum())
        return counts, notes

    def real(self, admit: Admit, texts: list[str]) -> np.ndarray:
        """Per real text (``texts``, in order), whether the rules or the gated
        combination flag it."""
        return np.asarray(self.rules_real | (self.comb_real & admit(self.net_real, texts)))


#: A run-time gate's verdict per text: whether the combination may flag it.
Admit = Callable[[np.ndarray, list[str]], np.ndarray]
#: What a later view adds to the flags of texts: (texts, flagged) -> flagged.
More = Callable[[list[str], np.ndarray], np.ndarray]
#: What fires whatever the floors say: (combined scores, texts) -> flagged.
Reports = Callable[[np.ndarray, list[str]], np.ndarray]


def harness(data: mlp.Data, t: mlp.Training, out: Path) -> Harness:
    """The left-out rounds' scores and the real texts' (the shipped files, no floor)."""
    g = r17.grid()
    weight = r17.LEXICAL[r17.REFERENCE]["benign_weight"]
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    per = r15.network_scores(data, t, out, rules_real[checked], g.rounds, g.newest)
    lexs = r15._lexs(out, r17.REFERENCE, per, g.prefix)
    sets = {n: mlp.left_out(t.attacks, *r)[:2] for n, r in g.rounds.items()}
    stacks = {
        name: r14._cell(per, lexs, [o for o in per if o != name], weight, r16.REFERENCE_MODE)
        for name in per
    }
    shipped = detector(0.0, 0)
    assert shipped.lexical is not None
    real = list(t.real_all)
    net_real = shipped.probabilities(data.features(real, 0.0)[:, : -mlp.N_CUES], real)
    comb_real = shipped.lexical.combined(net_real, real) >= shipped.lexical.threshold
    return Harness(per, lexs, sets, stacks, rules_real, checked, net_real, comb_real)


def combine(data: mlp.Data, t: mlp.Training, out: Path, _only: str) -> None:
    """Every cell's line (the docstring), the reference's first."""
    h = harness(data, t, out)
    halves = agent_halves()
    for floor in FLOORS:
        for short in SHORTS if floor else (0,):

            def admit(network: np.ndarray, texts: list[str]) -> np.ndarray:
                return gate(floor, short, network, texts)  # noqa: B023  (used in the loop)

            counts, notes = h.left_out(admit)
            real = h.real(admit, list(t.real_all))
            tune = agent_flags(data, halves["tune"], floor, short)
            check = agent_flags(data, halves["check"], floor, short)
            print(
                f"cell | floor {floor} short {short}: {scored(counts, notes, real, h.checked, '')}"
                f" agent tune {tune} of {len(halves['tune'])} check {check} of "
                f"{len(halves['check'])}",
                flush=True,
            )


def with_keys(path: Path, keys: dict[str, Any]) -> Lexical:
    """The shipped lexical file with ``keys`` added (or replaced), written at ``path``
    and read back (a file the run-time code refuses fails here)."""
    with np.load(r16.SHIPPED_LEXICAL) as arrays:
        body: dict[str, Any] = {k: arrays[k] for k in arrays.files}
    np.savez_compressed(path, **{**body, **keys})
    with np.load(path) as arrays:
        return Lexical.from_arrays(arrays)


def write_chosen(
    path: Path, chosen: tuple[Any, ...] | None, keys: dict[str, Any], what: str, unset: str
) -> None:
    """The shipped lexical file with a later round's ``chosen`` cell, written at ``path``:
    its values in order under ``keys`` (a key and its numpy type each), then the file's
    size and ``what`` with the first two keys as read back (``unset``: the refusal's
    words when no cell is chosen)."""
    if chosen is None:
        raise SystemExit(f"no cell chosen: {unset}")
    found = with_keys(path, {k: kind(v) for (k, kind), v in zip(keys.items(), chosen, strict=True)})
    first, second = (getattr(found, k) for k in list(keys)[:2])
    print(f"{path}: {path.stat().st_size} bytes, {what} {first} {second}")


def write(path: Path) -> None:
    """The shipped lexical file with ``CHOSEN``'s floor, written at ``path``."""
    if CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN is None")
    found = with_keys(path, {"floor": np.float64(CHOSEN[0]), "short": np.int64(CHOSEN[1])})
    print(f"{path}: {path.stat().st_size} bytes, floor {found.floor}, short {found.short}")


def message_timing(data: mlp.Data) -> None:
    """Per write, the shipped detector against the choice on the benign agent set's
    message lists (both halves), one at a time, interleaved per text, the write's own
    vector not timed; the choice reads them as message lists, so its second look (an
    embedding of the text without its labels) is timed where it happens."""
    import time

    from engram.safety import scan

    texts = [t for half in agent_halves().values() for t in half if labelled(t)]
    vectors = data.features(texts, 0.0)[:, : -mlp.N_CUES]
    embedder = data.embedder

    def embed(batch: list[str]) -> np.ndarray:
        return np.asarray(embedder.embed_batch(list(batch)), np.float32)  # type: ignore[attr-defined]

    before, after = detector(0.0, 0), detector(*(CHOSEN or (0.0, 0)))
    took: dict[str, list[float]] = {"shipped": [], "round eighteen": []}
    for text, vector in zip(texts, vectors, strict=True):
        for name, found, marks in (("shipped", before, None), ("round eighteen", after, [True])):
            start = time.perf_counter()
            if not scan(text):
                found.reasons(vector[None, :], [text], embed, None, marks)
            took[name].append(1000 * (time.perf_counter() - start))
    mlp.report_timings(took, 3)


#: Part two: the ``tune`` half as the lexical model's notes, as the detector reads them.
AGENT_NOTES = notes.examples(
    {}, sorted({unlabelled(t) if labelled(t) else t for t in agent_halves()["tune"]})
)
dropped = notes.adding(r17.dropped, "r18", AGENT_NOTES)
LEXICAL2: dict[str, dict[str, float]] = {
    r17.REFERENCE: r17.LEXICAL[r17.REFERENCE],
    f"{r17.REFERENCE} + agent": {**r17.LEXICAL[r17.REFERENCE], "r18": 1},
}
#: Part two's choice (lexical setting, mode), by its rule.
CHOSEN2: tuple[str, str] | None = None


def training2(real_all: list[str]) -> mlp.Training:
    """Round seventeen's training data and the agent notes (``dropped`` decides)."""
    return notes.with_examples(r17.training(real_all), AGENT_NOTES)


def grid2() -> r16.Grid:
    """Part two's grid: round seventeen's rounds, each with its fifth of the agent notes."""
    rounds = r15.with_parts(r17.rounds(), AGENT_NOTES)
    return r16.Grid(LEXICAL2, r17.REFERENCE, rounds, r15.newest_notes(AGENT_NOTES), "lex18")


def lexical_model2(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> Any:
    """Part two's lexical setting ``name`` fitted as round seventeen's are."""
    setting = {**r13.NETWORK, **LEXICAL2[name]}
    return r16.lexical_model(t, name, out_a, out_n, setting, dropped)


def write2(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN2`` fitted on everything, written with part one's floor."""
    if CHOSEN2 is None or CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN2 is None")
    lname, mode = CHOSEN2
    g = grid2()
    per = r15.network_scores(data, t, out, r15.checked_rules(t), g.rounds, g.newest)
    lexs = r15._lexs(out, lname, per, "lex18")
    stack, th = r14._cell(per, lexs, list(per), LEXICAL2[lname]["benign_weight"], mode)
    r14.save(data, t, lexical_model2(t, lname, set(), set()), stack, th, path, lname)
    with np.load(path) as arrays:
        body: dict[str, Any] = {k: arrays[k] for k in arrays.files}
    body["floor"], body["short"] = np.float64(CHOSEN[0]), np.int64(CHOSEN[1])
    np.savez_compressed(path, **body)
    print(f"{path}: {path.stat().st_size} bytes with the floor")


def pop_before() -> str:
    """``--before PATH`` taken off the command line: the lexical file ``--timing`` and
    ``--read`` weigh against (the shipped file by default; once a round's choice is
    written into ``engram/data``, the file shipped before it, e.g. ``git show
    a760213:src/engram/data/injection_lexical.npz`` for round eighteen)."""
    before = str(r16.SHIPPED_LEXICAL)
    if "--before" in sys.argv:
        at = sys.argv.index("--before")
        before = sys.argv.pop(at + 1)
        sys.argv.pop(at)
    return before


def main() -> None:
    before = pop_before()
    if "--messages" in sys.argv:
        sys.argv.remove("--messages")
        message_timing(r14.setup(__doc__ or "", "round18")[1])
        return
    part_two = [f for f in ("--lexical2", "--combine2", "--write2") if f in sys.argv]
    for flag in part_two:
        at = sys.argv.index(flag)
        sys.argv.pop(at)
        if flag == "--write2":
            part_two.append(sys.argv.pop(at))
    args, data, real_all, out = r14.setup(__doc__ or "", "round18")
    if part_two:
        t2 = training2(real_all)
        if "--lexical2" in part_two:
            rounds = grid2().rounds
            r13.lexical_scores(t2, out, args.only, LEXICAL2, lexical_model2, rounds, "lex18")
        if "--combine2" in part_two:
            r16.combine(data, t2, out, args.only, grid2())
        if "--write2" in part_two:
            write2(data, t2, out, Path(part_two[-1]))
        return
    run(args, data, before, lambda: combine(data, r17.training(real_all), out, args.only), write)


def run(
    args: Any, data: mlp.Data, before: str, grid: Callable[[], None], put: Callable[[Path], None]
) -> None:
    """A run-time round's switches: ``--combine`` runs ``grid``, ``--timing`` and
    ``--read`` weigh a written file against ``before``, ``--write`` calls ``put``."""
    real_all = [text for _, text in real_texts(args.data)]
    if args.combine:
        grid()
    if args.timing:
        r14.timing(data, real_all, args.timing, before)
    if args.write:
        put(Path(args.write))
    if args.read is not None:
        r14.read(data, real_texts(args.data), args.read, before)


if __name__ == "__main__":
    main()
