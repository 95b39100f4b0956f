"""Round fifteen of the learned injection detector (engram issue 26, item 3;
docs/safety.md, "Round fifteen"): round fourteen's combination (the logistic on the
shipped network's and the ``words`` lexical model's scores, the real texts weighed 30,
its threshold bounded by the notes and the real texts at one per fit's checked half)
refitted with round fifteen's benign notes (``scripts/injection_training15.py``, written
after held-out 14), and its threshold bounded by those notes too.

Why: round fourteen's choice reached 0.91 English on held-out 13 but flagged 37 benign
held-out notes over held-out 2 to 13 against the shipped detector's 34 (held-out 10 +4,
13 +3): the five hand-written training rounds whose notes bounded its threshold did not
speak for the registers of those folds' notes.

How the new notes bound the threshold out of fold: round fifteen's examples (attacks and
notes) are cut into five parts (sorted, every fifth), and each part leaves with one of
the five left-out rounds (``rounds``): the lexical model fitted without round four also
never reads the first part, and so on. The network never reads round fifteen's
examples, so the shipped network's scores of them are out of fold (the left-out rounds'
own texts keep the per-round networks' scores, refitted by round thirteen's harness:
``--by-round``). So every new note is a left-out note: it counts in the notes flagged,
and it bounds the threshold of the other four rounds' logistic and of the fit on
everything, as the hand-written rounds' notes do.

The cells (``--lexical`` then ``--combine``): the lexical settings of ``LEXICAL``, each
in the modes of ``MODES`` (round fourteen's ``logistic rW, tight``: the logistic with the
checked real texts weighed W, its threshold the lowest, at least 0.5, at which the other
four rounds' notes flagged are no more than the network alone's there and their fits
flag at most one checked real text each):

- ``notes x2 + r13 + r14`` (round fourteen's choice, without round fifteen's examples in
  the lexical model; a reference on the new left-out sets, **not a candidate**);
- ``notes x2 + r13 + r14 + r15``: the same with round fifteen's examples (the brief's
  lever: round fourteen's combination refitted with the new notes);
- ``notes x3 + r13 + r14 + r15``: its notes weighed x3 (90 per note).

Each with the real texts weighed 30 (round fourteen's choice) and 300: four candidate
cells, five network fits (one per left-out round) and 18 lexical fits.

The rule, fixed and committed before the grid runs: the most English catches summed over
the five left-out rounds (each with its part of round fifteen's attacks), over the four
candidate cells, subject to
(a) the left-out notes flagged (the hand-written rounds' and round fifteen's parts),
    summed, no more than the network alone flags there;
(b) round fifteen's left-out notes flagged, summed, no more than the network alone flags
    among them (the registers round fourteen's choice lost on);
(c) the shipped network with the cell's lexical model fitted on everything and its
    logistic flagging at most 2 of the 8,288 real texts (the shipped detector flags 2)
    and at most 2 of the checked half;
(d) more catches than the network alone (else nothing is read against a candidate and
    the shipped detector stays);
(e) the shipped files at most 512 KB together, and a write's median within 0.2 ms of the
    shipped detector's (the run-time code is round fourteen's, now ``engram.injection_lexical``,
    +0.12-0.13 ms there; ``--timing``, side by side, after the choice).
Ties go to fewer left-out notes, then fewer real texts, then the lower real-text weight,
then the lower notes weight.

Ran (load 9-12; five network fits reproduced round thirteen's scores exactly: 95 / 124 /
58 / 123 / 72, 17 notes): on the left-out rounds with their parts of round fifteen's
examples, the network alone catches 492 (98 / 129 / 62 / 127 / 76) and flags 31 notes,
14 of them round fifteen's (of 71), and 2 real texts (2 checked). Each cell: catches;
notes (round fifteen's); real texts (checked):

- ``notes x2 + r13 + r14`` (reference): r30 529; 25 (13); 2 (1). r300 530; 26 (14); 2 (1).
- ``notes x2 + r13 + r14 + r15``: r30 528 (97 / 131 / 88 / 131 / 81); 25 (10); 1 (0).
  r300 **529** (98 / 131 / 88 / 131 / 81); 26 (10); 2 (1), threshold 0.9899.
- ``notes x3 + r13 + r14 + r15``: r30 524; 18 (7); 1 (0). r300 528; 21 (8); 1 (0).

Every candidate is within (a) to (d); the most catches, ``notes x2 + r13 + r14 + r15``
with the real texts weighed 300 (529), is **chosen** (``CHOSEN``).

The ship rule, fixed and committed before held-out 14 (fresh) and held-out 2 to 13
(checks; read before) are read, once, side by side with the shipped detector on the same
cached embeddings (``--read``): the choice ships if its English catches on held-out 14
are at least the shipped detector's, it flags at most 2 of the 8,288 real texts, and it
flags no more benign notes than the shipped detector summed over held-out 2 to 14. If no
cell meets the rule above, nothing is read against a candidate and the shipped detector
stays (held-out 14 is then read with the shipped detector alone, for its test).

    python scripts/fit_injection_round15.py [--data ../shared/bench] [--by-round]
        [--round NAME] [--lexical] [--combine] [--write PATH] [--timing LEXICAL]
        [--read [LEXICAL]]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from engram.bench.injection import real_texts
from engram.injection_detector import Detector
from engram.safety import scan

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_lexical as lex  # noqa: E402  (round twelve's lexical view)
import fit_injection_mlp as mlp  # noqa: E402  (round eight's network, data and harness)
import fit_injection_notes as notes  # noqa: E402  (round eleven's fit: the shipped setting)
import fit_injection_round13 as r13  # noqa: E402  (the network's per-round scores, Stack)
import fit_injection_round14 as r14  # noqa: E402  (the logistic bounded by notes and real)
import fit_injection_window as window  # noqa: E402  (round nine's rounds and grid setup)
import injection_training15  # noqa: E402  (round fifteen's training-only examples)

#: The lexical settings: round fourteen's choice (a reference) and with round fifteen's
#: examples, its notes weighed x2 and x3.
LEXICAL: dict[str, dict[str, float]] = {
    "notes x2 + r13 + r14": {"benign_weight": 60.0, "r13": 1, "r14": 1, "r15": 0},
    "notes x2 + r13 + r14 + r15": {"benign_weight": 60.0, "r13": 1, "r14": 1, "r15": 1},
    "notes x3 + r13 + r14 + r15": {"benign_weight": 90.0, "r13": 1, "r14": 1, "r15": 1},
}
REFERENCE = "notes x2 + r13 + r14"
MODES = ("logistic r30, tight", "logistic r300, tight")
#: What ``--write`` fits: (lexical setting, mode), chosen by the rule (the docstring).
CHOSEN: tuple[str, str] | None = ("notes x2 + r13 + r14 + r15", "logistic r300, tight")
#: Round fifteen's training-only examples.
FIFTEEN = notes.examples(
    injection_training15.ROUND_FIFTEEN_ATTACKS, injection_training15.ROUND_FIFTEEN_BENIGN
)
dropped = notes.adding(r14.dropped, "r15", FIFTEEN)


def training(real_all: list[str]) -> mlp.Training:
    """Round fourteen's training data and round fifteen's examples (``dropped`` decides)."""
    return notes.with_examples(r14.training(real_all), FIFTEEN)


def parts(everything: notes.Examples = FIFTEEN) -> dict[str, tuple[set[str], set[str]]]:
    """Round fifteen's examples (or a later round's, ``everything``) cut in five (sorted,
    every fifth), one part per left-out round, in ``window.rounds()`` order."""
    attacks, benign = everything()
    a, n = sorted(t for t, _ in attacks), sorted(benign)
    return {
        name: (
            {x for i, x in enumerate(a) if i % 5 == k},
            {x for i, x in enumerate(n) if i % 5 == k},
        )
        for k, name in enumerate(window.rounds())
    }


#: The left-out rounds: per round, its attacks and its notes.
Rounds = dict[str, tuple[set[str], set[str]]]


def with_parts(base: Rounds, everything: notes.Examples) -> Rounds:
    """The left-out rounds ``base``, each with its part of ``everything`` (``parts``)."""
    extra = parts(everything)
    return {
        name: (attacks | extra[name][0], kept | extra[name][1])
        for name, (attacks, kept) in base.items()
    }


def newest_notes(everything: notes.Examples) -> dict[str, set[str]]:
    """Per left-out round, the notes of its part of ``everything`` (a round's newest)."""
    return {name: part[1] for name, part in parts(everything).items()}


def rounds() -> Rounds:
    """The five left-out rounds, each with its part of round fifteen's examples."""
    return with_parts(window.rounds(), FIFTEEN)


def lexical_model(t: mlp.Training, name: str, out_a: set[str], out_n: set[str]) -> lex.Lexical:
    """The lexical setting ``name`` fitted on what the network reads without ``out_a`` and
    ``out_n`` (and rounds thirteen to fifteen's examples when the setting names them)."""
    s = {**r13.NETWORK, **LEXICAL[name]}
    return r13.lexical_of(t, s, dropped(s), out_a, out_n)


def lexical_scores(t: mlp.Training, out: Path, only: str) -> None:
    """Per lexical setting, each left-out round's model's scores of the round's English
    attacks, notes (round fifteen's part included) and the checked real texts; and the
    model fitted on everything's scores of every real text (round thirteen's loop)."""
    r13.lexical_scores(t, out, only, LEXICAL, lexical_model, rounds(), "lex15")


def network_scores(
    data: mlp.Data,
    t: mlp.Training,
    out: Path,
    rules_checked: np.ndarray,
    split: dict[str, tuple[set[str], set[str]]] | None = None,
    newest: dict[str, set[str]] | None = None,
) -> dict[str, dict[str, Any]]:
    """Per left-out round: the per-round network's saved scores of the round's own texts,
    the shipped network's of its part of round fifteen's examples (never read by any
    network), and what it and the rules flag. ``split`` and ``newest``: the left-out
    rounds and, per round, the notes of the newest round's part (``fifteen`` marks them;
    round sixteen adds its own part; by default round fifteen's)."""
    net = Detector.from_arrays(dict(np.load(r13.SHIPPED)))
    base = window.rounds()
    t13 = r13.training(t.real_all)
    newest = newest or {name: part[1] for name, part in parts().items()}
    per: dict[str, dict[str, Any]] = {}
    for name, (out_a, out_n) in (split or rounds()).items():
        test, left, rules_t, rules_n = mlp.left_out(t.attacks, out_a, out_n)
        old_t, old_n, _, _ = mlp.left_out(t13.attacks, *base[name])
        got = dict(np.load(out / f"net--{name}.npz"))
        known = {
            **dict(zip(old_t, got["st"], strict=True)),
            **dict(zip(old_n, got["sl"], strict=True)),
        }
        new = [x for x in test + left if x not in known]
        if new:
            vectors = data.features(new, 0.0)[:, : -mlp.N_CUES]
            known.update(zip(new, net.probabilities(vectors, new), strict=True))
        scores = {
            "st": np.array([known[x] for x in test]),
            "sl": np.array([known[x] for x in left]),
            "sr": got["sr"],
            "th": got["th"],
        }
        fifteen = np.array([x in newest[name] for x in left])
        per[name] = round_scores(scores, fifteen, rules_t, rules_n, rules_checked)
    return per


def round_scores(
    got: dict[str, Any],
    newest: np.ndarray,
    rules_t: np.ndarray,
    rules_n: np.ndarray,
    rules_checked: np.ndarray,
) -> dict[str, Any]:
    """A left-out round's entry of ``network_scores``: the network's scores (``st``,
    ``sl``, ``sr``) and threshold ``th`` in ``got``, which notes are the newest round's,
    what the rules flag, and what the network and the rules flag together."""
    st, sl, th = got["st"], got["sl"], got["th"]
    out = {"st": st, "sl": sl, "sr": got["sr"], "th": th, "newest": newest}
    out.update(rules_t=rules_t, rules_n=rules_n, rules_r=rules_checked)
    out["net_t"] = rules_t | (st >= th)
    out["net_n"] = rules_n | (sl >= th)
    out["net_r"] = rules_checked | (got["sr"] >= th)
    return out


def _lexs(out: Path, lname: str, per: dict[str, Any], prefix: str = "lex15") -> dict[str, Any]:
    lexs = {}
    for name in per:
        got = np.load(out / f"{prefix}--{lname}--{name}.npz")
        lexs[name] = (got["lt"], got["ln"], got["lr"])
    return lexs


def left_out_hits(
    per: dict[str, Any], lexs: dict[str, Any], weight: float, mode: str
) -> Iterator[tuple[str, np.ndarray, np.ndarray]]:
    """Per left-out round, what a cell (its notes ``weight`` and ``mode``) flags among the
    round's attacks and notes, its logistic fitted on the other four rounds."""
    for name, p in per.items():
        others = [o for o in per if o != name]
        stack, th = r14._cell(per, lexs, others, weight, mode)
        hit_t = p["rules_t"] | (stack.scores(p["st"], lexs[name][0]) >= th)
        yield name, hit_t, p["rules_n"] | (stack.scores(p["sl"], lexs[name][1]) >= th)


def combine(data: mlp.Data, t: mlp.Training, out: Path, only: str) -> None:
    """Every cell of the rule (the docstring), from the saved scores; the real texts with
    the shipped network and each lexical model fitted on everything."""
    rules_real = np.array([bool(scan(x)) for x in t.real_all])
    checked_mask = np.ones(len(t.real_all), bool)
    checked_mask[t.fitted] = False
    net = Detector.from_arrays(dict(np.load(r13.SHIPPED)))
    vectors = data.features(t.real_all, 0.0)[:, : -mlp.N_CUES]
    net_real = net.probabilities(vectors, t.real_all)
    per = network_scores(data, t, out, rules_real[checked_mask])
    alone_real = rules_real | (net_real >= net.threshold)
    fifteen_alone = sum(int(p["net_n"][p["newest"]].sum()) for p in per.values())
    thresholds = " / ".join(f"{float(p['th']):.4f}" for p in per.values())
    print(
        f"{r13.alone_line(per, alone_real, checked_mask)}; round fifteen's notes "
        f"{fifteen_alone}; per-round thresholds {thresholds}",
        flush=True,
    )
    for lname, ls in LEXICAL.items():
        if only and lname not in only.split("|"):
            continue
        lexs = _lexs(out, lname, per)
        lex_real = np.load(out / f"lex15--{lname}--everything.npz")["real"]
        for mode in MODES:
            counts, flagged, fifteen = [], 0, 0
            for name, hit_t, hit_n in left_out_hits(per, lexs, ls["benign_weight"], mode):
                counts.append(int(hit_t.sum()))
                flagged += int(hit_n.sum())
                fifteen += int(hit_n[per[name]["newest"]].sum())
            stack, th = r14._cell(per, lexs, list(per), ls["benign_weight"], mode)
            hit_r = rules_real | (stack.scores(net_real, lex_real) >= th)
            line = r13.cell_line(f"{lname} | {mode}", th, counts, flagged, hit_r, checked_mask)
            print(f"{line}; round fifteen's notes {fifteen}", flush=True)


def checked_rules(t: mlp.Training) -> np.ndarray:
    """Whether the rules flag each real text of the checked half (the half no fit reads)."""
    checked = np.ones(len(t.real_all), bool)
    checked[t.fitted] = False
    return np.array([bool(scan(x)) for x in np.asarray(t.real_all, object)[checked]])


def write(data: mlp.Data, t: mlp.Training, out: Path, path: Path) -> None:
    """``CHOSEN``'s lexical model fitted on everything and its logistic fitted on all five
    rounds' out-of-fold scores, written as ``engram.injection_lexical.Lexical`` reads it;
    then the real texts the shipped network flags with it."""
    if CHOSEN is None:
        raise SystemExit("no cell chosen: CHOSEN is None (the grid's rule chose nothing)")
    lname, mode = CHOSEN
    model = lexical_model(t, lname, set(), set())
    per = network_scores(data, t, out, checked_rules(t))
    stack, th = r14._cell(
        per, _lexs(out, lname, per), list(per), LEXICAL[lname]["benign_weight"], mode
    )
    r14.save(data, t, model, stack, th, path, f"{lname}, {mode}")


#: A round script's steps: the training data, the lexical scores, the grid, the write.
Steps = tuple[
    Callable[[list[str]], mlp.Training],
    Callable[[mlp.Training, Path, str], None],
    Callable[[mlp.Data, mlp.Training, Path, str], None],
    Callable[[mlp.Data, mlp.Training, Path, Path], None],
]


def run(doc: str, name: str, steps: Steps, before: str = "") -> None:
    """Round fifteen's and later rounds' switches (``r14.setup``) run through their
    ``steps``; ``--timing`` and ``--read`` weigh against ``before`` (a lexical file
    beside the shipped network; the network alone by default)."""
    training_of, lexical_of, combine_of, write_of = steps
    args, data, real_all, out = r14.setup(doc, name)
    t = training_of(real_all)
    if args.lexical:
        lexical_of(t, out, args.only)
    if args.combine:
        combine_of(data, t, out, args.only)
    if args.timing:
        r14.timing(data, real_all, args.timing, before)
    if args.write:
        write_of(data, t, out, Path(args.write))
    if args.read is not None:
        r14.read(data, real_texts(args.data), args.read, before)


def main() -> None:
    run(__doc__ or "", "round15", (training, lexical_scores, combine, write))


if __name__ == "__main__":
    main()
