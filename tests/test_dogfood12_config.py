"""Config mistakes as a new user makes them (new-user pass, round twelve): a misspelt key
in config.toml named no file and suggested nothing (the environment's misspellings did:
"did you mean ENGRAM_RECALL_LIMIT?"), and a value of the wrong type did not say whether
it came from the file or from an ``ENGRAM_*`` variable."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli
from engram import Config
from engram.config import ConfigError


def load(tmp_path: Path, toml: str, env: dict[str, str] | None = None) -> Config:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text(toml, encoding="utf-8")
    return Config.load(env={"ENGRAM_HOME": str(home), **(env or {})})


@pytest.mark.parametrize(
    ("toml", "unknown", "meant"),
    [
        ("[recall]\nlimt = 3\n", "recall.limt", "recall.limit"),
        ('injection_mod = "flag"\n', "injection_mod", "injection_mode"),
        ("[recal]\nlimit = 3\n", "recal", "recall"),
        ("[api]\nprot = 9000\n", "api.prot", "api.port"),
        # a key put above its section's header: named with the section it belongs to
        ("limit = 3\n", "limit", "recall.limit"),
    ],
)
def test_a_misspelt_key_in_the_file_names_the_file_and_the_key_meant(
    tmp_path: Path, toml: str, unknown: str, meant: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, toml)
    path = tmp_path / "home" / "config.toml"
    assert str(caught.value).startswith(f"unknown config key {unknown} in {path}; ")
    assert f"did you mean {meant}?" in str(caught.value)


def test_a_key_with_nothing_close_still_lists_the_known_keys(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"unknown config key recall\.zzzzzz in .*known keys: "):
        load(tmp_path, "[recall]\nzzzzzz = 1\n")


def test_a_bad_value_names_where_it_was_set(tmp_path: Path) -> None:
    path = tmp_path / "home" / "config.toml"
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, '[recall]\nlimit = "three"\n')
    assert str(caught.value) == f"config key recall.limit must be int, got 'three' (set in {path})"
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, "", env={"ENGRAM_RECALL_LIMIT": "abc"})
    assert str(caught.value) == (
        "config key recall.limit must be int, got 'abc' (set by ENGRAM_RECALL_LIMIT)"
    )
    with pytest.raises(ConfigError) as caught:
        load(tmp_path, "", env={"ENGRAM_INJECTION_MODE": "loud"})
    assert str(caught.value).endswith("got 'loud' (set by ENGRAM_INJECTION_MODE)")
    # the environment wins over the file: its good value stands, the file's bad one is
    # never read; a keyword argument names no place (the caller's own code)
    assert (
        load(tmp_path, "[recall]\nlimit = 0\n", env={"ENGRAM_RECALL_LIMIT": "5"}).recall.limit == 5
    )
    with pytest.raises(ConfigError) as caught:
        Config.load(env={"ENGRAM_HOME": str(tmp_path / "none")}, recall={"limit": 0})
    assert str(caught.value) == "config key recall.limit must be in [1, 1000], got 0"


def test_the_cli_prints_the_file_and_the_key_meant(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[recall]\nlimt = 3\n", encoding="utf-8")
    result = run_cli(home, "recall", "anything")
    assert result.exit_code != 0
    said = " ".join(result.stderr.split())
    assert (
        f"unknown config key recall.limt in {home / 'config.toml'}; did you mean recall.limit?"
        in said
    )
