"""The OpenAPI document fits client generators: unique readable operation ids, unique
schema titles, and ``openapi-python-client`` generates a function for every route."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app

#: ``<resource>_<verb>``: lower-case words, no path fragments (FastAPI's default id is
#: ``feedback_v1_v1_memories__memory_id__feedback_post``).
READABLE = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")  # a tag may hold a digit: mem0
PATH_WORDS = {"v1", "api"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    config = Config.load(env={})
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        return create_app(memory).openapi()


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method, path, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    ]


def test_operation_ids_are_unique_and_readable(spec: dict[str, Any]) -> None:
    operations = _operations(spec)
    ids = [operation["operationId"] for _, _, operation in operations]
    assert len(ids) >= 100
    assert [i for i, n in Counter(ids).items() if n > 1] == []
    unreadable = [
        i for i in ids if not READABLE.fullmatch(i) or PATH_WORDS & set(i.split("_")) or "__" in i
    ]
    assert unreadable == []
    by_route = {f"{method.upper()} {path}": op["operationId"] for method, path, op in operations}
    assert by_route["POST /v1/memories"] == "memories_create"
    assert by_route["POST /v1/memories/{memory_id}/feedback"] == "feedback_rate"
    # Each id starts with its route's first tag: a generator's module per tag finds it.
    assert all(op["operationId"].startswith(op["tags"][0]) for _, _, op in operations)


def test_no_two_schemas_share_a_title(spec: dict[str, Any]) -> None:
    titles = Counter(schema.get("title") for schema in spec["components"]["schemas"].values())
    assert [title for title, n in titles.items() if n > 1] == []
    # FastAPI qualifies a name shared by two models with its module: none may need it.
    assert [name for name in spec["components"]["schemas"] if "__" in name] == []


def _generator() -> str | None:
    beside = Path(sys.executable).parent / "openapi-python-client"
    return str(beside) if beside.exists() else shutil.which("openapi-python-client")


#: ``"method": "post", "url": "/v1/runs/{run_id}/hits"`` in a generated module.
REQUEST = re.compile(r'"method":\s*"(\w+)",\s*"url":\s*"([^"]+)"')
#: A path parameter: the generator renames one that a query parameter also names.
PARAMETER = re.compile(r"\{[^}]*\}")


def _route(method: str, path: str) -> tuple[str, str]:
    return method.lower(), PARAMETER.sub("{}", path)


def test_the_generated_client_has_every_route(spec: dict[str, Any], tmp_path: Path) -> None:
    generator = _generator()
    if generator is None:
        pytest.skip("openapi-python-client is not installed (pip install -e '.[dev]')")
    document = tmp_path / "openapi.json"
    document.write_text(json.dumps(spec))
    config = tmp_path / "generator.json"
    config.write_text(json.dumps({"post_hooks": []}))  # no formatter: nothing to run
    out = tmp_path / "client"
    done = subprocess.run(
        [generator, "generate", "--path", str(document), "--output-path", str(out)]
        + ["--meta", "none", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    generated = set()
    for module in out.glob("**/api/*/*.py"):
        generated.update(_route(*request) for request in REQUEST.findall(module.read_text()))
    wanted = {_route(method, path) for method, path, _ in _operations(spec)}
    assert sorted(wanted - generated) == [], done.stdout  # the generator says why it dropped them
