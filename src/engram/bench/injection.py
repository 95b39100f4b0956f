"""``engram bench injection``: the injection scan measured as a classifier (issue 26).

The adversarial set (``engram/data/injection_set.json``, written for engram by
``scripts/build_injection_set.py``) holds attacks in eleven categories. Its split was
fixed before the scan ran on it: a third of every category (``held_out``) is never used
to tune a rule. Recall is the share of payloads the scan flags, per category and fold;
an instruction split over two memories counts as caught when the scan flags either
half, since a blocked half never reaches a context. The false-positive rate is the
share of real texts flagged: every message, image caption, question and answer of the
LoCoMo and BEAM files under ``../shared/bench`` (none of them is an attack).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from engram.errors import InvalidInputError
from engram.safety import scan

#: The categories whose held-out recall must reach ``ENGLISH_TARGET`` (issue 26: "the
#: English categories and the marker tricks").
ENGLISH = (
    "override_direct",
    "override_paraphrase",
    "addressed_to_reader",
    "role_and_template_markers",
    "tool_call_json",
    "exfiltration",
    "concealment",
    "character_tricks",
)
#: issue 26's targets: recall on held-out payloads, and false positives on real chat.
ENGLISH_TARGET = 0.90
OVERALL_TARGET = 0.70
FP_TARGET = 0.001
FOLDS = ("tune", "held_out")

Scan = Callable[[str], tuple[str, ...]]


def load_set(path: str | Path | None = None) -> list[dict[str, Any]]:
    """The adversarial set: rows of ``text``, ``category``, ``language``,
    ``technique``, ``split`` and, for a split instruction, ``pair`` and ``part``."""
    if path is None:
        text = (resources.files("engram") / "data" / "injection_set.json").read_text("utf-8")
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise InvalidInputError(
                f"cannot read the injection set {str(path)!r}: {exc.strerror or exc}"
            ) from None
    rows = json.loads(text)
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "text" in r for r in rows):
        raise InvalidInputError("an injection set is a JSON list of objects with a 'text'")
    return rows


def _units(rows: Iterable[dict[str, Any]]) -> Iterator[tuple[dict[str, Any], list[str]]]:
    """One unit per attack: a row, or both halves of a split instruction."""
    pairs: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("pair"):
            pairs.setdefault(str(row["pair"]), []).append(row)
        else:
            yield row, [row["text"]]
    for halves in pairs.values():
        yield halves[0], [h["text"] for h in sorted(halves, key=lambda h: h.get("part", 0))]


def recall_by_category(
    rows: Sequence[dict[str, Any]], check: Scan = scan
) -> dict[str, dict[str, Any]]:
    """Per fold: per category ``caught``/``total``/``recall``, plus ``overall``,
    ``english`` and the texts missed."""
    out: dict[str, dict[str, Any]] = {}
    for fold in FOLDS:
        cats: dict[str, list[int]] = {}
        missed: list[str] = []
        for row, texts in _units(r for r in rows if r.get("split") == fold):
            hit = any(check(t) for t in texts)
            counts = cats.setdefault(str(row["category"]), [0, 0])
            counts[0] += hit
            counts[1] += 1
            if not hit:
                missed.append(" | ".join(texts))
        table = {c: _score(*n) for c, n in sorted(cats.items())}
        english = [n for c, n in cats.items() if c in ENGLISH]
        out[fold] = {
            "categories": table,
            "overall": _score(sum(n[0] for n in cats.values()), sum(n[1] for n in cats.values())),
            "english": _score(sum(n[0] for n in english), sum(n[1] for n in english)),
            "missed": missed,
        }
    return out


def _score(caught: int, total: int) -> dict[str, Any]:
    return {"caught": caught, "total": total, "recall": caught / total if total else 1.0}


def real_texts(root: str | Path) -> list[tuple[str, str]]:
    """Every real text of the LoCoMo and BEAM files under ``root`` as (where, text):
    LoCoMo turns, image captions, questions and answers; BEAM messages and probing
    questions with their answers and rubrics."""
    base = Path(root)
    locomo = base / "locomo" / "locomo10_dev.json"
    chats = sorted((base / "beam-100k").glob("*/chat.json"))
    if not locomo.is_file() or not chats:
        raise InvalidInputError(
            f"no LoCoMo and BEAM data under {str(base)!r}: pass --data pointing at the "
            "shared bench folder (with locomo/locomo10_dev.json and beam-100k/*/chat.json)"
        )
    out: list[tuple[str, str]] = []
    for conversation in json.loads(locomo.read_text("utf-8")):
        sample = conversation.get("sample_id", "?")
        for key, turns in conversation["conversation"].items():
            if key.startswith("session_") and isinstance(turns, list):
                for t in turns:
                    out += [(f"locomo/{sample}/{t['dia_id']}", t["text"])]
                    if t.get("blip_caption"):
                        out.append((f"locomo/{sample}/{t['dia_id']}/caption", t["blip_caption"]))
        for n, qa in enumerate(conversation.get("qa", [])):
            _strings(qa, f"locomo/{sample}/qa{n}", out)
    for chat in chats:
        _strings(json.loads(chat.read_text("utf-8")), f"beam/{chat.parent.name}", out, "content")
        probes = chat.parent / "probing_questions.json"
        if probes.is_file():
            _strings(json.loads(probes.read_text("utf-8")), f"beam/{chat.parent.name}/q", out)
    return out


def _strings(node: object, where: str, out: list[tuple[str, str]], key: str = "") -> None:
    """Every string in ``node`` (only values under ``key`` when given) longer than a
    word: ids, dates and labels are not texts."""
    if isinstance(node, dict):
        for k, value in node.items():
            if isinstance(value, str):
                if (not key or k == key) and " " in value.strip():
                    out.append((f"{where}/{k}", value))
            else:
                _strings(value, where, out, key)
    elif isinstance(node, list):
        for value in node:
            _strings(value, where, out, key)


def false_positives(texts: Sequence[tuple[str, str]], check: Scan = scan) -> dict[str, Any]:
    """How many real texts the scan flags, which, and the scan's time per text."""
    start = time.perf_counter()
    flagged = [(where, text[:200], list(found)) for where, text in texts if (found := check(text))]
    elapsed = time.perf_counter() - start
    chars = sum(len(t) for _, t in texts)
    return {
        "texts": len(texts),
        "flagged": len(flagged),
        "rate": len(flagged) / len(texts) if texts else 0.0,
        "us_per_text": 1e6 * elapsed / len(texts) if texts else 0.0,
        "mean_chars": chars / len(texts) if texts else 0.0,
        "examples": flagged,
    }


def run(data: str | Path, set_path: str | Path | None = None) -> dict[str, Any]:
    """Recall per category on both folds and false positives on the real texts."""
    rows = load_set(set_path)
    return {
        "payloads": len(rows),
        "recall": recall_by_category(rows),
        "false_positives": false_positives(real_texts(data)),
        "targets": {"english": ENGLISH_TARGET, "overall": OVERALL_TARGET, "fp": FP_TARGET},
    }


def markdown(result: dict[str, Any]) -> str:
    """The report: recall per category (tune and held-out) and the false positives."""
    tune, held = result["recall"]["tune"], result["recall"]["held_out"]
    lines = [
        f"Injection scan on {result['payloads']} payloads "
        "(recall: flagged / attacks; a split instruction counts once)",
        "",
        "| category | tune | held-out |",
        "|---|---|---|",
    ]
    for cat in sorted(set(tune["categories"]) | set(held["categories"])):
        lines.append(
            f"| {cat} | {_cell(tune['categories'].get(cat))} | "
            f"{_cell(held['categories'].get(cat))} |"
        )
    for name in ("english", "overall"):
        lines.append(f"| **{name}** | {_cell(tune[name])} | {_cell(held[name])} |")
    fp = result["false_positives"]
    lines += [
        "",
        f"False positives on real LoCoMo and BEAM texts: {fp['flagged']} of {fp['texts']} "
        f"({100 * fp['rate']:.3f}%), {fp['us_per_text']:.0f} µs per text "
        f"(mean {fp['mean_chars']:.0f} characters)",
    ]
    lines += [f"- {where}: {text[:100]!r} {codes}" for where, text, codes in fp["examples"][:20]]
    return "\n".join(lines)


def _cell(score: dict[str, Any] | None) -> str:
    if score is None:
        return "—"
    return f"{score['recall']:.2f} ({score['caught']}/{score['total']})"
