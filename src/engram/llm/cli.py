"""The CLI provider: one command run per prompt (seed 004's ClaudeCodeProvider).

seed 004: "invokes the Claude Code CLI as a subprocess: claude -p <prompt> --model
<model> --no-session-persistence --output-format text. The default model is haiku.
Timeout is 60,000 ms." Here the command line is a template (``[llm] command``), so any
CLI that answers a prompt on stdout fits (``llm -m {model} {prompt}``, ``ollama run``).

The template is split with :func:`shlex.split` and ``{prompt}`` / ``{model}`` are filled
into the resulting argv items, so the prompt is always exactly one argument and never
passes through a shell. A template without ``{prompt}`` gets the prompt on stdin.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess

from engram.errors import ConfigError, LlmError
from engram.llm.base import JsonSchema, Named
from engram.llm.http import excerpt

#: seed 004: ClaudeCodeProvider's command line.
DEFAULT_COMMAND = "claude -p {prompt} --model {model} --no-session-persistence --output-format text"
#: seed 004: "The default model is haiku."
DEFAULT_MODEL = "haiku"
#: seed 004: "Timeout is 60,000 ms."
DEFAULT_TIMEOUT_S = 60.0

_PLACEHOLDER = re.compile(r"\{(prompt|model)\}")


class CliProvider(Named):
    """Runs a command per prompt and returns its stdout.

    A run past the timeout is killed (with everything it started, on POSIX) and raises
    :class:`~engram.errors.LlmError`; so does a non-zero exit, with the first 200
    characters of stderr (seed 004's excerpt length).
    """

    name = "cli"

    def __init__(
        self,
        *,
        command: str = DEFAULT_COMMAND,
        model: str = "",
        timeout: float = DEFAULT_TIMEOUT_S,
    ) -> None:
        try:
            self.template = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"llm.command {command!r} cannot be split: {exc}") from None
        if not self.template:
            raise ConfigError("llm.command is empty; give the command that answers a prompt")
        self.model = model or DEFAULT_MODEL
        self.timeout = timeout
        self.reads_stdin = not any("{prompt}" in part for part in self.template)

    def argv(self, prompt: str) -> list[str]:
        """The command line for ``prompt``: the template with placeholders filled in one
        pass, so a prompt that contains ``{model}`` is left as written."""
        values = {"prompt": prompt, "model": self.model}
        return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], part) for part in self.template]

    def generate(
        self, prompt: str, *, schema: JsonSchema | None = None, timeout: float | None = None
    ) -> str:
        """The command's stdout for ``prompt``. ``schema`` is not sent: a CLI takes only
        the prompt, which should ask for the JSON it wants."""
        limit = self.timeout if timeout is None else timeout
        argv = self.argv(prompt)
        try:
            proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE if self.reads_stdin else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                # Its own process group, so a timeout kills what it started too.
                start_new_session=True,
            )
        except OSError as exc:
            raise LlmError(f"{self.who}: cannot run {argv[0]!r}: {exc.strerror or exc}") from exc
        try:
            out, err = proc.communicate(prompt if self.reads_stdin else None, timeout=limit)
        except subprocess.TimeoutExpired:
            _kill(proc)
            raise LlmError(f"{self.who}: {argv[0]} timed out after {limit:g} s") from None
        if proc.returncode != 0:
            raise LlmError(
                f"{self.who}: {argv[0]} exited with status {proc.returncode}: "
                f"{excerpt(err) or '(no stderr)'}"
            )
        return out

    def available(self) -> bool:
        """seed 004: the command is on PATH (or is an executable path)."""
        return shutil.which(self.template[0]) is not None

    def __repr__(self) -> str:
        return f"CliProvider(command={shlex.join(self.template)!r}, model={self.model!r})"


def _kill(proc: subprocess.Popen[str]) -> None:
    """Kill ``proc``'s process group (POSIX) or ``proc`` itself, and reap it."""
    try:
        if os.name == "posix":
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows has no process groups to kill
            proc.kill()
    except ProcessLookupError:
        pass  # it exited between the timeout and the kill
    proc.communicate()
