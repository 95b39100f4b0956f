"""``engram bench graph``: gold LoCoMo events against the graph's timelines."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import HashEmbedder, locomo_sample, locomo_turn
from engram.bench import graph as graph_bench
from engram.config import Config

SAMPLE = locomo_sample(
    "conv-t",
    ("Caroline", "Melanie"),
    [
        (
            "1:56 pm on 8 May, 2023",
            [
                locomo_turn("Caroline", "D1:1", "I went to the Pride parade in Boston!"),
                locomo_turn("Melanie", "D1:2", "Nice. I painted a lake."),
            ],
        ),
        ("2:00 pm on 20 May, 2023", [locomo_turn("Caroline", "D2:1", "Hey Mel, how are you?")]),
    ],
    event_summary={
        "events_session_1": {
            "Caroline": ["Caroline marches in the Boston pride parade."],
            "Melanie": ["Melanie paints a sunrise over a lake."],
            "date": "8 May, 2023",
        },
        "events_session_2": {
            "Caroline": ["Caroline is back in Boston for a week."],
            "Melanie": [],
            "date": "20 May, 2023",
        },
    },
    qa=[],
)


def test_events_are_scored_against_the_speaker_timeline(config: Config, tmp_path: Path) -> None:
    data = tmp_path / "locomo.json"
    data.write_text(json.dumps([SAMPLE]), encoding="utf-8")
    events = graph_bench.gold_events(data)
    assert [(e.speaker, e.session, e.day.isoformat()) for e in events] == [
        ("Caroline", 1, "2023-05-08"),
        ("Melanie", 1, "2023-05-08"),
        ("Caroline", 2, "2023-05-20"),
    ]
    result = graph_bench.run(config, data, embedder=HashEmbedder())
    linker = result["linker"]
    # Caroline talks about Boston in session 1: that event is named and dated; the
    # session 2 event names Boston too, still valid then, but nothing mentions it that
    # day; Melanie's lake is no named entity of hers.
    assert linker["events"] == 3
    assert linker["named"] == round(2 / 3, 4)
    assert linker["valid_on_date"] == round(2 / 3, 4)
    assert linker["covered"] == round(1 / 3, 4)
    assert result["pipeline_jobs"] >= 1
    assert result["linker_and_pipeline"]["covered"] >= linker["covered"]
    assert result["linker_triples_only"]["covered"] <= linker["covered"]
    assert "| linker |" in graph_bench.markdown(result)
