"""A SQLite store that cannot be written says why and what to do (new-user pass, round
three): a home folder that cannot be created, a read-only store or folder, a disk (or
file-size limit) that fills up in the middle of a write. Before, the first was a Python
traceback, the second SQLite's bare "attempt to write a readonly database", and the third
"cannot rollback - no transaction is active", which hid the disk-full error behind it.
"""

from __future__ import annotations

import os
import resource
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from engram import Config, Memory
from engram.cli.main import cli
from engram.errors import StoreError

SRC = str(Path(__file__).resolve().parents[1] / "src")
NOTES = ["The deploy script is ops/deploy.sh", "Alice likes green tea in the morning"]


def test_a_home_that_cannot_be_created_is_named_with_what_to_do(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the home should go")
    result = CliRunner().invoke(
        cli, ["--home", str(blocker / "home"), "add", "hello"], env={"ENGRAM_CONFIG": ""}
    )
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"cannot create the folder {blocker / 'home'}" in result.output
    assert "--home (ENGRAM_HOME)" in result.output


def unprivileged() -> list[str]:
    """A command prefix under which file permissions hold: root ignores them, so drop
    the capabilities that let it (setpriv, util-linux); nothing for another user."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("running as root, these tests need util-linux's setpriv to drop privileges")
    caps = "-dac_override,-dac_read_search,-fowner"
    return [setpriv, "--bounding-set", caps, "--inh-caps", caps]


def run_python(code: str, *, prefix: list[str] | None = None, fsize: int | None = None) -> str:
    """``code`` in a fresh interpreter (its output), under ``prefix`` and with a
    file-size limit of ``fsize`` bytes (``ulimit -f``) when given."""

    def limit() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    done = subprocess.run(
        [*(prefix or []), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": SRC, "ENGRAM_CONFIG": ""},
        preexec_fn=limit,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def store(path: Path) -> None:
    with Memory(str(path), config=Config.load(env={}, home=str(path.parent)), embedder=None) as m:
        for note in NOTES:
            m.add(note)


OPEN_AND_ADD = """
import sys
from engram import Config, Memory
from engram.errors import EngramError
path = sys.argv[1] if len(sys.argv) > 1 else {path!r}
try:
    with Memory(path, config=Config.load(env={{}}, home={home!r}), embedder=None) as m:
        for i in range({count}):
            m.add({content!r} + str(i))
    print("ok")
except EngramError as exc:
    print(exc)
"""


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_store_says_what_is_read_only_and_what_to_do(tmp_path: Path, what: str) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "engram.db"
    store(path)
    path.chmod(0o444)
    if what == "folder":
        path.chmod(0o644)
        fresh = folder / "new.db"
        path = fresh
    folder.chmod(0o555)
    try:
        code = OPEN_AND_ADD.format(path=str(path), home=str(tmp_path), count=1, content="x")
        said = run_python(code, prefix=unprivileged())
    finally:
        folder.chmod(0o755)
    assert said.startswith(f"cannot open SQLite store at {path}: ")
    named = f"the store file {path} is read-only" if what == "file" else f"its folder {folder}"
    assert named in said, said
    assert "chmod u+w" in said and "--db (ENGRAM_STORE)" in said


def test_a_full_disk_says_so_and_keeps_what_was_stored(tmp_path: Path) -> None:
    path = tmp_path / "engram.db"
    store(path)
    size = path.stat().st_size
    # Room for a few pages more than the store holds: the write-ahead log fills first.
    code = OPEN_AND_ADD.format(
        path=str(path), home=str(tmp_path), count=50, content="Measured the lead. " * 2000
    )
    said = run_python(code, fsize=size + 16 * 4096)
    assert "cannot rollback" not in said, said
    assert "file-size limit (ulimit -f)" in said and "rolled back" in said, said
    with Memory(str(path), config=Config.load(env={}, home=str(tmp_path)), embedder=None) as m:
        kept = sorted(r.content for r in m.get_all(limit=100).records)
        assert all(note in kept for note in NOTES)
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_the_store_error_is_engrams_own(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(StoreError, match="cannot create the folder"):
        Memory(str(blocker / "sub" / "engram.db"), embedder=None)
