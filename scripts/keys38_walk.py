"""keys38's figures: what the coder's key of a crew reaches of the planner's data.

The crew of tests/test_keys38_agent_keys.py (user dana; planner, coder, reviewer) on
one server: the coder's key walks every route of the cross-user walk against the
planner's private namespaces and with ``agent_id="planner"`` (``SCOPES``), then the
round-twenty-eight probes in the team namespace. A key bound to an agent exists only
from keys38 on; on an older tree the crew's keys are dana's keys named after the
agents, as round twenty-eight made them (``engram keys create --user dana --name coder``).

    PYTHONPATH=src:tests python scripts/keys38_walk.py                 # this tree
    PYTHONPATH=/tmp/base-keys38/src:tests python scripts/keys38_walk.py  # a base copy

It prints the walk's size, how many attempts were answered other than 403/404 (a
reach), how many answers carried the planner's private text (a leak), and each probe.
"""

from __future__ import annotations

import tempfile
from collections import Counter

import httpx

from conftest import HashEmbedder
from engram import Config, Memory
from engram.api import create_app
from engram.api.server import serve_in_thread
from test_keys38_agent_keys import AGENTS, PLANNER, SCOPES, seed, walk


def key_of(memory: Memory, agent: str) -> str:
    try:
        return memory.keys.create("dana", agent=agent, name=agent)[1]  # type: ignore[call-arg]
    except TypeError:  # before keys38: a key of dana's, named after the agent
        return memory.keys.create("dana", name=agent)[1]


def main() -> None:
    config = Config.load(env={}, home=tempfile.mkdtemp(prefix="keys38-"))
    with Memory(":memory:", config=config, embedder=HashEmbedder()) as memory:
        keys = {a: key_of(memory, a) for a in AGENTS}
        planted, publication = seed(memory)
        tried = walk(memory, planted)
        with serve_in_thread(create_app(memory, worker=False)) as url:
            codes: Counter[int] = Counter()
            reached = leaked = 0
            hdr = {"Authorization": f"Bearer {keys['coder']}"}
            with httpx.Client(base_url=url, timeout=30, headers=hdr) as coder:
                for method, path, params, body in tried:
                    r = coder.request(method, path, params=params, json=body)
                    codes[r.status_code] += 1
                    refused = r.status_code in (403, 404) or (
                        r.status_code == 422 and "is not a query parameter" in r.text
                    )
                    reached += not refused
                    if not refused:
                        print("answered:", method, path, params, r.status_code, r.text[:80])
                    leaked += "Falcon" in r.text or "PIN hint is" in r.text
            routes = {(m, p.split("?")[0]) for m, p, _, _ in tried}
            print(
                f"walk: {len(routes)} method+path pairs, {len(SCOPES)} scopes aimed at "
                f"{PLANNER.home}, {len(tried)} attempts; answered other than 403/404: "
                f"{reached}; answers with the planner's private text: {leaked}"
            )
            print("status codes:", dict(sorted(codes.items())))
            probes(url, keys, publication)


def probes(url: str, keys: dict[str, str], publication: str) -> None:
    def call(who: str, method: str, path: str, **kw: object) -> int:
        hdr = {"Authorization": f"Bearer {keys[who]}", **kw.pop("headers", {})}  # type: ignore[dict-item]
        return httpx.request(method, url + path, headers=hdr, timeout=30, **kw).status_code  # type: ignore[arg-type]

    rows = [
        (
            "coder searches user:dana/planner",
            call("coder", "POST", "/v1/search", json={"query": "PIN", "namespace": PLANNER.home}),
        ),
        (
            "coder writes with agent_id planner",
            call("coder", "POST", "/v1/memories", json={"content": "x", "agent_id": "planner"}),
        ),
        (
            "coder retracts the planner's handoff naming agent_id planner",
            call(
                "coder", "POST", f"/v1/shared/{publication}/retract", json={"agent_id": "planner"}
            ),
        ),
        (
            "reviewer reads the planner's session digest",
            call("reviewer", "GET", "/v1/sessions/planner-s1/recover"),
        ),
        (
            "reviewer's /mcp with X-Engram-Namespace user:dana/planner",
            call(
                "reviewer",
                "POST",
                "/mcp",
                headers={
                    "X-Engram-Namespace": PLANNER.home,
                    "Accept": "application/json, text/event-stream",
                },
                json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
            ),
        ),
        (
            "coder's team search (no agent_id) in user:dana",
            call("coder", "POST", "/v1/search", json={"query": "burst planner decision"}),
        ),
    ]
    for label, status in rows:
        print(f"probe {label}: {status}")


if __name__ == "__main__":
    main()
