"""Every fenced example in the user docs runs as written (engram issue 26, item 10).

Each page in ``PAGES`` is one test. Its fenced blocks run in the page's order, against a
fresh store in a temporary ``ENGRAM_HOME`` of its own (the converted model is shared
between pages, so it is converted once per module):

- ```python blocks run in one namespace per page, so a block may use the variables of a
  block before it. Text that names the default server, ``127.0.0.1:8765``, is pointed at
  this module's server (one ``engram serve`` app on a free port of 127.0.0.1), and
  ``ENGRAM_KEY`` holds a key of ``user:alice`` on it. Its chat proxy's upstream is a
  scripted OpenAI-compatible server on 127.0.0.1 (``tests/llmserver.py``).
- ```sh / ```bash / ```console blocks: each ``engram ...`` command runs through the CLI
  (Click's ``CliRunner``, in this process) in the page's home and must exit 0;
  ``echo TEXT | engram ...``, ``cat FILE | engram ...``, ``gunzip -c FILE | engram ...``
  and ``engram ... < FILE`` feed its standard input; ``engram ... | jq ...`` pipes its
  output through jq and ``engram ... | gzip > FILE`` writes it; ``NAME=$(engram ...)``
  keeps an output for later lines of the page (``$NAME``, ``${NAME}``,
  ``${NAME:0:10}``); ``echo TEXT > FILE`` writes a file; ``source .venv/bin/activate``
  is a no-op (the CLI runs in the test's environment). A block with ``curl`` runs in bash
  against the module's server with ``U`` (its URL), ``K`` (alice's key) and ``ADMIN``
  (an admin key) set, ``curl`` failing on an HTTP error (``--fail-with-body``) and
  ``set -eu -o pipefail`` failing on an unset variable or a failed call in a pipe. A
  ``K=engram_...`` line (the key the reader copies from ``make run``) is left out:
  ``K`` is already set. ``engram serve`` and ``engram worker`` run until stopped: an
  unmarked one fails the block at once (mark it parse-only).
- ```toml blocks are written to the page's ``config.toml`` and must load
  (``Config.load`` refuses an unknown key or a bad value).
- ```json blocks must parse (a fragment that starts with a member, ``"sides": {...}``,
  is parsed inside braces). An MCP client's config (``mcpServers``) is checked further:
  a server started with ``engram`` has arguments the CLI accepts (as parse-only does)
  and a server's ``url`` is the ``/mcp`` endpoint of the default server.
- Other blocks (```text, an unlabelled fence) are prose, not examples, unless marked as
  output (below).

Markers, an HTML comment on the line before the fence (blank lines between allowed):

- ``<!-- not-run: REASON -->``: the block cannot run offline (a remote LLM, ``make``,
  ``pip install``, docker, a PostgreSQL DSN ...); it is skipped. The reason is required.
- ``<!-- parse-only: REASON -->``: the block runs a server or a benchmark, or names ids
  a reader substitutes. Each ``engram`` command is parsed by the CLI (``... --help``:
  the command path and every option must exist) and each ``curl`` call's method and
  path must be in the app's OpenAPI paths; nothing runs. The reason is required. A
  ``$ `` prompt is dropped, and ``docker compose exec [-T] SERVICE engram ...`` and
  ``/usr/bin/time [-v] engram ...`` are parsed as the ``engram ...`` they run.
- ``<!-- output -->`` on a ```text block: the standard output of the python block before
  it, compared line by line after masking ids (32 hex digits) and timestamps.
- A ``$ engram ...`` console transcript compares the command's output with the lines
  shown under it, masked the same way.

In a python block, a one-line ``print(x)  # V`` or ``x  # V`` whose comment is a Python
literal or a single word is checked: ``x == V`` (``str(x) == V`` for a word). Other
output a page shows (``# <memory_context> ... </memory_context>``, a comment in words)
is not compared: those lines are checked for running without error only. A block the
harness cannot run and that carries no marker fails the page's test, naming the block.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import gzip
import io
import json
import os
import re
import shlex
import socket
import subprocess
import threading
import time
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from click.testing import CliRunner

from engram import Config, Memory
from engram.api import create_app
from engram.cli.main import cli
from llmserver import ScriptedLlm

ROOT = Path(__file__).resolve().parents[1]
PAGES = (
    "README.md",
    "docs/getting-started.md",
    "docs/library.md",
    "docs/cli.md",
    "docs/http.md",
    "docs/client.md",
    "docs/recall.md",
    "docs/sessions.md",
    "docs/runs.md",
    "docs/compat-mem0.md",
    "docs/configuration.md",
    "docs/review.md",
    "docs/procedures.md",
    # group B of the remaining guides
    "docs/chat.md",
    "docs/jobs.md",
    "docs/llm.md",
    "docs/deploy-docker.md",
    "docs/deploy-postgres.md",
    "docs/calibrate-abstain.md",
    "docs/pipeline.md",
    "docs/operations.md",
    "docs/adapters/langgraph.md",
    "docs/adapters/langchain.md",
    "docs/adapters/llamaindex.md",
    "docs/adapters/openai-agents.md",
    "docs/benchmarks.md",
    # group A of the remaining user guides
    "docs/mcp.md",
    "docs/graph.md",
    "docs/palace.md",
    "docs/documents.md",
    "docs/lifecycle.md",
    "docs/organisation.md",
    "docs/dashboard.md",
    "docs/maintenance.md",
    "docs/injection.md",
    "docs/safety.md",
    "docs/reliability.md",
    "docs/embeddings.md",
    "docs/storage.md",
    "docs/architecture.md",
)
FENCE = re.compile(r"^\s*```(\w*)\s*$")
MARKER = re.compile(r"^\s*<!--\s*(not-run|parse-only|output)\s*(?::\s*(.*?))?\s*-->\s*$")
SHELLS = {"sh", "bash", "console"}
RUNNABLE = {"python", "toml", "json", *SHELLS}  # every other block is prose
ACTIVATE = {"source .venv/bin/activate", "deactivate"}
DEFAULT_SERVER = "127.0.0.1:8765"
FOREVER = {"serve", "worker"}  # commands that run until stopped: a page marks them parse-only
ID = re.compile(r"\b[0-9a-f]{32}\b")
TIME = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?( UTC|Z|[+-]\d\d:\d\d)?")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    lang: str
    text: str
    marker: str | None
    reason: str | None

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line} ({self.lang or 'plain'})"


def blocks(page: str) -> list[Block]:
    """The fenced blocks of ``page`` with the marker before each, in order."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    found: list[Block] = []
    i = 0
    while i < len(lines):
        start = FENCE.match(lines[i])
        if start is None:
            i += 1
            continue
        end = i + 1
        while end < len(lines) and not FENCE.match(lines[end]):
            end += 1
        back = i - 1
        while back >= 0 and not lines[back].strip():
            back -= 1
        mark = MARKER.match(lines[back]) if back >= 0 else None
        found.append(
            Block(
                page=page,
                line=i + 1,
                lang=start.group(1),
                text="\n".join(lines[i + 1 : end]) + "\n",
                marker=mark.group(1) if mark else None,
                reason=mark.group(2) if mark else None,
            )
        )
        i = end + 1
    return found


def masked(text: str) -> list[str]:
    text = TIME.sub("<TIME>", ID.sub("<ID>", text))
    return [line.rstrip() for line in text.strip().splitlines()]


def commands(text: str) -> list[str]:
    """Shell lines of a block: continuations joined, blank and comment lines dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [ln for ln in joined.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]


def shown_values_checked(code: str) -> ast.Module:
    """``code`` with each one-line ``print(x)  # V`` or ``x  # V`` statement turned
    into a check that ``x`` equals ``V``, where the comment is what the page shows as
    its value: a Python literal (``# ['create', 'update']``, ``# True``) or a single
    word (``# hybrid``, compared with ``str(x)``). Other comments are prose."""
    comments = {
        tok.start[0]: tok.string[1:].strip()
        for tok in tokenize.generate_tokens(io.StringIO(code).readline)
        if tok.type == tokenize.COMMENT
    }
    tree = ast.parse(code)

    class Check(ast.NodeTransformer):
        def visit_Expr(self, node: ast.Expr) -> ast.AST:
            comment = comments.get(node.lineno)
            if comment is None or node.end_lineno != node.lineno:
                return node
            value = node.value
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Name)
                and value.func.id == "print"
                and len(value.args) == 1
                and not value.keywords
            ):
                value = value.args[0]
            try:
                ast.literal_eval(comment)
                shown: ast.expr = ast.parse(comment, mode="eval").body
                got: ast.expr = value
            except (ValueError, SyntaxError):
                if not re.fullmatch(r"\w+", comment):
                    return node
                shown = ast.Constant(comment)
                got = ast.Call(ast.Name("str", ast.Load()), [value], [])
            message = ast.Constant(f"line {node.lineno}: the page shows {comment}")
            check = ast.Compare(got, [ast.Eq()], [shown])
            test = ast.Assert(check, message)
            out = [ast.copy_location(test, node)]
            if value is not node.value:  # keep the print: later output blocks see it
                out.append(node)
            return out  # type: ignore[return-value]

    return ast.fix_missing_locations(Check().visit(tree))


# --- the module's server -------------------------------------------------------------


@dataclass
class Server:
    url: str
    key: str
    admin: str
    routes: list[tuple[set[str], re.Pattern[str]]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One model cache for every page's home: the model is converted once."""
    return tmp_path_factory.mktemp("models")


def _home(base: Path, models: Path) -> Path:
    base.mkdir(parents=True, exist_ok=True)
    (base / "models").symlink_to(models, target_is_directory=True)
    return base


@pytest.fixture(scope="module")
def upstream() -> Iterator[ScriptedLlm]:
    """The OpenAI-compatible model server behind the module server's chat proxy
    (``/v1/proxy``): it answers every chat request with one sentence."""
    with ScriptedLlm(models=("gpt-4o-mini",)) as llm:
        llm.fallback = lambda request: "Your boat is called Sea Biscuit."
        yield llm


@pytest.fixture(scope="module")
def server(
    tmp_path_factory: pytest.TempPathFactory, models: Path, upstream: ScriptedLlm
) -> Iterator[Server]:
    home = _home(tmp_path_factory.mktemp("server") / "home", models)
    config = Config.load(env={}, home=str(home))
    mem = Memory(config=config.with_overrides(chat={"upstream_url": upstream.openai_url}))
    _, key = mem.keys.create("alice")
    _, admin = mem.keys.create("ops", admin=True)
    app = create_app(mem, mcp=False, worker=False)
    routes = [  # the published contract: OpenAPI's paths and their methods
        ({method.upper() for method in methods}, _route_pattern(path))
        for path, methods in app.openapi()["paths"].items()
    ]
    port = _free_port()
    uv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error"))
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not uv.started:
        assert time.monotonic() < deadline, "the docs' server did not start"
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{port}", key, admin, routes)
    uv.should_exit = True
    thread.join(10)
    mem.close()


def _route_pattern(path: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$")


# --- running a page ------------------------------------------------------------------


class Page:
    """One page's state: its home, its python namespace, the last python output."""

    def __init__(self, home: Path, work: Path, server: Server) -> None:
        self.home = home
        self.work = work
        self.server = server
        self.namespace: dict[str, Any] = {"__name__": "__docs__"}
        self.last_output: str | None = None
        self.vars: dict[str, str] = {}  # NAME=$(engram ...) lines of the page's shell blocks
        self.env = {
            "ENGRAM_HOME": str(home),
            "ENGRAM_CONFIG": "",
            "ENGRAM_KEY": server.key,
            "U": server.url,
            "K": server.key,
            "ADMIN": server.admin,
        }

    def run(self, block: Block) -> None:
        if block.marker == "not-run":
            return
        if block.marker == "parse-only":
            self.parse_only(block)
            return
        if block.marker == "output":
            self.compare_output(block)
            return
        if block.lang == "python":
            self.python(block)
        elif block.lang in SHELLS:
            self.shell(block)
        elif block.lang == "json":
            self.json_block(block)
        elif block.lang == "toml":
            (self.home / "config.toml").write_text(block.text, encoding="utf-8")
            Config.load(env={}, home=str(self.home))

    def json_block(self, block: Block) -> None:
        text = block.text.strip()
        data = json.loads("{" + text + "}" if text.startswith('"') else text)
        servers = data.get("mcpServers", {}) if isinstance(data, dict) else {}
        for name, entry in servers.items():
            if Path(entry.get("command", "")).name == "engram":
                self.parse_engram(block, ["engram", *entry.get("args", [])])
            if "url" in entry:
                url = urlsplit(entry["url"])
                assert (url.netloc, url.path) == (DEFAULT_SERVER, "/mcp"), f"{block.where}: {name}"

    def python(self, block: Block) -> None:
        code = block.text.replace(DEFAULT_SERVER, self.server.url.removeprefix("http://"))
        out = io.StringIO()
        tree = shown_values_checked(code)
        with contextlib.redirect_stdout(out):
            exec(compile(tree, block.where, "exec"), self.namespace)
        self.last_output = out.getvalue()

    def compare_output(self, block: Block) -> None:
        assert self.last_output is not None, f"{block.where}: no python block before it"
        assert masked(self.last_output) == masked(block.text), block.where

    def shell(self, block: Block) -> None:
        lines = commands(block.text)
        if any(re.search(r"(^|[|;&(]\s*)curl\s", ln) for ln in lines):
            self.bash(block)
            return
        transcript = [ln for ln in block.text.splitlines() if ln.strip()]
        if transcript and transcript[0].startswith("$ "):
            self.transcript(block, transcript)
            return
        for line in lines:
            if line.split("#")[0].strip() in ACTIVATE:
                continue  # the CLI runs in this process: the environment is active
            line = self.expand(line)
            if assign := re.fullmatch(r"(\w+)=\$\((.*)\)\s*(#.*)?", line):
                self.vars[assign.group(1)] = self.engram(block, assign.group(2)).strip()
            elif write := re.fullmatch(r"echo (.*) > (\S+)\s*(#.*)?", line):
                text = " ".join(shlex.split(write.group(1)))
                (self.work / write.group(2)).write_text(text + "\n", encoding="utf-8")
            else:
                self.engram(block, line)

    def expand(self, line: str) -> str:
        """``$NAME``, ``${NAME}`` and ``${NAME:0:N}`` of a variable an earlier line set."""

        def value(match: re.Match[str]) -> str:
            name, length = match.group(1) or match.group(3), match.group(2)
            if name not in self.vars:
                return match.group(0)
            return self.vars[name][: int(length)] if length else self.vars[name]

        return re.sub(r"\$\{(\w+)(?::0:(\d+))?\}|\$(\w+)", value, line)

    def transcript(self, block: Block, lines: list[str]) -> None:
        command: str | None = None
        shown: list[str] = []
        for line in [*lines, "$ "]:
            if line.startswith("$ "):
                if command is not None:
                    got = self.engram(block, command, expect_ok=False)
                    assert masked(got) == masked("\n".join(shown)), f"{block.where}: {command}"
                command, shown = line[2:].strip(), []
            else:
                shown.append(line)

    def engram(self, block: Block, line: str, *, expect_ok: bool = True) -> str:
        """Run one ``[echo X |] [cat F |] [gunzip -c F |] engram ARGS [| jq ...]
        [| gzip > F]`` line; its output."""
        parts = [p.strip() for p in line.split(" | ")]
        stdin: str | None = None
        if len(parts) > 1 and parts[0].startswith(("echo ", "cat ", "gunzip -c ")):
            feed = shlex.split(parts.pop(0))
            if feed[0] == "echo":
                stdin = " ".join(feed[1:]) + "\n"
            elif feed[0] == "cat":
                stdin = (self.work / feed[1]).read_text(encoding="utf-8")
            else:
                stdin = gzip.decompress((self.work / feed[2]).read_bytes()).decode("utf-8")
        if redirect := re.search(r"\s<\s*(\S+)", parts[0]):  # engram ... < FILE
            stdin = (self.work / redirect.group(1)).read_text(encoding="utf-8")
            parts[0] = parts[0][: redirect.start()] + parts[0][redirect.end() :]
        sink = re.fullmatch(r"gzip > (\S+)\s*(#.*)?", parts[-1]) if len(parts) > 1 else None
        if sink is not None:
            parts.pop()
        args = shlex.split(parts[0], comments=True)
        env: dict[str, str] = {}
        while args and re.fullmatch(r"[A-Z_]+=.*", args[0]):
            name, _, value = args.pop(0).partition("=")
            env[name] = value
        assert args[:1] == ["engram"], f"{block.where}: cannot run {line!r}; mark the block"
        assert not FOREVER & set(args[1:2]), (
            f"{block.where}: {line!r} runs until stopped; mark it parse-only"
        )
        with contextlib.chdir(self.work):
            result = CliRunner().invoke(cli, args[1:], input=stdin, env=env)
        output = result.output
        if expect_ok:
            assert result.exit_code == 0, f"{block.where}: {line}\n{output}{result.exception!r}"
        output = result.stdout
        for pipe in parts[1:]:
            jq = shlex.split(pipe, comments=True)
            assert jq[:1] == ["jq"], f"{block.where}: cannot run {pipe!r}; mark the block"
            output = subprocess.run(
                jq, input=output, capture_output=True, text=True, check=True
            ).stdout
        if sink is not None:
            (self.work / sink.group(1)).write_bytes(gzip.compress(output.encode("utf-8")))
        return output if parts[1:] or sink else result.output

    def bash(self, block: Block) -> None:
        script = "\n".join(
            ln for ln in block.text.splitlines() if not re.match(r"^[A-Z]+=engram_\.\.\.", ln)
        ).replace(DEFAULT_SERVER, self.server.url.removeprefix("http://"))
        prelude = 'set -eu -o pipefail\ncurl() { command curl --fail-with-body -sS "$@"; echo; }\n'
        done = subprocess.run(
            ["bash", "-c", prelude + script],
            cwd=self.work,
            env={**os.environ, **self.env},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, f"{block.where}:\n{done.stdout}\n{done.stderr}"

    def parse_only(self, block: Block) -> None:
        for line in commands(block.text):
            for call in re.split(r"\s(?:\||&&|;)\s", line):
                words = wrapped(shlex.split(call.removeprefix("$ "), comments=True))
                while words and re.fullmatch(r"[A-Z_]+=.*", words[0]):
                    words.pop(0)
                if words[:1] == ["engram"]:
                    self.parse_engram(block, words)
                elif words[:1] == ["curl"]:
                    self.parse_curl(block, words)

    def parse_engram(self, block: Block, words: list[str]) -> None:
        path = [w for w in words[1:] if w != "--"]
        result = CliRunner().invoke(cli, [*path, "--help"])
        assert result.exit_code == 0, f"{block.where}: {shlex.join(words)}\n{result.output}"

    def parse_curl(self, block: Block, words: list[str]) -> None:
        method = "GET"
        url = next(w for w in words if w.startswith(("$U", "http", "127.0.0.1")))
        if any(w in ("-d", "--data") for w in words):
            method = "POST"
        if "-G" in words:
            method = "GET"
        if "-X" in words:
            method = words[words.index("-X") + 1]
        path = re.sub(r"^(\$U|https?://[^/]+|127\.0\.0\.1:\d+)", "", url).split("?")[0]
        path = re.sub(r"\$\{?\w+\}?", "X", path)
        assert any(
            method in methods and pattern.match(path) for methods, pattern in self.server.routes
        ), f"{block.where}: no route {method} {path}"


def wrapped(words: list[str]) -> list[str]:
    """The command a parse-only line runs: ``docker compose exec [-T] SERVICE engram ...``
    is the ``engram ...`` after the service, ``/usr/bin/time [-v] engram ...`` the
    ``engram ...`` it times; a ``> FILE`` redirection and what follows it are left out."""
    if words[:1] == ["/usr/bin/time"]:
        words = words[2:] if words[1:2] == ["-v"] else words[1:]
    if words[:3] == ["docker", "compose", "exec"]:
        rest = words[3:]
        while rest and rest[0].startswith("-"):
            rest.pop(0)
        words = rest[1:]  # the service's name, then its command
    return words[: words.index(">")] if ">" in words else words


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_page_examples_run(
    page: str,
    server: Server,
    models: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page's blocks run in order; see the module docstring for what is compared."""
    home = _home(tmp_path / "home", models)
    work = tmp_path / "work"
    work.mkdir()
    state = Page(home, work, server)
    for name, value in state.env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.chdir(work)
    failures: list[str] = []
    for block in blocks(page):
        if block.marker in ("not-run", "parse-only"):
            assert block.reason, f"{block.where}: a {block.marker} marker needs a reason"
        if block.marker is None and block.lang not in RUNNABLE:
            continue
        try:
            state.run(block)
        except Exception as exc:  # every failing block of the page is reported at once
            failures.append(f"{block.where}: {type(exc).__name__}: {exc}")
    close_memories(state.namespace)
    assert not failures, "\n\n".join(failures)


def close_memories(namespace: dict[str, Any]) -> None:
    """Close the stores and clients a page left open, so a page's background worker
    (``Memory(background=True)``) stops with its page instead of polling a deleted home,
    and a client's socket is closed by its page, not reported (as an unclosed socket,
    an error under ``-W error``) in whatever test the garbage collector next runs in."""
    for value in namespace.values():
        if isinstance(value, type) or not callable(getattr(value, "close", None)):
            continue
        if isinstance(value, Memory) or type(value).__module__.split(".")[0] in CLIENTS:
            value.close()
    gc.collect()  # a socket the page's own objects still hold is reported here, by its page


#: Packages whose objects a page may leave open holding a socket (closed after the page).
CLIENTS = {"engram", "httpx", "openai"}


def test_markers_are_honest() -> None:
    """Markers only sit on blocks they apply to, each with a reason."""
    for page in PAGES:
        for block in blocks(page):
            if block.marker == "output":
                assert block.lang == "text", block.where
            elif block.marker is not None:
                assert block.reason, block.where
                assert block.lang in RUNNABLE, block.where
