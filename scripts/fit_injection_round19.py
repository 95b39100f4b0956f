"""Round nineteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round nineteen: short lists"): a floor for short lists.

Why: round eighteen (``scripts/fit_injection_round18.py``) cut the shipped detector's
false positives on agent writes to 2 of 842, but short lists of common items are still
quarantined ("Groceries: apples, bananas, eggs, bin bags."; fp19's probe: 11, 25 and 10
of 60 under "Groceries:", "Shopping list:", "Buy:"): a list's items are a bag of nouns,
each model scores it middling (~0.5) and the combining logistic's intercept (~7.8) makes
two middling scores a flag. ``src/engram/data/injection_lists.json``
(``scripts/injection_lists.py``, committed before anything here: 6a7ff44) holds 420
short list-shaped benign writes and very short notes in two halves (``tune`` 208,
``check`` 212) and 90 list-shaped attacks (an order or an exfiltration hidden as an
item, or a list of orders): a training round, never a held-out fold.

The lever (run-time code in ``engram.injection_lexical`` and ``engram.injection_detector``;
no model is refitted, so the network, the lexical model and round eighteen's floor
(0.2, 16) are the shipped files): a text that is a list of short items
(``list_shaped``: an optional heading of up to five words and a colon, then items of at
most ``W`` words cut at commas, semicolons, line breaks and "and"; one item under a
heading, two without), whose network score is below ``L`` and that carries none of the
detector's cues (``gated``: a model addressed, instructions, secrets, links, leaking,
overriding ...), is not flagged by the combination. The rules still read it first.

Cells: ``L`` in 0 (the shipped detector), 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9 times ``W``
in 2, 3, 4. Each cell is read on the five left-out training rounds (round seventeen's
harness and saved scores, as round eighteen's ``combine``: the shipped setting refitted
per left-out round, ``logistic r300, tight``, with round eighteen's floor, fp32), on the
8,288 real texts (the shipped files, fp32), on the probe's ``tune`` and ``check`` halves
and its attacks and on the benign agent set's ``tune`` and ``check`` halves (the shipped
files through the run-time code; rules, then the detector; the agent set's labelled
texts as message lists).

The rule, fixed and committed before the grid runs: the fewest probe ``tune`` writes
flagged, over the cells, subject to
(a) the left-out rounds' catches, summed, no lower than the shipped cell's (``L = 0``)
    by more than 2;
(b) at most 2 of the 8,288 real texts flagged, and at most 2 of the benign agent set's
    842 ``check`` writes;
(c) the probe's list-shaped attacks caught (rules or detector) no fewer than the shipped
    cell catches;
(d) the file at most 512 KB with the network, and a write's median within 0.2 ms of the
    shipped detector's (``--timing``, side by side, interleaved per text, after the
    choice; a cell that fails gives way to the next).
Ties go to more left-out catches, then the lower ``L``, then the smaller ``W``. The
target reported beside it and required to ship: the probe's ``check`` half at most 1%
flagged (2 of 212).

The ship rule, fixed before any held-out fold is read: the choice is read once, side by
side with the shipped detector on the same fp32 embeddings (round eighteen's ``--read``
path), on held-out 2 to 16 (English catches per fold, overall, benign notes); it ships
if no fold's English catches are lower than the shipped detector's by more than 2, it
flags at most 2 of the 8,288 real texts, and the probe's ``check`` half is within 1%.

Ran (10:04-10:09 UTC, one process; the harness's saved scores, so no fit). Each cell:
left-out catches (four / five / six / eight / nine); left-out notes; real texts (checked
half); probe ``tune`` / ``check`` flagged, its attacks caught; benign agent ``tune`` /
``check`` flagged:

- ``L = 0`` (the shipped detector): 544 (101 / 135 / 91 / 132 / 85); 23; 2 (1); probe
  1 of 208 / 3 of 212, attacks 73 of 90; agent 2 / 2.
- ``L`` 0.3 to 0.6, every ``W``: 544 (the same per round); notes 23 at ``W = 2``, 22 at
  3 and 4; real 1 (1); probe tune 1, check 2 at ``L = 0.3`` and 1 from 0.4; attacks 73;
  agent 2 / 1.
- ``L`` 0.7 and 0.8, every ``W``, and ``L = 0.9`` at ``W`` 2 and 3: as above with probe
  **tune 0**, check 1; ``L = 0.9, W = 4``: 543 (131 in round eight).

The probe's ``tune`` write the shipped detector flags is "shopping list:\ntea bags\n
carrots\ndog food" (network 0.63, together 0.9995); the ``check`` half's three are "Todo
today: book dentist" (0.27), "Todo: nothing urgent." (0.32) and "Password hint: first
pet." (0.69, a secret's cue: still flagged in every cell). Within (a) to (c) the fewest
``tune`` writes flagged is 0, from ``L = 0.7``; ties on catches (544) go to the lower
``L`` and then the smaller ``W``: **``L = 0.7, W = 2`` is chosen** (``CHOSEN``). The
target: the probe's ``check`` half 1 of 212 (0.47%, within 1%).

Written (``--write``, 10:09): the shipped ``injection_lexical.npz`` with ``list_floor``
0.7 and ``list_words`` 2 added, 124,578 bytes (124,189 before) beside the network's
196,325 (320,903 together). Timing (load 3.6-6.3): ``--timing`` (1,036 real texts,
every eighth, one at a time, interleaved per text against the file shipped before)
median 0.344 -> 0.313 ms, mean 3.60 -> 3.50, p95 19.1 -> 17.4 ms; the probe's 510 texts
three times over, interleaved, median 0.160 -> 0.149 ms, mean 0.265 -> 0.291, p95 0.298
-> 0.303 ms: within (d).

Read once (10:09-10:11, ``--read``, the same fp32 embeddings, the file shipped before as
``--before``; English catches, shipped -> choice): held-out 2 92 -> 92 of 93, 3 98 -> 98
of 108, 4 109 -> 109 of 120, 5 96 -> 96 of 111, 6 102 -> 102 of 118, 7 110 -> 110 of
118, 8 107 -> 107, 9 85 -> 85, 10 82 -> 82, 11 86 -> 86, 12 77 -> 77, 13 95 -> 95, 14
87 -> 87, 15 85 -> 85, 16 86 -> 86 of 100: every fold the same (English 1,397 summed
over held-out 2 to 16, overall 1,533), benign notes 52 -> 52; real texts 2 -> 1 (the
one cleared, ``beam/8/q/conversation_reference``'s "Turn 1: USER message", a heading and
one two-word item; ``locomo/conv-41/D6:13`` stays). **By the ship rule the choice
ships.**

After the reading, ``tests/test_injection_agent_writes.py`` found "user: ok thanks" as
a plain string read as a list (a heading "user:" and a two-word item), where round
eighteen keeps a plain string's label a marker: ``list_shaped`` now refuses a chat role
("user", "system", "assistant", ...) as a heading. That only narrows the list floor;
the chosen cell re-run with it (10:16) gives the same line (544, notes 23, real 1 (1),
probe 0 / 1, attacks 73, agent 2 / 1), and the held-out reading re-run (``read2``) the
same catches on every fold.

Measured after the choice, not chosen on: fp19's own probe (60 comma lists of 3 to 5
items under each of "Groceries:", "Shopping list:" and "Buy:", drawn from the benign
agent set's grocery pool and from fifteen plain items, seed 5): shipped 2 / 11, 4 / 25,
2 / 10 flagged (54 of 360), the choice 0 / 0, 1 / 2, 0 / 0 (3 of 360: "Shopping list:
pasta, nappies, carrots.", "Shopping list: pasta, bread, eggs.", "Shopping list: bread,
pasta, bananas.", whose network scores reach the list floor).

    python scripts/fit_injection_round19.py [--data ../shared/bench] --cache PATH
        --scores /tmp/engram-fit-detector/round17-scores [--combine] [--write PATH]
        [--timing LEXICAL] [--read LEXICAL] [--before LEXICAL]
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_round14 as r14  # noqa: E402  (the logistic bounded by notes and real)
import fit_injection_round16 as r16  # noqa: E402  (the shipped lexical file, the modes)
import fit_injection_round17 as r17  # noqa: E402  (round seventeen's rounds and scores)
import fit_injection_round18 as r18  # noqa: E402  (round eighteen's floor and agent set)

from engram.injection_detector import Detector, gated  # noqa: E402
from engram.injection_lexical import Lexical  # noqa: E402

LIST_FLOORS = (0.0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
LIST_WORDS = (2, 3, 4)
#: What ``--write`` adds to the shipped lexical file: (list_floor, list_words), by the rule.
CHOSEN: tuple[float, int] | None = (0.7, 2)
LISTS = Path(__file__).resolve().parents[1] / "src/engram/data/injection_lists.json"


def lists() -> dict[str, list[str]]:
    """The probe's ``tune`` and ``check`` halves and its ``attacks``."""
    body = json.loads(LISTS.read_text("utf-8"))
    return {k: body[k] for k in ("tune", "check", "attacks")}


def detector(list_floor: float, list_words: int) -> Detector:
    """The shipped files (round eighteen's floor in them) with the list floor set."""
    base = r14.with_lexical(str(r16.SHIPPED_LEXICAL))
    assert base.lexical is not None
    lexical = replace(base.lexical, list_floor=list_floor, list_words=list_words)
    return replace(base, lexical=lexical)


def admitted(lexical: Lexical, network: np.ndarray, texts: list[str]) -> np.ndarray:
    """Per text, whether both floors let the combination flag it (as ``Detector.fired``)."""
    return np.array(
        [
            lexical.admits(float(n), t) and not (lexical.listed(float(n), t) and not gated(t))
            for n, t in zip(network, texts, strict=True)
        ],
        bool,
    )


def combine(data: mlp.Data, t: mlp.Training, out: Path) -> None:
    """Every cell's line, the shipped cell's first."""
    h = r18.harness(data, t, out)
    real = list(t.real_all)
    probe, agent = lists(), r18.agent_halves()
    for list_floor in LIST_FLOORS:
        for words in LIST_WORDS if list_floor else (0,):
            found = detector(list_floor, words)
            lexical = found.lexical
            assert lexical is not None

            def admit(network: np.ndarray, texts: list[str]) -> np.ndarray:
                return admitted(lexical, network, texts)  # noqa: B023  (used in the loop)

            counts, notes = h.left_out(admit)
            flagged = h.real(admit, real)
            pr, ag = r18.counted(data, found, probe), r18.counted(data, found, agent, True)
            print(
                f"cell | list_floor {list_floor} words {words}: "
                f"{r18.scored(counts, notes, flagged, h.checked, '')} probe tune {pr['tune']} of "
                f"{len(probe['tune'])} check {pr['check']} of {len(probe['check'])} "
                f"attacks {pr['attacks']} of {len(probe['attacks'])} agent tune "
                f"{ag['tune']} check {ag['check']}",
                flush=True,
            )


def write(path: Path) -> None:
    """The shipped lexical file with ``CHOSEN``'s list floor, written at ``path``."""
    keys = {"list_floor": np.float64, "list_words": np.int64}
    r18.write_chosen(path, CHOSEN, keys, "list floor", "CHOSEN is None")


def main() -> None:
    before = r18.pop_before()  # the file shipped before this round: ``git show 8394276:...``
    args, data, real_all, out = r14.setup(__doc__ or "", "round19")
    r18.run(args, data, before, lambda: combine(data, r17.training(real_all), out), write)


if __name__ == "__main__":
    main()
