"""Round thirty-four (inject38; docs/safety.md, "Round thirty-four"): the pool of
``engram.safety_standing``, the choice, leave one fold out, and every check base -> new.

The shipped detector's reasons are read from a cache made with the stated-value guard off
(``scripts/fp36_checks.py --verdicts``, copied to ``/tmp/inject38/verdicts-main-noguard.json``;
``--acks`` adds acks36's texts to ``/tmp/inject38/acks-noguard.json``). A text counts as
flagged as a write meets it: the rules (``engram.safety.scan``), else the detector's reason
unless the wish guard or the stated-value guard passes it.

The choice rule (round thirty's and thirty-two's, with acks36's tune fold added): keep a
piece that adds at least one English catch on the tuning attacks (held-out 20 to 28 and
acks36's tune look-alikes) and flags nothing new on the tuning folds' notes, the 2,877
training notes, the real texts' fitted half, the agent set's and the probes' ``tune``
halves, the wishes' fold A and acks36's tune notes.

Ran (09:40-10:03 UTC, fp32): 9 of 17 pieces kept, none flagging a benign tuning text;
leave one fold out +28 of held-out 20 to 28's 77 misses; held-out 2 to 28 English 2,358
-> 2,389 (held-out 28 62 -> 70), acks36 tune look-alikes 24 -> 32, every benign set the
same or lower.

    PYTHONPATH=src python scripts/inject38_measure.py --acks      # cache acks36 (fp32)
    PYTHONPATH=src python scripts/inject38_measure.py --misses    # held-out 28, acks tune
    PYTHONPATH=src python scripts/inject38_measure.py --pool      # pool, LOFO, choice
    PYTHONPATH=src python scripts/inject38_measure.py --checks    # base -> new, everywhere
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round30 as r30  # noqa: E402  (scan without rules, the wishes probe)

from engram import (  # noqa: E402
    injection_detector,
    safety,
    safety_standing,
    safety_values,
    safety_wishes,
)
from engram.bench import injection  # noqa: E402

WORK = Path("/tmp/inject38")
CACHE = WORK / "verdicts-main-noguard.json"
ACKS_CACHE = WORK / "acks-noguard.json"
DATA = Path(__file__).resolve().parents[1] / "src/engram/data"
TUNE = tuple(f"held_out_{n}" for n in range(20, 29))
POOL = safety_standing.POOL


def acks(fold: str, label: str) -> list[str]:
    rows = json.loads((DATA / "acks36.json").read_text("utf-8"))
    return [r["text"] for r in rows if r["fold"] == fold and r["label"] == label]


def wishes31(fold: str) -> list[str]:
    return [
        r["text"] for r in json.loads((DATA / "wishes31.json").read_text()) if r["fold"] == fold
    ]


def cache_acks() -> None:
    """The detector's reasons on acks36 (fp32, the stated-value guard off)."""
    texts = sorted({r["text"] for r in json.loads((DATA / "acks36.json").read_text("utf-8"))})
    embed = r30.fp32_embed(WORK / "vectors.npz")
    found = injection_detector.shipped()
    assert found is not None
    keep = safety_values.stated
    safety_values.stated = lambda text: False  # type: ignore[assignment]
    try:
        got = found.reasons(embed(texts), texts, embed)
    finally:
        safety_values.stated = keep  # type: ignore[assignment]
    ACKS_CACHE.write_text(json.dumps(dict(zip(texts, got, strict=True))))


def _cached() -> dict[str, dict[str, str | None]]:
    out: dict[str, dict[str, str | None]] = json.loads(CACHE.read_text())
    out["acks"] = json.loads(ACKS_CACHE.read_text())
    return out


Scan = Callable[[str], tuple[str, ...]]


def scan_without(text: str) -> tuple[str, ...]:
    """The scan as on main: without this round's rules."""
    return r30.scan_without(text, safety_standing.RULES)


def verdict(cached: dict[str, dict[str, str | None]], kind: str) -> Callable[[Scan, str], bool]:
    def flagged(scan: Scan, text: str) -> bool:
        if scan(text):
            return True
        reason = cached[kind].get(text)
        if reason is None or safety_wishes.wish(text):
            return False
        bare = injection_detector.unlabelled(text) if kind == "agent" else text
        return not safety_values.stated(bare)

    return flagged


def _units(fold: str) -> list[tuple[str, list[str]]]:
    return r30._units(fold)


def _notes(fold: str) -> list[str]:
    return [x["text"] for x in injection.load_set() if x.get("split") == fold and x.get("benign")]


def _fired(t: str) -> set[str]:
    views = [t, *([] if t.isascii() else safety._views(t))]
    return {name for name, (_, rule, _) in POOL.items() if any(rule(v) for v in views)}


def misses() -> None:
    """Held-out 28's English misses and acks36's tune look-alikes missed, with main's scan."""
    cached = _cached()
    f = verdict(cached, "set")
    for category, texts in _units("held_out_28"):
        if category in injection.ENGLISH and not any(f(scan_without, t) for t in texts):
            print(f"held_out_28 {category}: {' || '.join(texts)}")
    a = verdict(cached, "acks")
    for t in acks("tune", "attack"):
        if not a(scan_without, t):
            print(f"acks36 tune: {t}")


def _benign_tune(bench: str) -> dict[str, tuple[str, list[str]]]:
    real = [t for _, t in injection.real_texts(bench)]
    order = np.random.default_rng(0).permutation(len(real))  # fit_injection_detector.halves
    agent, facts, lists = injection.agent_writes(), r21.facts(), r19.lists()
    cached = _cached()
    out = {
        "real (fitted half)": ("real", [real[i] for i in order[: len(real) // 2]]),
        "agent tune": ("agent", agent["tune"]),
        "training notes": ("notes", sorted(cached["notes"])),
        "facts tune": ("facts", facts["tune"]),
        "lists tune": ("lists", lists["tune"]),
        "wishes31 A": ("wishes31", wishes31("A")),
        "acks36 tune notes": ("acks", acks("tune", "benign")),
    }
    for fold in TUNE:
        out[f"notes {fold}"] = ("set", _notes(fold))
    return out


def pool(bench: str) -> None:
    """Each piece's gain and benign flags, leave one fold out, and the pieces chosen."""
    cached = _cached()
    f = verdict(cached, "set")
    missed = {
        fold: [
            set().union(*map(_fired, ts))
            for c, ts in _units(fold)
            if c in injection.ENGLISH and not any(f(scan_without, t) for t in ts)
        ]
        for fold in TUNE
    }
    a = verdict(cached, "acks")
    looks = [_fired(t) for t in acks("tune", "attack") if not a(scan_without, t)]
    benign: dict[str, int] = dict.fromkeys(POOL, 0)
    for name, (kind, texts) in _benign_tune(bench).items():
        g = verdict(cached, kind)
        for t in texts:
            if not g(scan_without, t):
                for p in _fired(t):
                    benign[p] += 1
                    print(f"  benign {name} {p}: {t[:160]!r}")
    for p in POOL:
        gain = {fold: sum(p in m for m in missed[fold]) for fold in TUNE}
        print(
            f"{p}: English +{sum(gain.values())} {gain}, acks tune look-alikes "
            f"+{sum(p in m for m in looks)}, benign {benign[p]}"
        )
    print("leave one fold out (chosen on the others and the acks, read on the one left):")
    total = 0
    for out in TUNE:
        chosen = [
            p
            for p in POOL
            if benign[p] == 0
            and (
                sum(p in m for f2 in TUNE if f2 != out for m in missed[f2])
                + sum(p in m for m in looks)
            )
        ]
        added = sum(bool(m & set(chosen)) for m in missed[out])
        total += added
        print(f"  {out}: {len(chosen)} chosen {chosen}, English +{added}")
    print(f"  summed +{total} of {sum(len(m) for m in missed.values())} misses")
    chosen = [
        p
        for p in POOL
        if benign[p] == 0
        and (sum(p in m for fold in TUNE for m in missed[fold]) + sum(p in m for m in looks))
    ]
    print("chosen on all:", chosen)


def checks(bench: str) -> None:
    """Base (main's scan) -> new (this tree's) on every benign set and fold."""
    cached = _cached()
    agent, facts, lists = injection.agent_writes(), r21.facts(), r19.lists()
    sets: dict[str, tuple[str, list[str]]] = {
        "real (distinct)": ("real", sorted(cached["real"])),
        "agent tune": ("agent", agent["tune"]),
        "agent check": ("agent", agent["check"]),
        "facts tune": ("facts", facts["tune"]),
        "facts check": ("facts", facts["check"]),
        "lists tune": ("lists", lists["tune"]),
        "lists check": ("lists", lists["check"]),
        "training notes": ("notes", sorted(cached["notes"])),
        "round thirty's wishes probe": ("wishes", list(r30.WISHES)),
        "wishes31 A": ("wishes31", wishes31("A")),
        "wishes31 B": ("wishes31", wishes31("B")),
        "acks36 tune notes": ("acks", acks("tune", "benign")),
        "acks36 held_out notes": ("acks", acks("held_out", "benign")),
    }
    for name, (kind, texts) in sets.items():
        g = verdict(cached, kind)
        before = sum(g(scan_without, t) for t in texts)
        after = sum(g(safety.scan, t) for t in texts)
        print(f"{name}: {before} -> {after} of {len(texts)}")
    a = verdict(cached, "acks")
    for fold in ("tune", "held_out"):
        texts = acks(fold, "attack")
        got = [sum(a(s, t) for t in texts) for s in (scan_without, safety.scan)]
        print(f"acks36 {fold} look-alikes caught: {got[0]} -> {got[1]} of {len(texts)}")
    for key in ("lists_attacks", "facts_attacks"):
        g = verdict(cached, key)
        texts = sorted(cached[key])
        got = [sum(g(s, t) for t in texts) for s in (scan_without, safety.scan)]
        print(f"{key} caught: {got[0]} -> {got[1]} of {len(texts)}")
    f = verdict(cached, "set")
    total = [[0, 0, 0], [0, 0, 0]]
    folds = ["tune", "held_out", *(f"held_out_{n}" for n in range(2, 29))]
    for fold in folds:
        cells = []
        units = _units(fold)
        for side, s in enumerate((scan_without, safety.scan)):
            eng = sum(1 for c, ts in units if c in injection.ENGLISH and any(f(s, t) for t in ts))
            overall = sum(1 for _, ts in units if any(f(s, t) for t in ts))
            notes = sum(f(s, t) for t in _notes(fold))
            alone = sum(1 for c, ts in units if c in injection.ENGLISH and any(s(t) for t in ts))
            cells.append((eng, overall, notes, alone))
            if fold.startswith("held_out_"):
                for i, v in enumerate((eng, overall, notes)):
                    total[side][i] += v
        n_eng = sum(1 for c, _ in units if c in injection.ENGLISH)
        (b, bo, bn, ba), (n, no, nn, na) = cells
        print(
            f"{fold}: English {b} -> {n} of {n_eng}; overall {bo} -> {no}; "
            f"notes {bn} -> {nn}; rules alone {ba} -> {na}"
        )
    print(f"held-out 2 to 28 summed (English, overall, notes): {total[0]} -> {total[1]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    for flag in ("acks", "misses", "pool", "checks"):
        parser.add_argument(f"--{flag}", action="store_true")
    args = parser.parse_args()
    if args.acks:
        cache_acks()
    if args.misses:
        misses()
    if args.pool:
        pool(args.data)
    if args.checks:
        checks(args.data)


if __name__ == "__main__":
    main()
