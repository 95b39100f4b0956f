"""The CLI provider: seed 004's ``-p`` subprocess pattern, run with real processes."""

from __future__ import annotations

import json
import os
import shlex
import sys
import time
from pathlib import Path

import pytest

from engram import Config
from engram.errors import ConfigError, LlmError
from engram.llm import CliProvider, create_provider, parse_json

#: A stand-in CLI: prints its arguments (and stdin) as JSON, or misbehaves on request.
FAKE_CLI = """
import json, os, subprocess, sys, time
args = sys.argv[1:]
mode = os.environ.get("FAKE_CLI_MODE", "echo")
if mode == "fail":
    sys.stderr.write("error: model not found " + "e" * 400)
    sys.exit(3)
if mode == "hang":
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    with open(os.environ["FAKE_CLI_PIDFILE"], "w") as fh:
        fh.write(str(child.pid))
    time.sleep(60)
stdin = "" if sys.stdin is None or sys.stdin.closed else sys.stdin.read()
print("<think>echoing</think>")
print(json.dumps({"args": args, "stdin": stdin}))
"""


@pytest.fixture
def fake_cli(tmp_path: Path) -> str:
    """The command prefix that runs the stand-in CLI with this Python."""
    script = tmp_path / "fake_cli.py"
    script.write_text(FAKE_CLI, encoding="utf-8")
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))}"


def test_the_prompt_is_one_argument_and_never_reaches_a_shell(fake_cli: str) -> None:
    provider = CliProvider(command=f"{fake_cli} -p {{prompt}} --model {{model}}", model="haiku")
    prompt = 'Extract facts from: it\'s "quoted"; $(rm -rf /) `id` && echo {model} *\nline 2'
    answer = parse_json(provider.generate(prompt))
    assert answer["args"] == ["-p", prompt, "--model", "haiku"]


def test_a_placeholder_inside_an_argument_is_filled(fake_cli: str) -> None:
    provider = CliProvider(command=f"{fake_cli} --prompt={{prompt}} -m={{model}}", model="m1")
    assert parse_json(provider.generate("a b"))["args"] == ["--prompt=a b", "-m=m1"]


def test_a_template_without_prompt_gets_it_on_stdin(fake_cli: str) -> None:
    provider = CliProvider(command=f"{fake_cli} --model {{model}}", model="m")
    assert provider.reads_stdin
    answer = parse_json(provider.generate("the prompt\nwith lines"))
    assert answer == {"args": ["--model", "m"], "stdin": "the prompt\nwith lines"}


def test_a_non_zero_exit_is_an_error_with_stderr(
    fake_cli: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_CLI_MODE", "fail")
    provider = CliProvider(command=f"{fake_cli} {{prompt}}", model="haiku")
    with pytest.raises(LlmError) as caught:
        provider.generate("q")
    message = str(caught.value)
    assert message.startswith("cli model 'haiku': ")
    assert "exited with status 3: error: model not found eee" in message
    # seed 004's 200-character excerpt
    assert message.endswith("e" * 176 + "...")


def test_a_timeout_kills_the_command_and_what_it_started(
    fake_cli: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "child.pid"
    monkeypatch.setenv("FAKE_CLI_MODE", "hang")
    monkeypatch.setenv("FAKE_CLI_PIDFILE", str(pidfile))
    provider = CliProvider(command=f"{fake_cli} {{prompt}}", timeout=60)
    started = time.monotonic()
    with pytest.raises(LlmError, match=r"timed out after 2 s"):
        provider.generate("q", timeout=2.0)
    # The grandchild held the output pipes open; killing only the child would hang here.
    # Hang guard: 2 s quiet; 30 s survives load 15, and the pipe hang lasts the fake's 60 s.
    assert time.monotonic() - started < 30
    child = int(pidfile.read_text())
    assert not _running(child)


def _running(pid: int) -> bool:
    """Alive and not a zombie (a reparented child may wait a moment to be reaped)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        status = Path(f"/proc/{pid}/status")
        if status.exists() and "State:\tZ" in status.read_text():
            return False
        time.sleep(0.05)
    return True


def test_a_missing_command_is_an_error_and_unavailable() -> None:
    provider = CliProvider(command="engram-no-such-llm-cli -p {prompt}")
    assert provider.available() is False
    with pytest.raises(LlmError, match="cannot run 'engram-no-such-llm-cli'"):
        provider.generate("q")


def test_available_finds_the_command(fake_cli: str) -> None:
    assert CliProvider(command=f"{fake_cli} {{prompt}}").available() is True


@pytest.mark.parametrize("command", ["claude -p '{prompt}", "   "])
def test_a_bad_template_is_a_config_error(command: str) -> None:
    with pytest.raises(ConfigError, match="llm.command"):
        CliProvider(command=command)


def test_the_configured_cli_provider_runs(fake_cli: str) -> None:
    env = {
        "ENGRAM_LLM_PROVIDER": "cli",
        "ENGRAM_LLM_COMMAND": f"{fake_cli} {{prompt}} {{model}}",
        "ENGRAM_LLM_MODEL": "sonnet",
    }
    provider = create_provider(Config.load(env=env).llm)
    assert provider is not None and provider.name == "cli"
    assert json.loads(provider.generate("hi").splitlines()[-1])["args"] == ["hi", "sonnet"]
