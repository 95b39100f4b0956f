"""Short ids on the commands round nine walked (new-user pass, round nine): every
command that takes a memory id takes the short prefix the listings and `engram show`
accept, and says "not found" only of a memory that is not there."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli_newcomer import home, run

__all__ = ["home"]

FAILURE = (
    "--task",
    "Run the database migrations for the billing service",
    "--error",
    "psycopg.OperationalError: connection refused (port 5433)",
    "--step",
    "alembic upgrade head",
)


def test_procedure_show_and_skill_take_a_short_id(home: Path, tmp_path: Path) -> None:
    proposed = run(home, "procedure", "propose", *FAILURE, "--json")
    assert proposed.exit_code == 0, proposed.output
    full = json.loads(proposed.output)["memory_id"]
    short = full[:12]
    shown = run(home, "procedure", "show", short)
    assert shown.exit_code == 0, shown.output
    assert "avoid-psycopg" in shown.output
    written = run(home, "procedure", "skill", short, str(tmp_path / "skills"), "--json")
    assert written.exit_code == 0, written.output
    assert Path(json.loads(written.output)["path"]).is_file()


def test_procedure_show_of_another_memory_says_it_is_no_procedure(home: Path) -> None:
    added = json.loads(run(home, "add", "The staging database is db-2", "--json").output)
    shown = run(home, "procedure", "show", added["id"][:12])
    assert shown.exit_code != 0
    assert "is not a proposed procedure" in shown.output
