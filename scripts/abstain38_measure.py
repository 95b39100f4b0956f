"""Round 12 (abstain38): cross-domain questions in a store that has grown.

Runs round 11's measure (``scripts/silent36_measure.py``: every question of a split
through ``Memory.recall`` with the defaults, the store alone, mixed with two other
stores, and beside 500 LoCoMo dev turns) on any split of
``engram/data/paraphrase36.json``, ``held-out-11`` included (written for this round
and read only to report), and prints the cross-domain abstention both ways the issue
can be read: silent only, and silent or one marked "possibly related" line.

    python scripts/abstain38_measure.py --split tune-36 --out /tmp/tune.json
    python scripts/abstain38_measure.py --split held-out-11 --out /tmp/h11.json
    python scripts/abstain38_measure.py --rows /tmp/tune.json      # the tables again
    python scripts/abstain38_measure.py --rows /tmp/tune.json --passes  # what passed

``--set key=value`` (repeatable) passes a recall setting to every call (a variant);
``--passes`` lists the cross-domain questions answered confidently, with the line
shown first, its cosine and whether it is one of the store's own notes, a
companion store's, or a LoCoMo turn.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from engram.bench import paraphrase

sys.path.insert(0, str(Path(__file__).resolve().parent))
import silent36_measure as s36  # noqa: E402 - the scripts' own folder

SPLITS = (paraphrase.TUNE_36, paraphrase.HELD_OUT_10, paraphrase.HELD_OUT_11)


def abstention(rows: Sequence[dict[str, Any]]) -> str:
    """Per size: cross-domain and unrelated questions given no confident answer (silent
    or marked) and silent alone; answerable questions silent."""
    lines = [
        "| size | cross: silent or marked | cross: silent | unrelated: silent or marked"
        " | answerable silent |",
        "|---|---|---|---|---|",
    ]
    for size in dict.fromkeys(r["size"] for r in rows):
        part = {k: [r for r in rows if r["size"] == size and r["kind"] == k] for k in s36.KINDS}

        def pct(kind: str, verdicts: tuple[str, ...], part: dict[str, Any] = part) -> str:
            got = part[kind]
            n = sum(1 for r in got if r["verdict"] in verdicts)
            return f"{n}/{len(got)} ({100 * n / max(len(got), 1):.1f}%)"

        lines.append(
            f"| {size} | {pct('cross', ('silent', 'marked'))} | {pct('cross', ('silent',))}"
            f" | {pct('unrelated', ('silent', 'marked'))} | {pct('answerable', ('silent',))} |"
        )
    return "\n".join(lines)


def passes(rows: Sequence[dict[str, Any]]) -> str:
    """The cross-domain questions answered confidently: the first line shown."""
    out = []
    for r in rows:
        if r["kind"] != "cross" or r["verdict"] != "confident":
            continue
        first = r["shown"][0]
        key = str(first["key"])
        whose = "turn" if key == "None" else ("own" if key.startswith(r["store"] + ":") else "mix")
        best = max((h["sim"] or 0.0) for h in r["shown"])
        out.append(
            f"{r['size']:9} {r['store']:17} {whose:4} first {first['sim']:.3f} best {best:.3f}"
            f"  {r['q']!r} -> {first['text'][:70]!r}"
        )
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--split", choices=SPLITS)
    parser.add_argument("--sizes", action="append", choices=s36.SIZES)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--rows", type=Path, help="Print the tables of an earlier --out.")
    parser.add_argument("--set", action="append", default=[], help="A recall setting, key=value.")
    parser.add_argument("--passes", action="store_true", help="List confident cross questions.")
    args = parser.parse_args()
    for pair in args.set:
        key, _, value = pair.partition("=")
        s36.OVERRIDES[key] = json.loads(value) if value[:1] in "0123456789-tfn[{" else value
    if args.rows is not None:
        rows = json.loads(args.rows.read_text(encoding="utf-8"))
    else:
        if args.split is None:
            parser.error("--split or --rows")
        rows = s36.collect(args.split, args.sizes or s36.SIZES)
        if args.out is not None:
            args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    print(s36.table(rows))
    print()
    print(abstention(rows))
    if args.passes:
        print()
        print(passes(rows))


if __name__ == "__main__":
    main()
