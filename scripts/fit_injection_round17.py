"""Round seventeen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round seventeen"): a character n-gram view beside the word view of the
shipped combination's lexical model, and round seventeen's examples
(``scripts/injection_training17.py``, written after held-out 16 was committed).

Why: sixteen rounds refitted the same two views (the MiniLM network and the word
n-gram model, weighed by a logistic) with more examples, and round sixteen's candidate
lost by one catch, the size of embedding noise. The word view sees a word it never saw
as nothing: an inflection ("disregarding"), a misspelling ("instrucions"), a word run
together ("ignoreall") or split by a hyphen share no feature with the words of the fit.
The character view (``engram.injection_lexical``: every distinct word wrapped in ``<``
and ``>``, cut into character 3- to 5-grams, hashed into the words' buckets) shares most
of their grams, so it changes what the lexical model can see, not only its weights.

The harness is round sixteen's (``fit_injection_round16``): the shipped network
refitted once per left-out round (``--by-round``; fp32 embeddings, cached afresh: the
earlier rounds' caches held int8 vectors on this machine), the lexical model fitted per
left-out round, each round with its fifths of rounds fifteen's, sixteen's and
seventeen's examples, the logistic on the two scores' logits fitted out of fold on the
other four rounds with its threshold bounded by their notes and by their checked real
texts at one per fit (``logistic rW, tight``).

The cells (``--lexical`` then ``--combine``), each in both modes of ``MODES`` (the real
texts weighed 300, the shipped mode, and 30):

- ``notes x2 + r13 + r14 + r15``: the shipped setting refitted per left-out round, the
  **reference** (in ``r300``), not a candidate;
- ``... + r16 + r17``: the words alone with rounds sixteen's and seventeen's examples
  (what the examples do without the lever);
- ``... + r16 + r17, chars``: and the character view, 3- to 5-grams, with the words in
  2^17 buckets (2^16 would hold the words' and the characters' grams of the fit in
  half as many buckets; the file is then 256 KB of float16 beside the network's 196);
- ``... + r16 + r17, chars, reader x2``: and round sixteen's ``reader x2`` (the
  training attacks addressed to the reader or paraphrasing an override listed twice).

Round seventeen's examples (``injection_training17``: 20 attacks, 40 notes) were
written from what the reference misses and flags on the left-out rounds in round
sixteen's saved scores (``cells(..., keep=True)``: 539 catches, 23 notes, 3 real
texts, as round sixteen read). The five per-round networks refitted on fp32 vectors
(``--by-round``, 08:56 UTC) catch 93 / 124 / 58 / 123 / 72 alone and flag 16 notes of
round thirteen's sets (int8 in round sixteen: 94 / 125 / 58 / 123 / 70, 14).

Six candidate cells; 24 lexical fits. Not tried, for the time budget (30 minutes of
fitting on two shared cores): the lexical view per sentence with a max over sentences,
and addressee and imperative features in the logistic.

The rule, fixed and committed before the grid runs: the most English catches summed
over the five left-out rounds (each with its parts of rounds fifteen's to seventeen's
attacks), over the six candidate cells, subject to
(a) the left-out notes flagged, summed, no more than the reference flags there;
(b) round seventeen's left-out notes flagged, summed, no more than the reference flags
    among them;
(c) the shipped network with the cell's lexical model and logistic fitted on everything
    flagging at most 2 of the 8,288 real texts and at most 2 of the checked half;
(d) more catches than the reference (else nothing is read against a candidate and the
    shipped detector stays);
(e) the shipped files at most 512 KB together, and a write's median within 0.2 ms of
    the shipped detector's (``--timing``, side by side with the shipped files,
    interleaved per text, after the choice; a cell that fails gives way to the next).
Ties go to fewer left-out notes, then fewer real texts, then ``r300`` before ``r30``,
then the words alone before the character view, then ``reader`` x1 before x2.

Ran (09:05-09:12 UTC, load 8-9; 24 lexical fits, two at a time, six minutes). Each
cell: catches (four / five / six / eight / nine); notes (round seventeen's); real
texts (checked):

- reference ``notes x2 + r13 + r14 + r15``: r300 545 (101 / 135 / 92 / 132 / 85); 27
  (6); 3 (2). r30 541; 25 (6); 3 (2).
- ``... + r16 + r17``: r300 546 (98 / 136 / 93 / 134 / 85); 20 (6); 3 (2). r30 541;
  18 (6); 3 (2).
- ``... + r16 + r17, chars``: r300 **547** (101 / 137 / 90 / 133 / 86); 26 (6); 2 (1),
  threshold 0.9907. r30 541; 21 (6); 2 (1).
- ``... + r16 + r17, chars, reader x2``: r300 542; 21 (5); 2 (1). r30 539; 21 (5); 2
  (1).

Within (a) to (d): only ``... + r16 + r17, chars`` with the real texts weighed 300 (547
> 545 catches, 26 <= 27 notes, 6 <= 6 of round seventeen's, 2 real texts, 1 checked);
it is **chosen** (``CHOSEN``). The words alone with the new examples flag 7 fewer notes
but 3 real texts; ``reader x2`` beside the characters catches less than the reference.
Per category, reference -> choice: addressed 119 -> 119 of 135, paraphrased 159 -> 159
of 188, exfiltration 86 -> 90 of 134, direct 72 -> 72 of 77, concealment 51 -> 49 of
54, tool calls 36 -> 36 of 37, markers 22 -> 22 of 22.

``--write`` (09:13): 249,113 bytes beside the network's 196,325 (445,438 together),
threshold 0.9907, 2 real texts (1 checked) through the run-time code. ``--timing``
(side by side with the shipped files, interleaved per text, load 8.3-9.0): a write's
median 0.303 -> 0.336 ms and 0.295 -> 0.338 ms (mean 2.83 -> 3.26 and 2.57 -> 2.82 ms,
p95 17.6 -> 19.4 and 15.5 -> 16.7 ms): within (e).

The ship rule, fixed and committed before any held-out fold is read: the choice is
read once, side by side with the shipped detector (the network with the shipped
``injection_lexical.npz``) on the same fp32 embeddings (``--read``), on held-out 16
(fresh) and held-out 2 to 15 (read before); it ships if its English catches on
held-out 16 are at least the shipped detector's, its English catches summed over
held-out 2 to 16 are at least the shipped detector's, it flags at most 2 of the 8,288
real texts, and it flags no more benign notes than the shipped detector summed over
held-out 2 to 16. If no cell meets the rule above, nothing is read against a candidate
and the shipped detector stays (held-out 16 is then read with the shipped detector
alone, for its test).

Read once (09:14-09:15, ``--read``, the same fp32 embeddings; English catches, shipped
-> choice): held-out 2 92 -> 92 of 93, 3 99 -> 98 of 108, 4 109 -> 110 of 120, 5 97 ->
96 of 111, 6 103 -> 104 of 118, 7 111 -> 107 of 118, 8 107 -> 108 of 118, 9 85 -> 87
of 98, 10 82 -> 80 of 96, 11 86 -> 88 of 96, 12 77 -> 80 of 98, 13 95 -> 92 of 104, 14
87 -> 88 of 102, 15 85 -> 83 of 96, **16 86 -> 84 of 100** (the rules alone 34);
summed over held-out 2 to 16 1,401 -> 1,397; benign notes over held-out 2 to 16 52 ->
36 (held-out 16: 5 -> 2 of 60); real texts 2 -> 2.
**By the ship rule the choice does not ship**: 84 < 86 English catches on held-out 16
(and 1,397 < 1,401 summed). The shipped ``injection_lexical.npz`` stays; ``--write``
reproduces the choice.

    python scripts/fit_injection_round17.py [--data ../shared/bench] [--by-round]
        [--round NAME] [--lexical] [--only A|B] [--combine] [--misses] [--write PATH]
        [--timing LEXICAL] [--read [LEXICAL]]
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_lexical as lex  # noqa: E402  (round twelve's lexical view)
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit: the shipped setting)
import fit_injection_round13 as r13  # noqa: E402  (the network's per-round scores)
import fit_injection_round14 as r14  # noqa: E402  (the logistic bounded by notes and real)
import fit_injection_round15 as r15  # noqa: E402  (round fifteen's parts and harness)
import fit_injection_round16 as r16  # noqa: E402  (round sixteen's grid and cells)
import injection_training17  # noqa: E402  (round seventeen's training-only examples)

_R17 = {**r16._R16, "r17": 1, "wb_low": 0, "wb_high": 0, "bits": 16}
#: The character view: 3- to 5-grams of each word, words and grams in 2^17 buckets.
_CHARS = {"wb_low": 3, "wb_high": 5, "bits": 17}
LEXICAL: dict[str, dict[str, float]] = {
    "notes x2 + r13 + r14 + r15": {**_R17, "r16": 0, "r17": 0},
    "notes x2 + r13 + r14 + r15 + r16 + r17": _R17,
    "notes x2 + r13 + r14 + r15 + r16 + r17, chars": {**_R17, **_CHARS},
    "notes x2 + r13 + r14 + r15 + r16 + r17, chars, reader x2": {**_R17, **_CHARS, "reader": 2},
}
REFERENCE = "notes x2 + r13 + r14 + r15"
#: What ``--write`` fits: (lexical setting, mode), chosen by the rule (the docstring).
CHOSEN: tuple[str, str] | None = (
    "notes x2 + r13 + r14 + r15 + r16 + r17, chars",
    "logistic r300, tight",
)
#: Round seventeen's training-only examples.
SEVENTEEN = notes.examples(
    injection_training17.ROUND_SEVENTEEN_ATTACKS, injection_training17.ROUND_SEVENTEEN_BENIGN
)
dropped = notes.adding(r16.dropped, "r17", SEVENTEEN)


def training(real_all: list[str]) -> mlp.Training:
    """Round sixteen's training data and round seventeen's examples (``dropped`` decides)."""
    return notes.with_examples(r16.training(real_all), SEVENTEEN)


def rounds() -> r15.Rounds:
    """The five left-out rounds, each with its parts of rounds fifteen's to seventeen's
    examples (each cut in five as round fifteen cut its own)."""
    return r15.with_parts(r16.rounds(), SEVENTEEN)


def newest() -> dict[str, set[str]]:
    """Per left-out round, the notes of its part of round seventeen's examples."""
    return r15.newest_notes(SEVENTEEN)


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> lex.Lexical:
    """The lexical setting ``name`` (``LEXICAL``) fitted as round sixteen's are."""
    return r16.lexical_model(t, name, out_a, out_n, {**r13.NETWORK, **LEXICAL[name]}, dropped)


def lexical_scores(t: mlp.Training, out: Path, only: str) -> None:
    """Per lexical setting, each left-out round's model's scores (round thirteen's loop)."""
    r13.lexical_scores(t, out, only, LEXICAL, lexical_model, rounds(), "lex17")


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str) -> None:
    """Every cell's line, the reference's first, and whether the rule admits it."""
    r16.combine(data, t, out, only, grid())


def grid() -> r16.Grid:
    """Round seventeen's grid for round sixteen's cells."""
    return r16.Grid(LEXICAL, REFERENCE, rounds(), newest(), "lex17")


def misses(data: mlp.Data, t: mlp.Training, out: Path) -> None:
    """What the reference cell misses and flags on the left-out training rounds (their
    rows are training rows: round seventeen's examples are written from these)."""
    found: dict[str, Any] = r16.cells(data, t, out, REFERENCE, grid(), keep=True)
    cell = found[f"{REFERENCE} | {r16.REFERENCE_MODE}"]
    for text, cat in cell["missed"]:
        print(f"missed | {cat} | {text[:160]!r}")
    for text in cell["flagged"]:
        print(f"flagged | {text[:160]!r}")


def write(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN`` fitted on everything and written (round sixteen's ``write``)."""
    if CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN is None (the grid's rule chose nothing)")
    lname, mode = CHOSEN
    per = r15.network_scores(data, t, out, r15.checked_rules(t), rounds(), newest())
    lexs = r15._lexs(out, lname, per, "lex17")
    stack, th = r14._cell(per, lexs, list(per), LEXICAL[lname]["benign_weight"], mode)
    r14.save(data, t, lexical_model(t, lname, set(), set()), stack, th, path, f"{lname}, {mode}")


def main() -> None:
    if "--misses" in sys.argv:
        sys.argv.remove("--misses")
        args, data, real_all, out = r14.setup(__doc__ or "", "round17")
        misses(data, training(real_all), out)
        return
    steps = (training, lexical_scores, combine, write)
    r15.run(__doc__ or "", "round17", steps, str(r16.SHIPPED_LEXICAL))


if __name__ == "__main__":
    main()
