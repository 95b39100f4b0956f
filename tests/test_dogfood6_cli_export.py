"""``engram export --output`` (and ``feedback export --out``) into a folder that does not
exist (new-user pass, round six): a Python traceback (FileNotFoundError on the
``.partial`` file); now an error naming the folder and the option."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from engram.cli.main import cli


@pytest.mark.parametrize(
    ("command", "option"), [(["export"], "--output"), (["feedback", "export"], "--out")]
)
def test_an_export_into_a_missing_folder_says_so(
    tmp_path: Path, command: list[str], option: str
) -> None:
    home = ["--home", str(tmp_path)]
    assert CliRunner().invoke(cli, [*home, "add", "The staging DB is db-2"]).exit_code == 0
    target = tmp_path / "no-such-folder" / "backup.jsonl"
    result = CliRunner().invoke(cli, [*home, *command, option, str(target)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"its folder '{target.parent}' does not exist" in result.output
    assert f"give another {option}" in result.output
