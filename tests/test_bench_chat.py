"""`engram bench chat` on a tiny LoCoMo-format file: the proxy timed beside a direct call."""

from __future__ import annotations

from pathlib import Path

import pytest

from engram import Config, InvalidInputError
from engram.bench import chat

pytestmark = pytest.mark.slow


def test_bench_chat_times_the_proxy_beside_direct_calls_and_reuses_its_store(
    tiny_locomo: Path, tmp_path: Path
) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"), injection_mode="flag")
    stores = tmp_path / "stores"
    (first,) = chat.run_chat(
        [40], config=config, locomo=str(tiny_locomo), store_dir=str(stores), requests=3
    )
    assert first["memories"] == 40 and first["store"]["reused"] is False
    assert (stores / "chat-40.db").is_file()
    for byte in ("first", "last"):
        for way in ("direct", "proxy"):
            for mode in ("no_mining", "mining"):
                stats = first[f"{byte}_byte_{way}_{mode}"]
                assert 0 < stats["p50_ms"] <= stats["p95_ms"]
    # The proxy's Server-Timing stages reached the bench, and recall is one of them.
    stages = first["stages_p50_ms"]
    assert {"auth", "recall", "hop", "upstream", "record"} <= set(stages)
    assert stages["recall"] > 0
    assert first["recall_alone"]["p50_ms"] > 0
    assert first["target_met"] is (first["added_minus_recall_p50_ms"] <= 5)
    # With auto_mine on, the proxied turns were queued for mining.
    assert sum(first["mined_turns"].values()) >= 3
    table = chat.markdown([first])
    assert "| 40 |" in table and "Server-Timing" in table

    (again,) = chat.run_chat(
        [40], config=config, locomo=str(tiny_locomo), store_dir=str(stores), requests=3
    )
    assert again["store"]["reused"] is True


def test_bench_chat_names_a_missing_locomo_file(tmp_path: Path) -> None:
    config = Config.load(env={}, home=str(tmp_path / "home"))
    with pytest.raises(InvalidInputError, match="--data"):
        chat.run_chat([10], config=config, locomo=str(tmp_path / "nope.json"), store_dir=".")
