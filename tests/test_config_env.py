"""Where settings come from: keyword overrides > ``ENGRAM_*`` environment > TOML file >
defaults; unknown ``ENGRAM_*`` variables warn; the documented example is the defaults."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

from engram import Config
from engram.config import ConfigWarning, sqlite_file

DOCS = Path(__file__).resolve().parents[1] / "docs"


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
