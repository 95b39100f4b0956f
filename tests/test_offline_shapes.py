"""Sentence shapes the offline extractor misread, found on LoCoMo fold B (issue 28,
sixth pass; docs/benchmarks.md, offline extraction, experiments 38-...)."""

from __future__ import annotations

from engram.pipeline.offline import analyse


def read(text: str, before: str | None = None) -> list[tuple[str, str]]:
    return [(f.content, f.rule) for f in analyse(text, before=before).facts]


def test_a_preference_needs_only_two_content_words() -> None:
    assert read("Priya: I hate missing practice.") == [
        ("Priya hates missing practice.", "preference")
    ]
    # Other short first-person sentences stay under the bar (experiments 11 and 20).
    assert read("Priya: I got promoted!") == []
