"""Seed 003's memory that runs by itself, found from the pages a new user reads first
(new-user pass, round thirteen): the chat proxy and ``mem.chat`` existed, documented in
docs/chat.md, but neither the README nor getting-started nor the library guide's list of
parts named them, so a user following those wired recall before each turn and mining
after it by hand."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _text(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def test_the_readme_names_the_proxy_among_the_ways_to_use_engram() -> None:
    readme = _text("README.md")
    table = readme.split("## Use it from", 1)[1].split("\n## ", 1)[0]
    row = next(line for line in table.splitlines() if "docs/chat.md" in line)
    assert "/v1/proxy" in row and "mem.chat" in row
    assert "(docs/chat.md)" in readme.split("## Documentation", 1)[1]


def test_getting_started_and_the_library_guide_link_it() -> None:
    assert "(chat.md)" in _text("docs/getting-started.md").split("## Next", 1)[1]
    parts = _text("docs/library.md").split("| part | what it does |", 1)[1].split("\n\n", 1)[0]
    assert "| `mem.chat` |" in parts and "(chat.md)" in parts
