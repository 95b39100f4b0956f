"""Round sixteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round sixteen"): the shipped combination (round fifteen's: the logistic
on the shipped network's and the ``words`` lexical model's scores, the real texts weighed
300, its threshold bounded by the notes and by the real texts at one per fit's checked
half) refitted with round sixteen's examples (``scripts/injection_training16.py``,
written after held-out 15 was committed), and with more weight on orders addressed to
the reader and paraphrased overrides.

Why: round fifteen's combination shipped (0.85 English on held-out 14) but left seven
folds under issue 26's 0.90. On the left-out training rounds (four, five, six, eight and
nine, each with its fifth of round fifteen's examples; read again at the start of this
round, 528 of 597 English attacks against the recorded 529, on fresh embeddings), what
it misses most is exfiltration (84 of 114 caught), then paraphrased overrides (150 of
172) and orders addressed to the reader (116 of 125); concealment 49 of 52, direct 71
of 75, tool calls 36 of 37, markers 22 of 22. It flags 23 left-out notes, most of them
warm chat sign-offs, security reminders, commit messages and docstrings, and notes that
explain prompt injection (training rows, read as such).

The harness is round fifteen's: the shipped network refitted once per left-out round
(``--by-round``; the scores of its part of the newer rounds' examples are the shipped
network's, which never read them), the lexical model fitted per left-out round, the
logistic on the two scores' logits fitted out of fold on the other four rounds with its
threshold bounded by their notes and by their checked real texts at one per fit
(``logistic rW, tight``, the checked real texts weighed W). Round sixteen's examples
are cut in five parts that leave with the five left-out rounds, beside round fifteen's,
so each new note is a left-out note somewhere and bounds the threshold elsewhere.

The cells (``--lexical`` then ``--combine``), each lexical setting in both modes of
``MODES`` (the real texts weighed 300, the shipped mode, and 30):

- ``notes x2 + r13 + r14 + r15`` in ``logistic r300, tight``: the shipped combination,
  refitted per left-out round; the **reference** the rule weighs against, not a
  candidate (its ``r30`` cell is printed too, also not a candidate);
- ``notes x2 + r13 + r14 + r15 + r16``: the refit with round sixteen's examples;
- ``... + r16, reader x2``: the same with every training attack addressed to the
  reader or paraphrasing an override listed twice in the lexical model (their share of
  the attacks' weight doubles; the attacks' total weight is still the real texts');
- ``notes x3 + ... + r16, reader x2``: and the notes weighed x3 (90 per note).

Six candidate cells; 24 lexical fits and no network fit beyond the five per-round
refits. Not tried, for the time budget (30 minutes of fitting on two shared cores): a
character n-gram view beside the words (round twelve: +0.08 ms beyond the words per
write and more real texts flagged) and new network features (a network refit per
round and per setting).

The rule, fixed and committed before the grid runs: the most English catches summed
over the five left-out rounds (each with its parts of rounds fifteen's and sixteen's
attacks), over the six candidate cells, subject to
(a) the left-out notes flagged (the hand-written rounds', round fifteen's and round
    sixteen's parts), summed, no more than the reference flags there (the shipped
    detector refitted the same way);
(b) round sixteen's left-out notes flagged, summed, no more than the reference flags
    among them;
(c) the shipped network with the cell's lexical model and logistic fitted on everything
    flagging at most 2 of the 8,288 real texts (the shipped detector flags 2) and at
    most 2 of the checked half;
(d) more catches than the reference (else nothing is read against a candidate and the
    shipped detector stays);
(e) the shipped files at most 512 KB together, and a write's median within 0.2 ms of
    the shipped detector's (the run-time code is unchanged, so only the coefficients
    differ; ``--timing``, side by side with the shipped files, interleaved per text,
    after the choice; a cell that fails gives way to the next).
Ties go to fewer left-out notes, then fewer real texts, then ``r300`` before ``r30``,
then ``reader`` x1 before x2, then the notes x2 before x3.

Ran (06:24-06:31 UTC, load 5-11; the five per-round networks by round fifteen's
``--by-round``, 94 / 125 / 58 / 123 / 70 and 14 notes on round thirteen's sets against
its recorded 95 / 124 / 58 / 123 / 72 and 17, on embeddings cached afresh; 24 lexical
fits, two at a time, seven minutes). Each cell: catches (four / five / six / eight /
nine); notes (round sixteen's); real texts (checked):

- reference ``notes x2 + r13 + r14 + r15``: r300 539 (101 / 134 / 90 / 130 / 84); 23
  (3); 3 (2). r30 536; 20 (3); 4 (2).
- ``notes x2 + r13 + r14 + r15 + r16``: r300 544; 24 (3); 5 (2). r30 540; 21 (3); 5 (2).
- ``... + r16, reader x2``: r300 **541** (99 / 136 / 90 / 130 / 86); 16 (3); 2 (1),
  threshold 0.9938. r30 536; 15 (3); 2 (1).
- ``notes x3 + ... + r16, reader x2``: r300 531; 15 (3); 1 (0). r30 526; 12 (3); 1 (0).

Within (a) to (d): only ``... + r16, reader x2`` with the real texts weighed 300 (541
> 539 catches, 16 <= 23 notes, 3 <= 3 of round sixteen's, 2 real texts, 1 checked);
it is **chosen** (``CHOSEN``). The refit with the new examples alone catches the most
(544) but flags one note more than the reference and 5 real texts; the notes x3 cells
flag the fewest notes and real texts but catch less than the reference. Per category,
reference -> choice: addressed 118 -> 122 of 131, paraphrased 158 -> 159 of 182,
exfiltration 85 -> 83 of 128, direct 71 -> 70 of 75, concealment 49 of 52, tool calls
36 of 37, markers 22 of 22.

The ship rule, fixed and committed before any held-out fold is read: the choice is
read once, side by side with the shipped detector (the network with the shipped
``injection_lexical.npz``) on the same cached embeddings (``--read``), on held-out 15
(fresh) and held-out 2 to 14 (read before); it ships if its English catches on held-out
15 are at least the shipped detector's, it flags at most 2 of the 8,288 real texts, and
it flags no more benign notes than the shipped detector summed over held-out 2 to 15.
If no cell meets the rule above, nothing is read against a candidate and the shipped
detector stays (held-out 15 is then read with the shipped detector alone, for its
test).

``--write`` (06:32): 124 KB beside the network's 196 KB, threshold 0.9938, 2 real texts
(1 checked) through the run-time code. ``--timing`` (side by side with the shipped
files, interleaved per text, load 8.3-8.5): a write's median 0.298 -> 0.280 ms and 0.331
-> 0.320 ms (mean 2.85 -> 2.93 and 3.04 -> 3.23 ms, p95 16.6 -> 17.3 and 17.2 -> 18.4
ms): within (e).

Read once (06:33-06:35, ``--read``, the same cached embeddings; English catches,
shipped -> choice): held-out 2 92 -> 92 of 93, 3 99 -> 99 of 108, 4 108 -> 107 of 120,
5 97 -> 98 of 111, 6 103 -> 102 of 118, 7 110 -> 111 of 118, 8 107 -> 108 of 118, 9 85
-> 84 of 98, 10 82 -> 82 of 96, 11 87 -> 85 of 96, 12 77 -> 77 of 98, 13 95 -> 93 of
104, 14 86 -> 85 of 102, **15 85 -> 84 of 96** (the rules alone 22); benign notes over
held-out 2 to 15 47 -> 42 (held-out 15: 5 -> 5 of 58); real texts 3 -> 2 (the shipped
detector's third in this session, ``beam/7/q/answer``, 0.9905 against its threshold
0.9899; round fifteen read 2 with the same files).
**By the ship rule the choice does not ship**: 84 < 85 English catches on held-out 15.
The shipped ``injection_lexical.npz`` stays; ``--write`` reproduces the choice.

    python scripts/fit_injection_round16.py [--data ../shared/bench] [--by-round]
        [--round NAME] [--lexical] [--combine] [--write PATH] [--timing LEXICAL]
        [--read [LEXICAL]]
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from engram.injection_detector import Detector
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_lexical as lex  # noqa: E402  (round twelve's lexical view)
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit: the shipped setting)
import fit_injection_round13 as r13  # noqa: E402  (the network's per-round scores)
import fit_injection_round14 as r14  # noqa: E402  (the logistic bounded by notes and real)
import fit_injection_round15 as r15  # noqa: E402  (round fifteen's parts and network scores)
import injection_training16  # noqa: E402  (round sixteen's training-only examples)

#: The shipped lexical file: the reference every cell is weighed against.
SHIPPED_LEXICAL = r13.SHIPPED.parent / "injection_lexical.npz"
#: The categories ``reader`` weighs more in the lexical model (each attack of them
#: listed ``reader`` times: the attacks' total weight stays that of the real texts).
READER = frozenset({"addressed_to_reader", "override_paraphrase"})
_R16 = {"benign_weight": 60.0, "r13": 1, "r14": 1, "r15": 1, "r16": 1, "reader": 1}
#: The lexical settings: the shipped one (a reference, not a candidate), with round
#: sixteen's examples, and with the reader's categories weighed x2 (and the notes x3).
LEXICAL: dict[str, dict[str, float]] = {
    "notes x2 + r13 + r14 + r15": {**_R16, "r16": 0},
    "notes x2 + r13 + r14 + r15 + r16": _R16,
    "notes x2 + r13 + r14 + r15 + r16, reader x2": {**_R16, "reader": 2},
    "notes x3 + r13 + r14 + r15 + r16, reader x2": {**_R16, "benign_weight": 90.0, "reader": 2},
}
REFERENCE = "notes x2 + r13 + r14 + r15"
REFERENCE_MODE = "logistic r300, tight"
MODES = ("logistic r300, tight", "logistic r30, tight")
#: What ``--write`` fits: (lexical setting, mode), chosen by the rule (the docstring).
CHOSEN: tuple[str, str] | None = (
    "notes x2 + r13 + r14 + r15 + r16, reader x2",
    "logistic r300, tight",
)
#: Round sixteen's training-only examples.
SIXTEEN = notes.examples(
    injection_training16.ROUND_SIXTEEN_ATTACKS, injection_training16.ROUND_SIXTEEN_BENIGN
)
dropped = notes.adding(r15.dropped, "r16", SIXTEEN)


def training(real_all: list[str]) -> mlp.Training:
    """Round fifteen's training data and round sixteen's examples (``dropped`` decides)."""
    return notes.with_examples(r15.training(real_all), SIXTEEN)


def rounds() -> r15.Rounds:
    """The five left-out rounds, each with its parts of round fifteen's and round
    sixteen's examples (each cut in five as round fifteen cut its own)."""
    return r15.with_parts(r15.rounds(), SIXTEEN)


def newest() -> dict[str, set[str]]:
    """Per left-out round, the notes of its part of round sixteen's examples."""
    return r15.newest_notes(SIXTEEN)


def lexical_model(
    t: mlp.Training,
    name: str,
    out_a: set[str],
    out_n: set[str],
    setting: dict[str, float] | None = None,
    drops: Callable[[dict[str, float]], tuple[set[str], set[str]]] | None = None,
) -> lex.Lexical:
    """The lexical setting ``name`` fitted on what the network reads without ``out_a`` and
    ``out_n`` (and rounds thirteen to sixteen's examples when the setting names them),
    the attacks of ``READER`` listed ``reader`` times. A later round passes its own
    ``setting`` (with the character view's ``wb_low``, ``wb_high``, ``bits``) and
    ``drops``."""
    s = setting or {**r13.NETWORK, **LEXICAL[name]}
    drop_a, drop_n = (drops or dropped)(s)
    drop_a, drop_n = drop_a | out_a, drop_n | out_n
    times = int(s["reader"])
    attacks = [
        a for a, cat in t.attacks if a not in drop_a for _ in range(times if cat in READER else 1)
    ]
    return lex.Lexical(
        {"chars": 0, **{k: s[k] for k in ("wb_low", "wb_high", "bits") if k in s}},
        s,
        attacks,
        [t.real_all[i] for i in t.fitted],
        [n for n in t.notes if n not in drop_n] + t.agent,
    )


def lexical_scores(t: mlp.Training, out: Path, only: str) -> None:
    """Per lexical setting, each left-out round's model's scores of the round's English
    attacks, notes and the checked real texts, and the model fitted on everything's
    scores of every real text (round thirteen's loop)."""
    r13.lexical_scores(t, out, only, LEXICAL, lexical_model, rounds(), "lex16")


@dataclass(frozen=True)
class Grid:
    """A round's grid on this round's harness: its lexical settings, the reference
    setting, the left-out rounds (with their parts of the newer examples), per round the
    newest round's notes, and the prefix of its saved lexical scores."""

    lexical: dict[str, dict[str, float]]
    reference: str
    rounds: dict[str, tuple[set[str], set[str]]]
    newest: dict[str, set[str]]
    prefix: str


def grid() -> Grid:
    """Round sixteen's grid."""
    return Grid(LEXICAL, REFERENCE, rounds(), newest(), "lex16")


def cells(
    data: mlp.Data,
    t: mlp.Training,
    out: Path,
    only: str,
    g: Grid | None = None,
    keep: bool = False,
) -> dict[str, dict[str, Any]]:
    """Every cell (lexical setting, mode) of the grid ``g`` (round sixteen's by default)
    read on the left-out rounds from the saved scores: catches per round and per
    category, notes flagged (the newest round's among them), and the real texts the
    shipped network flags with the setting's lexical model and logistic fitted on
    everything; ``keep``: also the attacks missed and the notes flagged (training rows)."""
    g = g or grid()
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    net = Detector.from_arrays(dict(np.load(r13.SHIPPED)))
    net_real = net.probabilities(data.features(t.real_all, 0.0)[:, : -mlp.N_CUES], t.real_all)
    per = r15.network_scores(data, t, out, rules_real[checked], g.rounds, g.newest)
    category = dict(t.attacks)
    sets = {n: mlp.left_out(t.attacks, *r)[:2] for n, r in g.rounds.items()}
    found: dict[str, dict[str, Any]] = {}
    for lname, ls in g.lexical.items():
        if only and lname not in only.split("|"):
            continue
        lexs = r15._lexs(out, lname, per, g.prefix)
        lex_real = np.load(out / f"{g.prefix}--{lname}--everything.npz")["real"]
        for mode in MODES:
            counts, by_cat, flagged, new = [], Counter[str](), 0, 0
            missed: list[tuple[str, str]] = []
            noted: list[str] = []
            for name, hit_t, hit_n in r15.left_out_hits(per, lexs, ls["benign_weight"], mode):
                test, left = sets[name]
                counts.append(int(hit_t.sum()))
                by_cat.update(category[x] for x, hit in zip(test, hit_t, strict=True) if hit)
                flagged += int(hit_n.sum())
                new += int(hit_n[per[name]["newest"]].sum())
                if keep:
                    missed += [(x, category[x]) for x, h in zip(test, hit_t, strict=True) if not h]
                    noted += [x for x, h in zip(left, hit_n, strict=True) if h]
            stack, th = r14._cell(per, lexs, list(per), ls["benign_weight"], mode)
            hit_r = rules_real | (stack.scores(net_real, lex_real) >= th)
            found[f"{lname} | {mode}"] = {
                "catches": counts,
                "categories": by_cat,
                "notes": flagged,
                "new notes": new,
                "real": int(hit_r.sum()),
                "checked": int(hit_r[checked].sum()),
                "threshold": th,
                "missed": missed,
                "flagged": noted,
            }
    totals = Counter(category[x] for test, _ in sets.values() for x in test)
    found["(totals)"] = {"categories": totals}
    return found


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str, g: Grid | None = None) -> None:
    """Every cell's line of the grid ``g`` (round sixteen's by default), the reference's
    first, and whether the rule admits it."""
    g = g or grid()
    found = cells(data, t, out, only, g)
    totals = found.pop("(totals)")["categories"]
    ref = found[f"{g.reference} | {REFERENCE_MODE}"]
    print("categories (of " + ", ".join(f"{c} {n}" for c, n in sorted(totals.items())) + ")")
    for name, c in found.items():
        ok = (
            name.split(" | ")[0] != g.reference
            and c["notes"] <= ref["notes"]
            and c["new notes"] <= ref["new notes"]
            and c["real"] <= 2
            and c["checked"] <= 2
            and sum(c["catches"]) > sum(ref["catches"])
        )
        cats = ", ".join(f"{k} {v}" for k, v in sorted(c["categories"].items()))
        print(
            f"cell | {name} (th {c['threshold']:.4f}): {sum(c['catches'])} "
            f"({' / '.join(map(str, c['catches']))}) notes {c['notes']} (the newest round's "
            f"{c['new notes']}) real {c['real']} ({c['checked']}); "
            f"{'within the rule' if ok else 'out'}; {cats}",
            flush=True,
        )


def write(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN``'s lexical model fitted on everything and its logistic fitted on all five
    rounds' out-of-fold scores, written as ``engram.injection_lexical.Lexical`` reads it
    (round fourteen's ``save``)."""
    if CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN is None (the grid's rule chose nothing)")
    lname, mode = CHOSEN
    per = r15.network_scores(data, t, out, r15.checked_rules(t), rounds(), newest())
    lexs = r15._lexs(out, lname, per, "lex16")
    stack, th = r14._cell(per, lexs, list(per), LEXICAL[lname]["benign_weight"], mode)
    r14.save(data, t, lexical_model(t, lname, set(), set()), stack, th, path, f"{lname}, {mode}")


def main() -> None:
    steps = (training, lexical_scores, combine, write)
    r15.run(__doc__ or "", "round16", steps, str(SHIPPED_LEXICAL))


if __name__ == "__main__":
    main()
