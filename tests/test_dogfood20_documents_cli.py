"""``engram documents`` (round twenty of the new-user pass): a vault's renamed and
deleted notes can be found and dropped from the shell; an unchanged note ingested again
says so; a bad target deletes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from engram.cli.main import cli

KEYWORD_ONLY = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}


def run(home: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--home", str(home), *args], env=KEYWORD_ONLY)


def ids(home: Path, *args: str) -> list[str]:
    done = run(home, "documents", "list", "--json", *args)
    assert done.exit_code == 0, done.output
    return [d["id"] for d in json.loads(done.output)]


def test_renamed_and_deleted_notes_are_listed_and_dropped(tmp_path: Path) -> None:
    home, vault = tmp_path / "home", tmp_path / "vault"
    vault.mkdir()
    notes = {
        "Printer.md": "The home office printer takes TN-2420 toner.",
        "Library card.md": "My library card expires on 31 August.",
        "Teaching.md": "I teach two seminar groups on Mondays.",
    }
    made = {}
    for name, text in notes.items():
        (vault / name).write_text(text + "\n", encoding="utf-8")
        done = run(home, "ingest", str(vault / name), "--json")
        assert done.exit_code == 0, done.output
        made[name] = json.loads(done.output)["id"]
    again = run(home, "ingest", str(vault / "Teaching.md"))
    assert again.exit_code == 0 and again.output.startswith(f"unchanged {made['Teaching.md']}")
    (vault / "Printer.md").rename(vault / "Home office.md")
    (vault / "Library card.md").unlink()
    assert sorted(ids(home, "--missing")) == sorted([made["Printer.md"], made["Library card.md"]])
    # A target that names no document refuses the whole call: nothing is deleted.
    bad = run(home, "documents", "delete", str(vault / "Teaching.md"), str(vault / "nope.md"))
    assert bad.exit_code == 2 and "no document" in bad.output and "nope.md" in bad.output
    assert len(ids(home)) == 3
    # By the file it came from (the file need not exist), then every one whose file is gone.
    by_path = run(home, "documents", "delete", str(vault / "Library card.md"))
    assert by_path.exit_code == 0 and made["Library card.md"] in by_path.output
    rest = run(home, "documents", "delete", "--missing")
    assert rest.exit_code == 0 and made["Printer.md"] in rest.output
    assert ids(home) == [made["Teaching.md"]]
    assert run(home, "documents", "delete").exit_code == 2
