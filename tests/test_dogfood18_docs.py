"""Every shell variable an example of docs/http.md reads is set before it or named as given.

Dogfood round eighteen ran the page's examples in one terminal, in order, as a reader
pastes them: `$ADMIN` (7 calls: the erase audit of every namespace, two maintenance routes,
an agent's level, metrics, reindex, diagnostics) was set nowhere and named nowhere, so the
calls went out as `Authorization: Bearer ` and a reader had to guess which key it meant.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: Variables of the shell itself, not the page's.
SHELL = {"HOME", "PATH", "PWD", "USER"}


def _blocks(text: str) -> list[str]:
    return re.findall(r"^```(?:sh|bash|console)\n(.*?)^```", text, flags=re.S | re.M)


def _given(text: str) -> set[str]:
    """The variables the page's "The examples use ..." sentence names."""
    sentence = re.search(r"The examples use (.*?)\.\n\n", text, flags=re.S)
    assert sentence, "docs/http.md says which variables its examples use"
    return set(re.findall(r"`([A-Z][A-Z0-9_]*)=", sentence.group(1)))


def test_every_variable_an_http_example_reads_is_given_or_set_before() -> None:
    text = (ROOT / "docs/http.md").read_text(encoding="utf-8")
    known = _given(text) | SHELL
    unknown: list[str] = []
    for block in _blocks(text):
        for line in block.splitlines():
            code = line.split("  #")[0]
            for name in re.findall(r"\$\{?([A-Z][A-Z0-9_]*)", code):
                if name not in known:
                    unknown.append(f"${name} in: {line.strip()[:90]}")
            known |= set(re.findall(r"(?:^|\s)([A-Z][A-Z0-9_]*)=", code))
    assert unknown == []
