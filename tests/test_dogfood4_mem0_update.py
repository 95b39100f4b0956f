"""``update(data=...)``: mem0's older name for ``text=`` still works on the door and, as
on mem0, logs that it is deprecated (mem0's own test of it, replayed in the new-user
pass round four, found the door silent)."""

from __future__ import annotations

import logging

import pytest

from conftest import HashEmbedder
from engram import Config
from engram.compat.mem0 import Memory


def test_update_data_works_and_logs_that_it_is_deprecated(
    config: Config, tmp_path: object, caplog: pytest.LogCaptureFixture
) -> None:
    with Memory(f"{tmp_path}/m.db", config=config, embedder=HashEmbedder()) as m:
        mid = m.add("I like tea", user_id="u", infer=False)["results"][0]["id"]
        with caplog.at_level(logging.WARNING, logger="engram.compat"):
            m.update(mid, data="via data")
        assert m.get(mid)["memory"] == "via data"  # type: ignore[index]
        assert any(
            "`data`" in r.getMessage() and "deprecated" in r.getMessage() for r in caplog.records
        )
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="engram.compat"):
            m.update(mid, text="preferred")
        assert m.get(mid)["memory"] == "preferred"  # type: ignore[index]
        assert not caplog.records
