"""schemathesis against the live OpenAPI spec: generated requests never get a 5xx, and
every response matches the spec's status codes, content types and schemas.

Bounded: a few examples per operation, no shrinking, a per-example deadline.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread

KEY: dict[str, str] = {}


@pytest.fixture(scope="module")
def live_api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home: Path = tmp_path_factory.mktemp("schema-home")
    config = Config.load(env={}, home=str(home))
    with Memory(home / "engram.db", config=config, embedder=HashEmbedder()) as memory:
        KEY["admin"] = memory.keys.create("root", admin=True)[1]
        memory.add("Deploys go through ops/deploy.sh", namespace="default")
        with serve_in_thread(create_app(memory)) as url:
            yield url


CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

BOUNDED = settings(
    max_examples=6,
    deadline=5000,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)


def _exercise(operation: Any, headers: dict[str, str], count: Callable[[], None]) -> None:
    """Run the bounded examples of one operation; raises on the first failing check."""

    @given(case=operation.as_strategy())
    @BOUNDED
    def check(case: Any) -> None:
        count()
        response = case.call(headers=headers, timeout=10)
        case.validate_response(response, checks=CHECKS)

    check()


def test_no_server_errors_and_responses_match_the_spec(live_api: str) -> None:
    # schemathesis' pytest plugin (from_fixture/parametrize) does not run on pytest 9,
    # so each operation's strategy is driven by hypothesis directly.
    schema = schemathesis.openapi.from_url(f"{live_api}/openapi.json")
    headers = {"Authorization": f"Bearer {KEY['admin']}"}
    failures: list[str] = []
    calls: dict[str, int] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        name = f"{operation.method.upper()} {operation.path}"
        calls[name] = 0

        try:
            _exercise(
                operation, headers, lambda name=name: calls.__setitem__(name, calls[name] + 1)
            )
        except Exception as exc:  # report every failing operation, not only the first
            failures.append(f"{name}: {exc}")
    assert not failures, "\n\n".join(failures)
    assert len(calls) >= 19 and all(calls.values()), calls
