"""httpx is imported when engram first talks to a model server, fetches a page or proxies
a chat, not by ``import engram``, a store's open or the HTTP app's making: its import
brings ~13.5k objects (its optional command line pulls in rich, click and pygments when
they are installed) that every full garbage collection walks (docs/benchmarks.md,
"mend29"). Run in a fresh interpreter: this one has imported httpx long since."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SRC = TESTS.parent / "src"

PROBE = """
import sys
from engram import Memory
from engram.api import create_app
from engram.llm import create_provider
from engram.settings import LlmConfig
from hashembed import HashEmbedder

with Memory(sys.argv[1], embedder=HashEmbedder()) as memory:
    memory.add("the deploy freeze starts on Friday")
    memory.recall("when does the freeze start")
    create_app(memory, mcp=False, worker=False)
    create_provider(LlmConfig(provider="ollama"))
print(sorted(m for m in sys.modules if m == "httpx" or m.startswith("httpx.")))
"""


def test_the_library_and_the_app_do_not_import_httpx(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(map(str, (SRC, TESTS))),
        "ENGRAM_HOME": str(tmp_path / "home"),
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "m.db")],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"
