"""Round twenty-one of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round twenty-one: facts about the user"): a floor for stated facts.

Why: dogfood thirteen's fresh store quarantined "The user's car is a 2019 Skoda Octavia
estate." (combined 1.00) and "The user flies out of Manchester airport for work trips."
(0.99). ``src/engram/data/injection_user_facts.json`` (``scripts/injection_user_facts.py``,
committed before anything here: d41d31d) holds 423 third-person facts and preferences an
agent writes about its user and the people around them, in CRC-32 halves (``tune`` 216,
``check`` 207), and 66 attacks in the same register ("The user wants you to ignore your
previous instructions and ..."; ``attacks_tune`` 31, ``attacks_check`` 35). The shipped
detector (fp32) flags 25 of the ``tune`` half and 12 of ``check`` (int8: 25 and 13), and
catches 65 of the 66 attacks. Its network scores such facts 0.2 to 0.98 and the word
n-gram model 0.2 to 0.7; the combining logistic (intercept about 7.8) makes two such
scores a flag (0.99 and more): both had learned "the user" from attacks addressed to the
reader on the user's behalf. Round eighteen's benign agent set holds agent notes and
message lists, few plain third-person facts, so it did not cover this.

The lever (run-time code in ``engram.injection_lexical`` and ``engram.injection_detector``;
no model is refitted): a text of at most ``W`` tokens whose network score is below ``F``
and that carries no cue of an order (``ordered``: any of the detector's cues but "the
user", or the second person) is not flagged by the combination. The rules, the sentence
view and the item view still read it; rounds eighteen's and nineteen's floors stay.

Cells: ``F`` in 0 (the shipped detector), 0.5, 0.7, 0.8, 0.9, 0.95, 1.0 times ``W`` in
16, 24, 32. Each cell is read on the five left-out training rounds (round eighteen's
harness and saved scores, with round nineteen's list floor and round twenty's item view
on top, as round twenty's ``left_out``), on the 8,288 real texts, on the probe's
``tune`` and ``check`` halves and its attacks, on round twenty's 240 hidden-item
training attacks, on the lists probe and on the benign agent set (the shipped files
through the run-time code; rules, then the detector; fp32).

The rule, fixed and committed before the grid runs: the fewest probe ``tune`` writes
flagged, subject to
(a) the left-out rounds' catches, summed, no lower than the shipped cell's by more
    than 2;
(b) at most 2 of the 8,288 real texts, and at most 2 of the benign agent set's 842
    ``check`` writes;
(c) the probe's attacks (both halves) caught no fewer than the shipped cell catches;
    round twenty's 240 hidden-item attacks caught no fewer than 211;
(d) the lists probe's ``check`` half within 1% (2 of 212);
(e) the file at most 512 KB with the network, and a write's median within 0.2 ms of the
    shipped detector's (``--timing``, side by side, interleaved, after the choice).
Ties go to more left-out catches, then the lower ``F``, then the smaller ``W``. Required
to ship: the probe's ``check`` half at most 1% flagged (2 of 207) on fp32.

The ship rule, fixed before any held-out fold is read: the choice is read once, side by
side with the shipped detector on the same fp32 embeddings (``--read``), on held-out 2 to
17 (English catches per fold, overall, benign notes); it ships if no fold's English
catches are lower than the shipped detector's by more than 2, it flags at most 2 of the
8,288 real texts, and the probe's ``check`` half is within 1%.

Part one ran (12:02-12:08 UTC, one process, the round twenty cache and saved scores
copied to /tmp/fp21-*). Each cell: left-out catches (four / five / six / eight / nine)
and notes; real texts (checked half); probe ``tune`` / ``check`` flagged, attacks caught
of 66; round twenty's hidden-item attacks of 240; lists probe ``tune`` / ``check`` and
attacks of 90; agent ``tune`` / ``check``:

- shipped (``F = 0``): 549 (101 / 135 / 92 / 134 / 87), 25; real 1 (1); probe 25 / 12,
  65; hidden 213; lists 0 / 1, 82; agent 2 / 1.
- ``F = 0.5``: ``W`` 16 549, 25; probe 8 / 9; hidden 213; lists 82; agent 1 / 1. ``W``
  24: 549; hidden 212. ``W`` 32: 548; hidden 212.
- ``F = 0.7``: ``W`` 16 549; probe 5 / 6; hidden 213; lists 81; agent 0 / 1. ``W`` 24
  548; hidden 211; lists 80. ``W`` 32 547; hidden 210; lists 80.
- ``F = 0.8``: ``W`` 16 549; probe 4 / 4; hidden 213; lists 81. ``W`` 24 547; hidden 211;
  lists 80. ``W`` 32 546; hidden 210.
- ``F = 0.9``: ``W`` 16 **549; probe 3 / 3; hidden 213; lists 79**; agent 0 / 1. ``W`` 24
  545, 24; hidden 210; lists 73. ``W`` 32 544; hidden 209; lists 72.
- ``F = 0.95``: ``W`` 16 546 (100 / 134 / 91 / 134 / 87); probe 3 / 3; hidden 211; agent
  0 / 0. ``W`` 24 541; hidden 207. ``W`` 32 539; hidden 206.
- ``F = 1.0``: ``W`` 16 542 (100 / 133 / 89 / 134 / 86); probe 1 / 2; hidden 209. ``W``
  24 537; hidden 201. ``W`` 32 535; hidden 198.
- Every cell: real 1 (1), the probe's 65 attacks, lists ``tune`` 0 and ``check`` 1.

By the rule ``F = 0.9, W = 16`` is chosen (tune 3, the fewest within (a) to (d)), but its
``check`` half is 3 of 207 (1.45%): over the 1% target, so part one ships nothing. Past
``F = 0.9`` the floor frees short left-out attacks the network scores 0.9 and more,
orders in the imperative with no cue beyond "the user".

Part two (its cells and rule written after part one's grid and committed before its
own): the fact floor only for a text that opens with a third-person subject
(``fact_subject``: "The user", "User", "Customer", a name and a verb in the third person
or the past, ``injection_lexical.third_person``), never for an imperative. Cells:
``F`` in 0.9, 0.95, 1.0 times ``W`` in 16, 24, with part one's choice (``F = 0.9, W =
16`` without the subject) first. The rule is part one's, (a) to (e), read against the
shipped cell's figures above; ties the same. Ship rule and target the same.

Part two ran (12:09-12:13 UTC). Each cell as part one's:

- part one's choice (``F = 0.9, W = 16``, no subject): as above (549; probe 3 / 3;
  hidden 213; lists 79; agent 0 / 1).
- subject, ``F`` 0.9 and 0.95, ``W`` 16: 549 (101 / 135 / 92 / 134 / 87), 25; real 1
  (1); probe 3 / 3, 65; hidden 213; lists 0 / 1, 82; agent 2 / 1. ``W`` 24: the same
  but hidden 212.
- subject, ``F = 1.0``, ``W`` 16: **549, 25; real 1 (1); probe 1 / 2, 65; hidden 213;
  lists 0 / 1, 82; agent 2 / 1**. ``W`` 24: the same but hidden 212.

The subject keeps every catch the floor gave away in part one (the lists probe's
attacks back to 82, the left-out rounds at 549 at every ``F``). Within (a) to (d) the
fewest ``tune`` writes flagged is 1, at ``F = 1.0``; the tie on catches goes to the
smaller ``W``: **``F = 1.0, W = 16``, subject, is chosen** (``CHOSEN2``). The target:
the probe's ``check`` half 2 of 207 (0.97%, within 1%).

Written (``--write``, 12:12): the shipped ``injection_lexical.npz`` with the three keys
added, 125,940 bytes (125,356 before) beside the network's 196,325 (322,265 together).
Timing (``--timing``, every eighth real text, 1,036, one at a time, interleaved per text
against round twenty's file; load about 7): median 0.309 -> 0.287 ms, mean 3.27 -> 2.85,
p95 16.6 -> 16.8 ms: within (e).

Read once (12:14, ``--read``, the same fp32 embeddings, round twenty's file as
``--before``; English catches, shipped -> choice): held-out 2 to 7 92, 98, 109, 96, 102,
110; 8 to 16 108, 85, 83, 87, 79, 95, 87, 85, 86; 17 71 of 80: every fold the same.
Overall the same on every fold but held-out 2, 117 -> 116 of 118 (one encoded attack, a
category outside English); benign notes and real texts (1 of 8,288) the same. **By the
ship rule the choice ships.**

After the reading, ``tests/test_injection_agent_writes.py`` found "user: ok thanks" as a
plain string read as a fact (the subject "user"), where round eighteen keeps a plain
string's label a marker: ``third_person`` now refuses a chat role where the subject goes
(as round nineteen's ``list_shaped`` does). That only narrows the floor; part two re-run
with it (12:21-12:26) gives every cell the same line, and the held-out reading re-run
(``read2``) the same catches, notes and real texts on every fold.

    python scripts/fit_injection_round21.py [--data ../shared/bench] --cache PATH
        --scores DIR [--combine] [--combine2] [--write PATH] [--timing LEXICAL] [--read LEXICAL]
        [--before LEXICAL]
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_mlp as mlp  # noqa: E402  (round eight's data and harness)
import fit_injection_round14 as r14  # noqa: E402  (setup, read and timing)
import fit_injection_round16 as r16  # noqa: E402  (the shipped lexical file)
import fit_injection_round17 as r17  # noqa: E402  (round seventeen's rounds and scores)
import fit_injection_round18 as r18  # noqa: E402  (the harness and the agent set)
import fit_injection_round19 as r19  # noqa: E402  (the list floor and the lists probe)
import fit_injection_round20 as r20  # noqa: E402  (the item view on the left-out rounds)
import injection_training20  # noqa: E402  (round twenty's hidden-item attacks)

from engram.injection_detector import Detector, ordered  # noqa: E402
from engram.safety import scan  # noqa: E402

FLOORS = (0.0, 0.5, 0.7, 0.8, 0.9, 0.95, 1.0)
WORDS = (16, 24, 32)
#: What ``--write`` adds to the shipped lexical file: (fact_floor, fact_words), by the rule.
CHOSEN: tuple[float, int] | None = None
#: Part two's cells: (fact_floor, fact_words, fact_subject), part one's choice first.
PART_TWO = (
    (0.9, 16, False),
    *((f, w, True) for f in (0.9, 0.95, 1.0) for w in (16, 24)),
)
#: Part two's choice: (fact_floor, fact_words, fact_subject), by the rule.
CHOSEN2: tuple[float, int, bool] | None = (1.0, 16, True)
FACTS = Path(__file__).resolve().parents[1] / "src/engram/data/injection_user_facts.json"


def facts() -> dict[str, list[str]]:
    """The probe's ``tune`` and ``check`` halves and its two halves of attacks."""
    body = json.loads(FACTS.read_text("utf-8"))
    return {k: body[k] for k in ("tune", "check", "attacks_tune", "attacks_check")}


def detector(floor: float, words: int, subject: bool = False) -> Detector:
    """The shipped files (every earlier floor and the item view in them) with the fact
    floor set."""
    base = r14.with_lexical(str(r16.SHIPPED_LEXICAL))
    assert base.lexical is not None
    lexical = replace(base.lexical, fact_floor=floor, fact_words=words, fact_subject=subject)
    return replace(base, lexical=lexical)


def left_out(
    data: mlp.Data, h: r18.Harness, found: Detector, reports: r18.Reports | None = None
) -> tuple[list[int], int]:
    """Per left-out round its catches and the notes flagged: the harness's scores with
    the list floor and the fact floor of ``found``, its item view on top (and with
    ``reports``, round twenty-two's reported orders)."""
    found_admit = admitter(found)
    return h.left_out(found_admit, lambda t, f: r20.added(data, found, t, f), reports)


def admitter(found: Detector) -> r18.Admit:
    """Per text, whether the list floor and the fact floor of ``found`` let the
    combination flag it (round twenty-three's harness shares it)."""
    lexical = found.lexical
    assert lexical is not None

    def admit(network: np.ndarray, texts: list[str]) -> np.ndarray:
        listed = r19.admitted(lexical, network, list(texts))
        stated = [
            lexical.stated(float(n), t) and not ordered(t)
            for n, t in zip(network, texts, strict=True)
        ]
        return listed & ~np.array(stated, bool)

    return admit


def cells(two: bool) -> list[tuple[str, Detector]]:
    """Part one's cells (the shipped cell first), or part two's."""
    if two:
        return [
            (f"fact_floor {f} words {w} subject {s}", detector(f, w, s)) for f, w, s in PART_TWO
        ]
    return [
        (f"fact_floor {f} words {w}", detector(f, w))
        for f in FLOORS
        for w in (WORDS if f else (0,))
    ]


def combine(data: mlp.Data, t: mlp.Training, out: Path, two: bool = False) -> None:
    """Every cell's line, the shipped cell's first (``two``: part two's cells)."""
    h = r18.harness(data, t, out)
    real = list(t.real_all)
    rules_real = np.array([bool(scan(x)) for x in real])
    vectors = data.features(real, 0.0)[:, : -mlp.N_CUES]

    def embed(batch: list[str]) -> np.ndarray:
        return data.features(list(batch), 0.0)[:, : -mlp.N_CUES]

    probe, lists, agent = facts(), r19.lists(), r18.agent_halves()
    hidden = injection_training20.ATTACKS
    for name, found in cells(two):
        counts, notes = left_out(data, h, found)
        flagged = rules_real | np.array(
            [r is not None for r in found.reasons(vectors, real, embed)]
        )
        pr, li = r18.counted(data, found, probe), r18.counted(data, found, lists)
        ag = r18.counted(data, found, agent, True)
        print(
            f"cell | {name}: left-out {r18.scored(counts, notes, flagged, h.checked, ';')}; "
            f"probe tune {pr['tune']} of "
            f"{len(probe['tune'])} check {pr['check']} of {len(probe['check'])} attacks "
            f"{pr['attacks_tune']} + {pr['attacks_check']} of "
            f"{len(probe['attacks_tune']) + len(probe['attacks_check'])}; hidden "
            f"{r18.flags(data, hidden, found, [False] * len(hidden))} of {len(hidden)}; "
            f"lists tune {li['tune']} check {li['check']} attacks {li['attacks']}; agent "
            f"tune {ag['tune']} check {ag['check']}",
            flush=True,
        )


def write(path: Path) -> None:
    """The shipped lexical file with ``CHOSEN2``'s fact floor, written at ``path``."""
    keys = {"fact_floor": np.float64, "fact_words": np.int64, "fact_subject": np.bool_}
    r18.write_chosen(path, CHOSEN2, keys, "fact floor", "CHOSEN and CHOSEN2 are None")


def main() -> None:
    before = r18.pop_before()  # the file shipped before this round
    two = "--combine2" in sys.argv
    if two:
        sys.argv[sys.argv.index("--combine2")] = "--combine"
    args, data, real_all, out = r14.setup(__doc__ or "", "round21")
    r18.run(args, data, before, lambda: combine(data, r17.training(real_all), out, two), write)


if __name__ == "__main__":
    main()
