"""Run the mem0-style script (tests/data/mem0_script.json) against any object with
mem0's ``Memory`` verbs and compare each step with the fixture.

Shared by tests/test_compat_mem0_script.py (engram's door) and
scripts/mem0_script_real.py (real mem0 2.2.1, run offline), so both sides are
normalised by the same rules. Pure standard library: the real-mem0 runner imports it
from a venv without engram.

The normaliser ignores only what is random or embedder-made on mem0: ids (uuid4; a
step names them by ``@label``), history row ids, timestamps and float scores, and the
order of results the step marks ``unordered``.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

SCRIPT: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "mem0_script.json").read_text()
)


class Labels:
    """mem0's random ids as the script's ``@labels``, both ways."""

    def __init__(self) -> None:
        self.ids: dict[str, str] = {}
        self.names: dict[str, str] = {}

    def learn(self, step: dict[str, Any], out: Any) -> None:
        if step["call"] != "add" or not isinstance(out, dict) or "results" not in out:
            return
        for label, result in zip(step["labels"], out["results"], strict=False):
            if result["id"] not in self.names:
                self.ids[label] = result["id"]
                self.names[result["id"]] = label

    def resolve(self, value: Any) -> Any:
        if isinstance(value, str) and value.startswith("@"):
            return self.ids.get(value, value)
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if isinstance(value, dict):
            return {k: self.resolve(v) for k, v in value.items()}
        return value

    def normal(self, value: Any) -> Any:
        """The result with ids as labels, and timestamps, history row ids and float
        scores as placeholders."""
        if isinstance(value, list):
            return [self.normal(v) for v in value]
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, v in value.items():
            if key in ("created_at", "updated_at") and v is not None:
                out[key] = "<ts>"
            elif key == "score" and isinstance(v, float):
                out[key] = "<score>"
            elif key == "id" and "memory_id" in value:
                out[key] = "<hid>"
            elif key in ("id", "memory_id") and isinstance(v, str):
                out[key] = self.names.get(v, f"<unknown {v}>")
            else:
                out[key] = self.normal(v)
        return out


def _sorted(result: Any) -> Any:
    if isinstance(result, dict) and isinstance(result.get("results"), list):
        return {**result, "results": sorted(result["results"], key=lambda r: r["memory"])}
    return result


def run(memory: Any) -> tuple[dict[int, Any], dict[int, tuple[Any, Any]]]:
    """Every step's normalised result, and (result, expectation) where they differ."""
    labels = Labels()
    observed: dict[int, Any] = {}
    differ: dict[int, tuple[Any, Any]] = {}
    for step in SCRIPT["steps"]:
        verb = getattr(memory, step["call"])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # mem0 logs what the door warns about
            try:
                out = verb(*labels.resolve(step["args"]), **labels.resolve(step["kwargs"]))
            except Exception as exc:  # the script compares the kind of error, as mem0 code sees it
                out = {"error": "ValueError" if isinstance(exc, ValueError) else type(exc).__name__}
        labels.learn(step, out)
        got, expected = labels.normal(out), step["expect"]
        observed[step["n"]] = got
        if step["unordered"]:
            got, expected = _sorted(got), _sorted(expected)
        if got != expected:
            differ[step["n"]] = (got, expected)
    return observed, differ
