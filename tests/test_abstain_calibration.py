"""A user's abstain calibration (issue 24): ``engram bench abstain --fit`` writes it under
the data directory, never into the installed package, and recall uses it for the
embedder it was fitted for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import HashEmbedder
from engram import Memory
from engram.bench import abstain as bench
from engram.cli.main import cli
from engram.config import Config
from engram.errors import ConfigError
from engram.recall import abstain, calibrations

NOTES = {
    "deploy": "The deploy script tags the release and pushes the image to the registry.",
    "tea": "Alice prefers green tea over coffee in the morning.",
    "tests": "We decided to run the test suite with warnings as errors.",
    "oncall": "The on-call rotation changes every Monday at 9am.",
    "backup": "Nightly backups of the database go to the bucket in Frankfurt.",
    "vet": "The cat's vet is Dr. Ahmed on Rue Lafayette.",
}
ASKED = {
    "deploy": "which script tags the release image?",
    "tea": "does Alice prefer tea or coffee?",
    "tests": "how does the test suite treat warnings?",
    "oncall": "when does the on-call rotation change?",
    "backup": "where do the nightly database backups go?",
    "vet": "who is the cat's vet?",
}
UNRELATED = [
    "zeppelin mustard voltage",
    "saxophone glacier tariff",
    "orbital basil quarrel",
    "violin pumice ledger",
    "tundra marimba sonnet",
    "walrus gazebo invoice",
]


def _fill(mem: Memory) -> None:
    for key, text in NOTES.items():
        mem.add(text, metadata={"note": key})


def _rows(mem: Memory) -> list[bench.Row]:
    """The small store asked its own questions and unrelated ones, with the decision
    off, as the benchmark records them."""
    rows = []
    for n, (key, question) in enumerate(ASKED.items()):
        gold = frozenset({key})
        rows.append(
            bench.ask(
                mem, "answerable", "paraphrase", n % 2, f"a{n}", "default", question, gold, "note"
            )
        )
    for n, text in enumerate(UNRELATED):
        rows.append(
            bench.ask(mem, "cross", "paraphrase", n % 2, f"x{n}", "default", text, frozenset())
        )
    return rows


def test_the_path_is_named_after_the_embedder(tmp_path: Path) -> None:
    path = calibrations.path_for(tmp_path, "ollama:nomic-embed-text")
    assert path == tmp_path / "calibration" / "abstain-ollama_nomic-embed-text.json"
    assert calibrations.path_for(tmp_path, "openai:text/embed 3").name == (
        "abstain-openai_text_embed_3.json"
    )


def test_a_fit_from_a_small_store_is_what_recall_then_uses(config: Config, reopenable: str) -> None:
    home = config.home_path
    with Memory(reopenable, config=config, embedder=HashEmbedder(4096)) as mem:
        _fill(mem)
        rows = _rows(mem)
        # Without a calibration for it, this embedder is judged on words alone: an
        # unrelated query with a dense leg is uncertain (one marked line), not silent.
        unsure = mem.recall(UNRELATED[0])
        assert not unsure.abstained and unsure.low_confidence
    fitted = bench.fit(rows, HashEmbedder.name)
    path = calibrations.save(home, HashEmbedder.name, fitted, "a small test store")
    assert path == home / "calibration" / "abstain-test-hash.json"
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["embedder"] == HashEmbedder.name and saved["fitted_on"] == "a small test store"
    assert saved["low_threshold"] == fitted["low_threshold"]
    loaded = calibrations.load(path, HashEmbedder.name)
    assert (
        loaded.low_threshold == fitted["low_threshold"] and loaded.threshold == fitted["threshold"]
    )

    with Memory(reopenable, config=config, embedder=HashEmbedder(4096)) as mem:
        # The fitted floors decide now: the unrelated query is silent, by the model.
        quiet = mem.recall(UNRELATED[0])
        assert quiet.abstained and not quiet.hits
        assert f"the floor calibrated for {HashEmbedder.name}" in (quiet.abstain_reason or "")
        assert mem.recall(ASKED["vet"]).hits[0].memory.metadata["note"] == "vet"
    # Floors moved in the file move recall's decision: nothing is related any more.
    path.write_text(
        json.dumps({**saved, "threshold": 50.0, "low_threshold": 50.0}), encoding="utf-8"
    )
    with Memory(reopenable, config=config, embedder=HashEmbedder(4096)) as mem:
        assert mem.recall(ASKED["vet"]).abstained
    # Deleting the file undoes the fit: words alone again.
    path.unlink()
    with Memory(reopenable, config=config, embedder=HashEmbedder(4096)) as mem:
        assert not mem.recall(ASKED["vet"]).abstained
        assert not mem.recall(UNRELATED[0]).abstained


def test_the_file_is_found_under_engram_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No home in the config: ENGRAM_HOME names the data directory, and its file decides.
    monkeypatch.setenv("ENGRAM_HOME", str(tmp_path / "env-home"))
    config = Config.load(env={})
    assert config.home_path == tmp_path / "env-home"
    calibrations.save(
        tmp_path / "env-home",
        HashEmbedder.name,
        {**FIELDS, "threshold": 50.0, "low_threshold": 50.0},
        "test",
    )
    with Memory(":memory:", config=config, embedder=HashEmbedder(4096)) as mem:
        _fill(mem)
        assert mem.recall(ASKED["vet"]).abstained


def test_another_embedder_keeps_its_own_rule(config: Config) -> None:
    # A file for one embedder is not read for another; the shipped calibration stays
    # the default model's.
    class Other(HashEmbedder):
        name = "other-hash"

    fitted = bench.fit(_fit_rows(config), HashEmbedder.name)
    calibrations.save(config.home_path, HashEmbedder.name, fitted, "test")
    assert calibrations.for_embedder(config.home_path, Other.name) is abstain.CALIBRATION
    assert calibrations.for_embedder(config.home_path, None) is abstain.CALIBRATION
    with Memory(":memory:", config=config, embedder=Other(4096)) as mem:
        _fill(mem)
        assert not mem.recall(UNRELATED[0]).abstained  # words only: uncertain


def _fit_rows(config: Config) -> list[bench.Row]:
    with Memory(":memory:", config=config, embedder=HashEmbedder(4096)) as mem:
        _fill(mem)
        return _rows(mem)


#: A well-formed calibration, the cases below each break one thing in it.
FIELDS = {
    "features": ["sim", "overlap"],
    "mean": [0.3, 0.4],
    "scale": [0.2, 0.3],
    "coef": [3.0, 0.0],
    "intercept": 0.4,
    "threshold": -0.3,
    "low_threshold": -3.0,
    "embedder": HashEmbedder.name,
}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("{not json", "cannot read"),
        (json.dumps({"embedder": HashEmbedder.name}), "lacks features"),
        (json.dumps({**FIELDS, "embedder": "someone-else"}), "fitted for 'someone-else'"),
        (json.dumps({**FIELDS, "mean": "x"}), "malformed"),
        (json.dumps({**FIELDS, "standing": {"angle": 80.0}}), "malformed.*floor"),
        (json.dumps({**FIELDS, "features": ["sim", "ns_mean"]}), "does not measure"),
        (json.dumps({**FIELDS, "coef": [3.0]}), "one weight per feature"),
    ],
)
def test_a_bad_file_says_what_is_wrong_and_what_to_do(
    config: Config, body: str, message: str
) -> None:
    path = calibrations.path_for(config.home_path, HashEmbedder.name)
    path.parent.mkdir(parents=True)
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as caught:
        Memory(":memory:", config=config, embedder=HashEmbedder())
    assert "bench abstain --fit" in str(caught.value) and str(path) in str(caught.value)
    assert path.read_text(encoding="utf-8") == body  # nothing is lost or rewritten


def test_fit_needs_an_embedder_and_package_needs_fit(tmp_path: Path) -> None:
    saved = tmp_path / "rows.json"
    bench.save_rows([_row(i, kind) for i in range(6) for kind in ("answerable", "cross")], saved)
    base = ["--home", str(tmp_path / "home"), "bench", "abstain", "--rows", str(saved)]
    env = {"ENGRAM_EMBEDDER_NAME": "none", "ENGRAM_CONFIG": ""}
    run = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "o"), "--fit"], env=env)
    assert run.exit_code != 0 and "none is configured" in run.output
    run = CliRunner().invoke(cli, [*base, "--out", str(tmp_path / "o"), "--package"], env=env)
    assert run.exit_code != 0 and "pass it with --fit" in run.output
    assert not (tmp_path / "home" / "calibration").exists()


@pytest.mark.slow
def test_cli_fit_writes_the_users_file_not_the_package(tmp_path: Path) -> None:
    weights = Path(abstain.__file__).with_name("abstain_weights.py")
    before = weights.read_bytes()
    saved = tmp_path / "rows.json"
    bench.save_rows([_row(i, kind) for i in range(30) for kind in ("answerable", "cross")], saved)
    home = tmp_path / "home"
    run = CliRunner().invoke(
        cli,
        ["--home", str(home), "bench", "abstain", "--rows", str(saved), "--fit"]
        + ["--out", str(tmp_path / "out")],
        env={"ENGRAM_EMBEDDER_NAME": "minilm", "ENGRAM_CONFIG": ""},
    )
    assert run.exit_code == 0, run.output
    written = home / "calibration" / f"abstain-{abstain.CALIBRATION.embedder}.json"
    assert "calibration written" in run.output and written.is_file()
    assert weights.read_bytes() == before
    loaded = calibrations.for_embedder(home, abstain.CALIBRATION.embedder)
    assert loaded is not abstain.CALIBRATION and loaded.embedder == abstain.CALIBRATION.embedder


def _row(i: int, kind: str) -> bench.Row:
    sim = 0.4 + 0.01 * i if kind == "answerable" else 0.05 + 0.005 * i
    answerable = kind == "answerable"
    return bench.Row(
        kind,
        "paraphrase",
        i % 2,
        f"{kind}{i}",
        "agent",
        sim,
        0.0,
        3,
        False,
        sim,
        sim,
        0 if answerable else None,
        10.0,
        hit_sims=[sim, sim / 3],
        hit_overlaps=[0.0, 0.0],
        hit_fused=[sim, sim / 3],
        hit_scores=[sim, sim / 3],
        gold_ranks=[0] if answerable else [],
    )
