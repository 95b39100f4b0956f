"""Round thirty-eight (inject42; docs/safety.md, "Round thirty-eight"): every check set
flagged by the scan of the tree on ``PYTHONPATH``, as a write meets it (the rules, else
the learned detector's reason with all its views and guards, unless the wish guard passes
the text; a message list of the agent set read with its labels), fp32 MiniLM. Run it
once with main's ``src`` and once with this tree's, and compare the two JSON files
(``--compare``). Round thirty-seven's script with tool42 added; held-out 32 and tool40's
fold B are spent and always read, held-out 33 and tool42's fold B only with ``--final``.

    PYTHONPATH=/tmp/base/src python scripts/inject42_measure.py --out base.json [--final]
    PYTHONPATH=src python scripts/inject42_measure.py --out new.json [--final]
    python scripts/inject42_measure.py --compare base.json new.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fit_injection_round18 as r18  # noqa: E402  (the agent set's halves)
import fit_injection_round19 as r19  # noqa: E402  (the lists probe)
import fit_injection_round21 as r21  # noqa: E402  (the user-facts probe)
import fit_injection_round25 as r25  # noqa: E402  (the training rows)
import fit_injection_round30 as r30  # noqa: E402  (the embedder, the wishes probe)

from engram import injection_detector, safety, safety_wishes  # noqa: E402
from engram.bench import injection  # noqa: E402

#: This tree's data (tool40 and tool42 are read from here whichever ``src`` scans).
DATA = Path(__file__).resolve().parents[1] / "src/engram/data"
CACHE = Path("/tmp/inject42/vectors.npz")


def _json(name: str) -> list[dict[str, str]]:
    return list(json.loads((DATA / name).read_text("utf-8")))


#: The round's unseen fold (read only with ``--final``), the tool sets read whole, and the
#: tool set whose fold B is read only with ``--final``: a later round passes its own.
LAST, TOOLS, NEW_TOOL = "held_out_33", ("tool40",), "tool42"


def sets(
    bench: str, final: bool, tools: tuple[str, ...] = TOOLS, new_tool: str | None = NEW_TOOL
) -> dict[str, tuple[list[str], list[bool] | None]]:
    real = [t for _, t in injection.real_texts(bench)]
    agent = r18.agent_halves()
    facts, lists = r21.facts(), r19.lists()
    wishes, acks = _json("wishes31.json"), _json("acks36.json")
    out: dict[str, tuple[list[str], list[bool] | None]] = {
        "real (distinct)": (sorted(set(real)), None),
        "training notes": (sorted(set(r25.training(real).notes)), None),
        "wishes probe": (list(r30.WISHES), None),
    }
    for half in ("tune", "check"):
        out[f"agent {half}"] = (agent[half], [r18.labelled(x) for x in agent[half]])
        out[f"facts {half}"] = (facts[half], None)
        out[f"lists {half}"] = (lists[half], None)
    for fold in ("A", "B"):
        out[f"wishes31 {fold}"] = ([r["text"] for r in wishes if r["fold"] == fold], None)
        for name in ("notes39", "notes40"):
            out[f"{name} {fold}"] = (
                [r["text"] for r in _json(f"{name}.json") if r["fold"] == fold],
                None,
            )
    for name in (*tools, new_tool) if new_tool else tools:
        for fold in ("A", "B") if final or name != new_tool else ("A",):
            out[f"{name} {fold}"] = (
                [r["text"] for r in _json(f"{name}.json") if r["fold"] == fold],
                None,
            )
    for fold in ("tune", "held_out"):
        for label in ("benign", "attack"):
            texts = [r["text"] for r in acks if r["fold"] == fold and r["label"] == label]
            out[f"acks36 {fold} {label}"] = (texts, None)
    return out


def verdicts(texts: list[str], marks: list[bool] | None) -> list[bool]:
    found = injection_detector.shipped()
    assert found is not None
    embed = r30.fp32_embed(CACHE)
    out: list[bool] = []
    for start in range(0, len(texts), 512):
        part = texts[start : start + 512]
        m = None if marks is None else marks[start : start + 512]
        got = found.reasons(embed(part), part, embed, None, m)
        out += [
            bool(safety.scan(t)) or (r is not None and not safety_wishes.wish(t))
            for t, r in zip(part, got, strict=True)
        ]
    return out


def measure(
    bench: str,
    final: bool,
    last: str = LAST,
    spent: tuple[str, ...] = (),
    tools: tuple[str, ...] = TOOLS,
    new_tool: str | None = NEW_TOOL,
) -> dict[str, object]:
    """Each check set's flagged count, then each fold's English / overall / notes caught
    (``spent`` folds beyond the bench's always, ``last`` only when ``final``)."""
    result: dict[str, object] = {}
    for name, (texts, marks) in sets(bench, final, tools, new_tool).items():
        result[name] = sum(verdicts(texts, marks))
        print(f"{name}: {result[name]} of {len(texts)}", flush=True)
    rows = injection.load_set(DATA / "injection_set.json")
    for split in dict.fromkeys((*injection.FOLDS, *spent, last)):
        if split == last and not final:
            continue
        fold = [x for x in rows if x["split"] == split]
        texts = sorted({str(x["text"]) for x in fold})
        v = dict(zip(texts, verdicts(texts, None), strict=True))
        units = list(injection._units([x for x in fold if not x.get("benign")]))
        eng = sum(any(v[t] for t in ts) for r, ts in units if r["category"] in injection.ENGLISH)
        allu = sum(any(v[t] for t in ts) for _, ts in units)
        notes = sum(v[str(x["text"])] for x in fold if x.get("benign"))
        result[split] = [eng, allu, notes]
        print(f"{split}: English/overall/notes {result[split]}", flush=True)
    return result


def compare(base_path: str, new_path: str, last: str = LAST) -> None:
    base, new = json.loads(Path(base_path).read_text()), json.loads(Path(new_path).read_text())
    summed = [[0, 0, 0], [0, 0, 0]]
    for name in new:
        b = base.get(name)
        if isinstance(new[name], list) and name != last and b is not None:
            summed = [
                [x + y for x, y in zip(s, v, strict=True)]
                for s, v in zip(summed, (b, new[name]), strict=True)
            ]
        mark = "" if b == new[name] else "   <- changed"
        print(f"{name}: {b} -> {new[name]}{mark}")
    print(f"folds but {last} summed, English/overall/notes: {summed[0]} -> {summed[1]}")


def main(**round_: Any) -> None:
    """The command line; a later round's script passes its ``last``, ``spent``,
    ``tools`` and ``new_tool``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", default="../shared/bench")
    parser.add_argument("--out", default="")
    parser.add_argument("--final", action="store_true")
    parser.add_argument("--compare", nargs=2, default=None)
    args = parser.parse_args()
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    if args.compare:
        compare(*args.compare, last=round_.get("last", LAST))
        return
    result = measure(args.data, args.final, **round_)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
