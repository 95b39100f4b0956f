"""Where settings come from: keyword overrides > ``ENGRAM_*`` environment > TOML file >
defaults; unknown ``ENGRAM_*`` variables warn; the documented example is the defaults."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import engram.config
from engram import Config
from engram.config import ConfigWarning, sqlite_file

DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.fixture(autouse=True)
def fresh_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no name warned yet: the warning fires once per process."""
    monkeypatch.setattr(engram.config, "_WARNED", set())


@pytest.fixture
def toml_file(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text('injection_mode = "flag"\n[recall]\nalpha = 0.3\nlimit = 6\n')
    return path


def test_environment_overrides_the_toml_file(toml_file: Path) -> None:
    config = Config.load(toml_file, env={"ENGRAM_RECALL_ALPHA": "0.9"})
    assert config.recall.alpha == 0.9
    # What the environment leaves alone still comes from the file.
    assert config.recall.limit == 6
    assert config.injection_mode == "flag"


def test_top_level_environment_overrides_the_toml_file(toml_file: Path) -> None:
    config = Config.load(toml_file, env={"ENGRAM_INJECTION_MODE": "off"})
    assert config.injection_mode == "off"


def test_keyword_overrides_beat_the_environment(toml_file: Path) -> None:
    config = Config.load(
        toml_file, env={"ENGRAM_RECALL_ALPHA": "0.9"}, recall={"alpha": 0.1}, injection_mode="block"
    )
    assert config.recall.alpha == 0.1
    assert config.injection_mode == "block"


def test_the_toml_file_beats_the_defaults(toml_file: Path) -> None:
    config = Config.load(toml_file, env={})
    assert (config.recall.alpha, config.recall.limit) == (0.3, 6)


def test_config_file_named_by_the_environment_is_still_read(toml_file: Path) -> None:
    config = Config.load(env={"ENGRAM_CONFIG": str(toml_file), "ENGRAM_RECALL_LIMIT": "9"})
    assert (config.recall.alpha, config.recall.limit) == (0.3, 9)


def test_unknown_variable_warns_with_the_closest_key() -> None:
    with pytest.warns(ConfigWarning, match="ENGRAM_RECAL_ALPHA") as caught:
        config = Config.load(env={"ENGRAM_RECAL_ALPHA": "0.3"})
    message = str(caught[0].message)
    assert "did you mean ENGRAM_RECALL_ALPHA" in message
    # A typo is not a setting: the default stays.
    assert config.recall.alpha == Config().recall.alpha


def test_unknown_variable_without_a_close_key_still_warns() -> None:
    with pytest.warns(ConfigWarning, match="ENGRAM_ZZZZZZZZZZZZ is not an engram setting"):
        Config.load(env={"ENGRAM_ZZZZZZZZZZZZ": "1"})


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("ENGRAM_RECAL_LIMIT", "ENGRAM_RECALL_LIMIT"),
        ("ENGRAM_EMBEDER_NAME", "ENGRAM_EMBEDDER_NAME"),
        ("ENGRAM_POSTGRES_POOL_MAXSIZE", "ENGRAM_POSTGRES_POOL_MAX_SIZE"),
        ("ENGRAM_INJECTON_MODE", "ENGRAM_INJECTION_MODE"),
        ("ENGRAM_STOR", "ENGRAM_STORE"),
        # Not settings, but engram's: a typo of one is still pointed at it.
        ("ENGRAM_CONFG", "ENGRAM_CONFIG"),
        ("ENGRAM_MCP_NAMESPASE", "ENGRAM_MCP_NAMESPACE"),
    ],
)
def test_typos_name_the_variable_meant(typo: str, meant: str) -> None:
    with pytest.warns(ConfigWarning) as caught:
        Config.load(env={typo: "1"})
    assert [str(w.message) for w in caught] == [
        f"{typo} is not an engram setting and is ignored; did you mean {meant}?"
    ]


def test_unknown_variable_without_a_close_key_points_at_the_docs() -> None:
    with pytest.warns(ConfigWarning) as caught:
        Config.load(env={"ENGRAM_COLOUR": "blue"})
    message = str(caught[0].message)
    assert "did you mean" not in message
    assert "docs/configuration.md" in message
    assert (DOCS / "configuration.md").is_file()


def test_every_setting_is_a_known_variable() -> None:
    """The known names come from the dataclasses, so a new setting never warns."""
    env = {"ENGRAM_STORE": ":memory:"}
    for section in dataclasses.fields(Config):
        value = getattr(Config(), section.name)
        if dataclasses.is_dataclass(value):
            for f in dataclasses.fields(value):
                env[f"ENGRAM_{section.name}_{f.name}".upper()] = _as_env(getattr(value, f.name))
        elif section.name not in ("home", "store"):
            env[f"ENGRAM_{section.name}".upper()] = _as_env(value)
    assert len(env) > 100
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert Config.load(env=env) == Config(store=":memory:")


def _as_env(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def test_each_unknown_name_warns_once_per_process() -> None:
    env = {"ENGRAM_RECAL_LIMIT": "9", "ENGRAM_EMBEDER_NAME": "none"}
    with pytest.warns(ConfigWarning) as first:
        Config.load(env=env)
    assert sorted(str(w.message).split()[0] for w in first) == sorted(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Config.load(env=env)
        Config.load(env={"ENGRAM_RECAL_LIMIT": "3"})
    # A new misspelling still warns.
    with pytest.warns(ConfigWarning, match="ENGRAM_RECALL_ALPA"):
        Config.load(env={**env, "ENGRAM_RECALL_ALPA": "0.2"})


def test_the_process_environment_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_RECAL_LIMIT", "9")
    with pytest.warns(ConfigWarning, match="did you mean ENGRAM_RECALL_LIMIT"):
        Config.load(home="/nonexistent-engram-home")


def test_python_dash_m_engram_runs_the_cli(tmp_path: Path) -> None:
    """``python -m engram`` is the ``engram`` command: usage says ``engram``, a command
    writes to the store, and a misspelt variable is a readable ``warning:`` line."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("ENGRAM_") and not key.startswith("PYTEST_")
    }
    env |= {"ENGRAM_HOME": str(tmp_path / "home"), "ENGRAM_EMBEDDER_NAME": "none"}

    def engram(*args: str, extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "engram", *args],
            env={**env, **(extra or {})},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    helped = engram("--help")
    assert helped.returncode == 0, helped.stderr
    assert helped.stdout.startswith("Usage: engram ")
    assert "__main__" not in helped.stdout
    added = engram("add", "the deploy key rotates every Monday", "--json")
    assert added.returncode == 0, added.stderr
    assert added.stderr == ""
    listed = engram("list", "--json", extra={"ENGRAM_RECAL_LIMIT": "9"})
    assert listed.returncode == 0, listed.stderr
    listed_ids = [row["id"] for row in json.loads(listed.stdout)["items"]]
    assert listed_ids == [json.loads(added.stdout)["id"]]
    assert listed.stderr.splitlines() == [
        "warning: ENGRAM_RECAL_LIMIT is not an engram setting and is ignored; "
        "did you mean ENGRAM_RECALL_LIMIT?"
    ]


@pytest.mark.parametrize(
    "name",
    [
        "ENGRAM_HOME",
        "ENGRAM_CONFIG",
        "ENGRAM_STORE",
        "ENGRAM_MCP_NAMESPACE",
        "ENGRAM_KEY",
        "ENGRAM_TEST_POSTGRES_URL",
    ],
)
def test_documented_variables_that_are_not_keys_do_not_warn(name: str, tmp_path: Path) -> None:
    value = str(tmp_path / "x.db") if name == "ENGRAM_STORE" else "team-x"
    if name in ("ENGRAM_HOME",):
        value = str(tmp_path)
    if name == "ENGRAM_CONFIG":
        value = ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Config.load(env={name: value})


def test_other_variables_are_not_engrams_business() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Config.load(env={"PATH": "/bin", "ENGRAMX": "1", "MY_ENGRAM_RECALL_ALPHA": "2"})


def _documented_example() -> str:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```toml\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, "docs/configuration.md should hold one example config"
    return str(blocks[0])


def test_the_documented_example_config_is_the_defaults(tmp_path: Path) -> None:
    example = tmp_path / "config.toml"
    example.write_text(_documented_example(), encoding="utf-8")
    # Loading validates every key; comparing checks every value against the dataclass.
    assert Config.load(example, env={}) == Config()


def test_docs_state_that_the_environment_overrides_the_file() -> None:
    text = (DOCS / "configuration.md").read_text(encoding="utf-8")
    order = re.search(r"highest precedence first:\s*\n(.*?)\n\n", text, flags=re.S)
    assert order is not None
    steps = order.group(1)
    assert steps.index("environment variables") < steps.index("a TOML file")


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("engram.db", "engram.db"),
        ("/abs/engram.db", "/abs/engram.db"),
        ("sqlite:///rel/x.db", "rel/x.db"),
        ("sqlite:////abs/x.db", "/abs/x.db"),
        (":memory:", None),
        ("sqlite://", None),
        ("sqlite:///:memory:", None),
        ("postgresql://engram@db/engram", None),
        ("postgres://engram@db/engram", None),
    ],
)
def test_sqlite_file_names_the_file_a_location_opens(location: str, expected: str | None) -> None:
    from engram.store import sqlite_path

    assert sqlite_file(location) == expected
    if expected is not None:
        # The one rule, in config and in the store: they must never disagree.
        assert sqlite_path(location) == expected


def test_a_config_file_that_is_not_utf8_is_a_config_error_naming_the_file(
    tmp_path: Path,
) -> None:
    """A file saved in another encoding raised a bare UnicodeDecodeError (a traceback on
    the CLI); it is a ConfigError naming the file and what to do."""
    path = tmp_path / "config.toml"
    path.write_bytes(b'\xff\xfe[recall]\nalpha = 0.3\ninjection_mode = "fl\xe9g"\n')
    with pytest.raises(engram.config.ConfigError, match="not UTF-8") as caught:
        Config.load(path, env={})
    assert str(path) in str(caught.value)
    assert "save it as UTF-8" in str(caught.value)


def test_a_config_file_with_a_utf8_byte_order_mark_is_read(tmp_path: Path) -> None:
    """Editors that write a BOM made the file fail with 'Invalid statement' at line 1."""
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf[recall]\nalpha = 0.3\n")
    assert Config.load(path, env={}).recall.alpha == 0.3


def test_a_directory_named_like_the_config_file_is_a_config_error(tmp_path: Path) -> None:
    """A directory called config.toml in the home was skipped silently, and with it the
    settings the user meant to give; named directly it was said not to exist."""
    (tmp_path / "config.toml").mkdir()
    with pytest.raises(engram.config.ConfigError, match="is a directory, not a file"):
        Config.load(env={"ENGRAM_HOME": str(tmp_path)})
    with pytest.raises(engram.config.ConfigError, match="is a directory, not a file"):
        Config.load(tmp_path / "config.toml", env={})
    # No config.toml at all is still the defaults.
    (tmp_path / "config.toml").rmdir()
    assert Config.load(env={"ENGRAM_HOME": str(tmp_path)}).recall == Config().recall
