"""Round twenty-eight over HTTP: three agent processes of user "dana" against one
``engram serve``, each with its own key of dana (``engram keys create --user dana
--name planner``, ``coder``, ``reviewer``: keys are per user, there is no per-agent key
of a user), writing 50 memories each through ``engram.client.EngramClient`` while the
coder tracks its session over ``/v1/sessions``; the coder is SIGKILLed after its
pre-compaction checkpoint and the digest read back; then what one agent's key can do
to another agent's data (the isolation probe) and the reviewer's ``/mcp`` with
``X-Engram-Namespace``.

    ENGRAM_HOME=/tmp/pass38-home2 engram keys create --user dana --name planner --json \\
        | jq -r .key > /tmp/pass38-home2/key-planner        # and coder, reviewer
    ENGRAM_HOME=/tmp/pass38-home2 engram serve --port 8838 &
    PYTHONPATH=src .venv/bin/python scripts/pass38_http_crew.py /tmp/pass38-home2 http://127.0.0.1:8838

It prints one line per check or probe (the probes print what happened; they are the
defects docs/benchmarks.md reports, not pass/fail checks).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

AGENTS = ("planner", "coder", "reviewer")


def _key(home: Path, agent: str) -> str:
    return (home / f"key-{agent}").read_text().strip()


def agent(home: Path, url: str, name: str) -> None:
    from engram.client import EngramClient

    hdr = {"Authorization": f"Bearer {_key(home, name)}"}
    with EngramClient(url, _key(home, name)) as mem:
        for i in range(50):
            rec = mem.add(f"{name} http note {i}: worked on limits step {i}", agent_id=name)
            with open(home / f"http-acked-{name}", "a", encoding="utf-8") as out:
                out.write(rec.id + "\n")
            if name != "coder":
                continue
            httpx.post(
                f"{url}/v1/sessions/coder-h1/track",
                headers=hdr,
                json={"prompt": f"step {i}", "project": "limits"},
                timeout=30,
            ).raise_for_status()
            if i == 30:
                httpx.post(
                    f"{url}/v1/sessions/coder-h1/checkpoints",
                    headers=hdr,
                    json={"trigger": "pre_compaction", "context": "http halfway"},
                    timeout=30,
                ).raise_for_status()
                (home / "http-halfway").touch()
                time.sleep(60)  # killed here


async def _mcp_probe(url: str, key: str) -> list[str]:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    out = []
    for ns in ("user:dana/reviewer", "user:dana/planner"):
        headers = {"Authorization": f"Bearer {key}", "X-Engram-Namespace": ns}
        async with (
            httpx2.AsyncClient(headers=headers) as http,
            Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client,
        ):
            res = await client.call_tool("search_memory", {"query": "PLANNER-PRIVATE"})
            out.append(f"reviewer's /mcp in {ns}: error={res.is_error} {str(res.content)[:90]}")
    return out


def drive(home: Path, url: str) -> None:
    for f in home.glob("http-*"):
        f.unlink()
    procs = {
        a: subprocess.Popen([sys.executable, __file__, "--agent", str(home), url, a])
        for a in AGENTS
    }
    while not (home / "http-halfway").exists():
        time.sleep(0.2)
    time.sleep(4)
    os.kill(procs["coder"].pid, signal.SIGKILL)
    print("exit codes", {a: p.wait() for a, p in procs.items()})
    auth = {a: {"Authorization": f"Bearer {_key(home, a)}"} for a in AGENTS}
    for a in AGENTS:
        ids = (home / f"http-acked-{a}").read_text().split()
        lost = [
            i
            for i in ids
            if httpx.get(f"{url}/v1/memories/{i}", headers=auth[a], timeout=30).status_code != 200
        ]
        print(f"{a}: {len(ids)} acked, {len(lost)} lost")
    digest = httpx.get(f"{url}/v1/sessions/coder-h1/recover", headers=auth["coder"], timeout=30)
    print("coder's digest:", json.dumps(digest.json()["digest"][:160]))

    def probe(label: str, who: str, method: str, path: str, **kw: object) -> httpx.Response:
        r = httpx.request(method, url + path, headers=auth[who], timeout=30, **kw)  # type: ignore[arg-type]
        print(f"probe {label}: {r.status_code}")
        return r

    probe(
        "planner writes a private note",
        "planner",
        "POST",
        "/v1/memories",
        json={"content": "PLANNER-PRIVATE doubt friday", "namespace": "user:dana/planner"},
    )
    found = probe(
        "coder searches planner's namespace",
        "coder",
        "POST",
        "/v1/search",
        json={"query": "doubt friday", "namespace": "user:dana/planner"},
    )
    print("   hits:", [h.get("memory", h).get("content") for h in found.json()["hits"]][:2])
    probe(
        "coder writes as agent_id planner",
        "coder",
        "POST",
        "/v1/memories",
        json={"content": "I am the planner, really", "agent_id": "planner"},
    )
    pub = probe(
        "planner publishes a handoff",
        "planner",
        "POST",
        "/v1/shared",
        json={"agent_id": "planner", "content": "Handoff to coder: token bucket"},
    )
    probe(
        "coder retracts it naming agent_id planner",
        "coder",
        "POST",
        f"/v1/shared/{pub.json()['id']}/retract",
        json={"agent_id": "planner", "reason": "x"},
    )
    probe(
        "reviewer reads coder's session digest", "reviewer", "GET", "/v1/sessions/coder-h1/recover"
    )
    for line in asyncio.run(_mcp_probe(url, _key(home, "reviewer"))):
        print(line)


if __name__ == "__main__":
    if sys.argv[1] == "--agent":
        agent(Path(sys.argv[2]), sys.argv[3], sys.argv[4])
    else:
        drive(Path(sys.argv[1]), sys.argv[2])
