"""The verbs of the library and the HTTP API typed at the CLI (new-user pass, round
six): ``engram get ID`` offered "agents, forget, ingest"; it now names ``engram show``,
and ``delete``/``update`` name what does their job here."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from engram.cli.main import cli


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("get", "`engram show MEMORY_ID`"),
        ("delete", "`engram forget MEMORY_ID`"),
        ("rm", "`engram forget MEMORY_ID`"),
        ("update", "PATCH /v1/memories/{id}"),
        ("ls", "`engram list`"),
    ],
)
def test_another_surfaces_verb_names_the_command_to_use(
    tmp_path: Path, typed: str, named: str
) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), typed, "01a2"])
    assert result.exit_code == 2
    assert f"No such command '{typed}'" in result.output and named in result.output
    assert not (tmp_path / "engram.db").exists()  # nothing opened or created


def test_a_typo_still_gets_the_nearest_names(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--home", str(tmp_path), "serch", "x"])
    assert result.exit_code == 2 and "'search'" in result.output
