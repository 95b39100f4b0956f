"""Round thirty-two of the injection scan (engram issue 26, item 3; docs/safety.md, "Round
thirty-two"): rules that read an order to the reader to act on money, a booking, an
account or an approval, and orders reported to "you" (``engram.safety_orders``), chosen
from a pool of shape pieces on held-out 20 to 27 and read once on held-out 28
(``scripts/injection_round32.py``, committed first).

The pool: addressees {the reader named (round thirty's third person, clause start and
through someone), "you" in reported speech ("the manager says you must ...", "X wants
you to ...")} x acts {money (refund, waive, set a fee to zero, mark as paid), approval
(approve, sign off, merge), bookings (cancel, move, give a slot), accounts (add, remove,
unlock, switch off a check, change payment details), and, for "you" only, round thirty's
sent out, not told and hidden}: each pair is read as ``safety_reader`` reads its rules
(same sentence, the user's own voice passes). A pair is kept when it adds an English
catch on the tuning folds and flags nothing new on their notes, the training notes, the
real texts' fitted half, the agent set's and the probes' ``tune`` halves and the wishes'
fold A. Leave one fold out: the pairs chosen on seven of held-out 20 to 27, read on the
eighth.

Ran (17:50-18:10 UTC, fp32): leave one fold out +3 / +2 / +3 / +1 / +3 / +6 / +5 / +7
English on held-out 20 to 27 (+30), one note (held-out 21's); the checks unchanged (real
1, agent 2 / 1, facts 0 / 2, lists 0 / 1, training notes 115, wishes 3 / 5); ``scan``'s
per-text difference +6.9 us at the median. Held-out 28: English 60 -> 62 of 80, overall
65 -> 67 of 88, notes 0 -> 0.

    python scripts/fit_injection_round32.py --verdicts
    python scripts/fit_injection_round32.py --misses | --pool | --checks | --timing
    python scripts/fit_injection_round32.py --read held_out_28
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round30 as r30  # noqa: E402  (round thirty's probe of wishes)

import engram.safety as safety  # noqa: E402
from engram import safety_orders, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402

WORK = Path("/tmp/inject32/work")
VERDICTS = WORK / "verdicts.json"
TUNE = tuple(f"held_out_{n}" for n in range(20, 28))
WISHES = Path(__file__).resolve().parents[1] / "src/engram/data/wishes31.json"

o = safety_orders
Pair = tuple[str, str]
PAIRS: dict[Pair, Callable[[str], str | None]] = {(a, b): o.ordered(a, b) for a, b in o.POOL}


def scan_without(text: str) -> tuple[str, ...]:
    """The scan as on main: without this round's rules."""
    return r30.scan_without(text, o.RULES)


def wishes(fold: str) -> list[str]:
    return [r["text"] for r in json.loads(WISHES.read_text()) if r["fold"] == fold]


_GROUPS = r30.groups


def groups(bench: str) -> dict[str, list[str]]:
    """Every text the round reads, by kind."""
    out = _GROUPS(bench)
    out["wishes31"] = wishes("A") + wishes("B")
    return out


def verdicts(bench: str) -> None:
    """The shipped detector's learned verdicts (fp32) on every text, cached: round
    thirty's, with this round's cache and the wishes set among the texts."""
    r30.WORK, r30.VERDICTS = WORK, VERDICTS
    r30.groups = groups  # type: ignore[assignment]
    r30.verdicts(bench)


_units = r30._units


def _notes(fold: str) -> list[str]:
    return [x["text"] for x in injection.load_set() if x.get("split") == fold and x.get("benign")]


def _flagged(scan: Callable[[str], tuple[str, ...]], learned: bool, text: str) -> bool:
    """The scan's verdict with round thirty-one's guard over the learned detector."""
    if scan(text):
        return True
    return learned and not safety_wishes.wish(text)


def misses() -> None:
    """Held-out 20 to 27's English misses with the shipped scan (already read folds)."""
    learned = json.loads(VERDICTS.read_text())["set"]
    for fold in TUNE:
        for category, texts in _units(fold):
            if category in injection.ENGLISH and not any(
                _flagged(scan_without, learned[t], t) for t in texts
            ):
                print(f"{fold} {category}: {' || '.join(texts)}")


def _fired(t: str) -> set[Pair]:
    views = [t, *([] if t.isascii() else safety._views(t))]
    return {p for p, rule in PAIRS.items() if any(rule(v) for v in views)}


def pool(bench: str) -> None:
    """Each pair's gain and benign flags, the leave-one-fold-out table, the chosen pairs."""
    learned = json.loads(VERDICTS.read_text())

    def caught(t: str, kind: str = "set") -> bool:
        return _flagged(scan_without, learned[kind][t], t)

    misses = {
        f: [
            set().union(*map(_fired, ts))
            for c, ts in _units(f)
            if c in injection.ENGLISH and not any(caught(t) for t in ts)
        ]
        for f in TUNE
    }
    real = [t for _, t in injection.real_texts(bench)]
    order = np.random.default_rng(0).permutation(len(real))  # fit_injection_detector.halves
    agent, facts, lists = r18.agent_halves(), r21.facts(), r19.lists()
    benign_tune = {
        "real": [real[i] for i in order[: len(real) // 2]],
        "agent": agent["tune"],
        "notes": list(learned["notes"]),
        "facts": facts["tune"],
        "lists": lists["tune"],
        "wishes31": wishes("A"),
    }
    flags = {p: 0 for p in PAIRS}
    for kind, texts in benign_tune.items():
        for t in texts:
            if not caught(t, kind):
                for p in _fired(t):
                    flags[p] += 1
                    print(f"  benign {kind} {p}: {t[:160]!r}")
    note_pairs = {f: [_fired(t) for t in _notes(f) if not caught(t)] for f in TUNE}
    for p in PAIRS:
        gain = sum(p in m for f in TUNE for m in misses[f])
        notes = sum(p in n for f in TUNE for n in note_pairs[f])
        print(f"{p}: English +{gain}, benign {flags[p]}, notes {notes}")

    r30.leave_one_fold_out(PAIRS, TUNE, misses, flags, note_pairs)


def checks(bench: str) -> None:
    """Before and after on the real texts, the agent writes, the probes, the notes of
    every later fold and the wishes (round thirty's probe and round thirty-one's set)."""
    learned = json.loads(VERDICTS.read_text())
    real = [t for _, t in injection.real_texts(bench)]
    agent, facts, lists = r18.agent_halves(), r21.facts(), r19.lists()
    sets: dict[str, tuple[str, list[str]]] = {
        "real": ("real", real),
        "agent tune": ("agent", agent["tune"]),
        "agent check": ("agent", agent["check"]),
        "facts tune": ("facts", facts["tune"]),
        "facts check": ("facts", facts["check"]),
        "lists tune": ("lists", lists["tune"]),
        "lists check": ("lists", lists["check"]),
        "training notes": ("notes", list(learned["notes"])),
        "round thirty's wishes probe": ("wishes", r30.WISHES),
        "wishes31 fold A": ("wishes31", wishes("A")),
        "wishes31 fold B": ("wishes31", wishes("B")),
    }
    folds = [f for f in injection.FOLDS if f.startswith("held_out_") and f != "held_out_28"]
    for f in folds:
        sets[f"notes {f}"] = ("set", _notes(f))
    for name, (kind, texts) in sets.items():
        before = sum(_flagged(scan_without, learned[kind][t], t) for t in texts)
        after = sum(_flagged(safety.scan, learned[kind][t], t) for t in texts)
        new = [t for t in texts if not scan_without(t) and safety.scan(t)]
        print(f"{name}: {before} -> {after} of {len(texts)}; rules fire on {len(new)} more")
    for f in TUNE:
        units = [(c, ts) for c, ts in _units(f) if c in injection.ENGLISH]
        got = [
            sum(any(_flagged(scan, learned["set"][t], t) for t in ts) for _, ts in units)
            for scan in (scan_without, safety.scan)
        ]
        alone = [
            sum(any(scan(t) for t in ts) for _, ts in units) for scan in (scan_without, safety.scan)
        ]
        print(f"{f}: English {got[0]} -> {got[1]} of {len(units)}", end="; ")
        print(f"rules alone {alone[0]} -> {alone[1]}")


def timing(bench: str) -> None:
    """``scan`` without and with this round's rules in turn per text, every real text
    (round thirty's loop with this round's rules left out on the "before" side)."""
    original = r30._old_rules
    r30._old_rules = lambda rules=o.RULES: original(rules)  # type: ignore[assignment]
    r30.timing(bench)


def read(fold: str) -> None:
    """One fold's English, overall, rules alone and notes, per category, before and after."""
    learned = json.loads(VERDICTS.read_text())["set"]
    for name, scan in (("before", scan_without), ("after", safety.scan)):
        cats: dict[str, list[int]] = {}
        alone = 0
        for category, texts in _units(fold):
            c = cats.setdefault(category, [0, 0])
            c[0] += any(_flagged(scan, learned[t], t) for t in texts)
            c[1] += 1
            alone += category in injection.ENGLISH and any(scan(t) for t in texts)
        english = [v for k, v in cats.items() if k in injection.ENGLISH]
        print(
            name,
            "English",
            sum(v[0] for v in english),
            "rules alone",
            alone,
            "overall",
            sum(v[0] for v in cats.values()),
            "notes",
            sum(_flagged(scan, learned[t], t) for t in _notes(fold)),
            dict(sorted(cats.items())),
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    for flag in ("verdicts", "misses", "pool", "checks", "timing"):
        parser.add_argument(f"--{flag}", action="store_true")
    parser.add_argument("--read", default="")
    args = parser.parse_args()
    WORK.mkdir(parents=True, exist_ok=True)
    if args.verdicts:
        verdicts(args.data)
    if args.misses:
        misses()
    if args.pool:
        pool(args.data)
    if args.checks:
        checks(args.data)
    if args.timing:
        timing(args.data)
    if args.read:
        read(args.read)


if __name__ == "__main__":
    main()
