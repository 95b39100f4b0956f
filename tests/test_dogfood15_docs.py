"""New-user pass, round fifteen: docs/configuration.md names every config section.

A developer putting engram behind a support bot looked in the configuration guide for
the documented opt-in that lets URL ingest fetch a host on the local network
(``[documents] allowed_private_hosts``): the page had no ``[documents]`` section, nor
``[pipeline]`` or ``[worker]``, so the keys were findable only by knowing which
subsystem page to open."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

from engram.config import Config

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _sections() -> dict[str, list[str]]:
    config = Config()
    return {
        f.name: [k.name for k in dataclasses.fields(getattr(config, f.name))]
        for f in dataclasses.fields(config)
        if dataclasses.is_dataclass(getattr(config, f.name))
    }


def test_every_section_is_named_in_the_configuration_guide() -> None:
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    missing = [name for name in _sections() if f"[{name}]" not in page]
    assert missing == [], f"docs/configuration.md never names {missing}"


def test_every_key_is_documented_where_the_guide_points() -> None:
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    paragraphs = page.split("\n\n")
    example = tomllib.loads(re.findall(r"```toml\n(.*?)```", page, flags=re.S)[0])
    for section, keys in _sections().items():
        shown = example.get(section, {})
        left = [k for k in keys if f"{section}.{k}" not in page and k not in shown]
        if not left:
            continue
        # Keys the guide does not list are on a page it links where it names the section.
        naming = [p for p in paragraphs if f"[{section}]" in p or f"`{section}." in p]
        linked = {name for p in naming for name in re.findall(r"\]\(([a-z0-9-]+\.md)", p)}
        assert linked, f"[{section}]: {left} undocumented, and no page is linked for them"
        pages = " ".join((DOCS / name).read_text(encoding="utf-8") for name in linked)
        assert [k for k in left if k not in pages] == [], (section, sorted(linked))


def test_the_url_opt_in_is_in_the_guide_with_its_default() -> None:
    page = (DOCS / "configuration.md").read_text(encoding="utf-8")
    assert "| `documents.allow_private_urls` | false |" in page
    assert '| `documents.allowed_private_hosts` | "" |' in page
