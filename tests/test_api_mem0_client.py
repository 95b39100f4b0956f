"""mem0's hosted client (``MemoryClient``) pointed at engram (pass42): the requests are
those mem0 2.2.1's client sends (its paths, ``Authorization: Token``, its bodies), to a
served app on both backends. scripts/pass42_client.py runs the real client."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from conftest import keyed_server
from engram import Memory


@pytest.fixture
def served(mem: Memory) -> Iterator[tuple[str, dict[str, str]]]:
    with keyed_server(mem, worker=False, mcp=False) as (url, keys):
        yield url, keys


def client(url: str, key: str) -> httpx.Client:
    """As ``MemoryClient(api_key=key, host=f"{url}/mem0")`` builds its httpx client."""
    return httpx.Client(
        base_url=f"{url}/mem0", headers={"Authorization": f"Token {key}"}, timeout=30
    )


def texts(body: dict[str, Any]) -> list[str]:
    return [r["memory"] for r in body["results"]]


def test_the_clients_calls(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as c:
        ping = c.get("/v1/ping/")
        assert ping.status_code == 200, ping.text
        # The client refuses to start without an organisation and a project.
        assert ping.json() | {"status": None} == {
            "status": None,
            "user_email": None,
            "org_id": "engram",
            "project_id": "alice",
        }

        added = c.post(
            "/v3/memories/add/",
            json={
                "messages": [
                    {"role": "user", "content": "I am allergic to penicillin."},
                    {"role": "assistant", "content": "Noted: no penicillin."},
                ],
                "user_id": "alice",
                "run_id": "s-01",
                "metadata": {"topic": "health"},
                "infer": False,
            },
        )
        assert added.status_code == 200, added.text
        first, second = added.json()["results"]
        assert (first["memory"], first["event"]) == ("I am allergic to penicillin.", "ADD")
        c.post(
            "/v3/memories/add/",
            json={"messages": [{"role": "user", "content": "I work from home on Mondays."}]}
            | {"user_id": "alice", "run_id": "s-02", "infer": False, "async_mode": True},
        ).raise_for_status()

        found = c.post(
            "/v3/memories/search/",
            json={
                "query": "am I allergic to penicillin",
                "filters": {"user_id": "alice"},
                "top_k": 1,
            },
        )
        assert texts(found.json()) == ["I am allergic to penicillin."]
        assert isinstance(found.json()["results"][0]["score"], float)

        page = c.post("/v3/memories/", json={"filters": {"user_id": "alice"}}).json()
        assert page["count"] == 3 and page["next"] is None and len(page["results"]) == 3
        first_page = c.post(
            "/v3/memories/",
            json={"filters": {"user_id": "alice"}},
            params={"page": 1, "page_size": 2},
        ).json()
        second_page = c.post(
            "/v3/memories/",
            json={"filters": {"user_id": "alice"}},
            params={"page": 2, "page_size": 2},
        ).json()
        assert first_page["count"] == 3 and first_page["next"] is not None
        assert set(texts(first_page) + texts(second_page)) == set(texts(page))
        health = c.post(
            "/v3/memories/", json={"filters": {"user_id": "alice", "topic": "health"}}
        ).json()
        assert sorted(texts(health)) == sorted([first["memory"], second["memory"]])

        got = c.get(f"/v1/memories/{first['id']}/")
        assert got.json()["memory"] == "I am allergic to penicillin."
        updated = c.put(
            f"/v1/memories/{first['id']}/",
            json={"text": "I am allergic to penicillin and latex.", "metadata": {"checked": True}},
        )
        assert updated.status_code == 200, updated.text
        item = c.get(f"/v1/memories/{first['id']}/").json()
        assert item["memory"] == "I am allergic to penicillin and latex."
        assert item["metadata"] == {"topic": "health", "checked": True}
        events = [row["event"] for row in c.get(f"/v1/memories/{first['id']}/history/").json()]
        assert events == ["ADD", "UPDATE"]

        assert c.delete(f"/v1/memories/{second['id']}/").status_code == 200
        assert c.get(f"/v1/memories/{second['id']}/").status_code == 404  # MemoryNotFoundError
        assert c.delete("/v1/memories/", params={"run_id": "s-02"}).status_code == 200
        left = c.post("/v3/memories/", json={"filters": {"user_id": "alice"}}).json()
        assert texts(left) == ["I am allergic to penicillin and latex."]
        assert c.delete("/v1/memories/").status_code == 422  # no id: refused, as on mem0
        # The platform's projects and exports have no engram counterpart: 404, no stand-in.
        assert c.get("/api/v1/orgs/organizations/engram/projects/alice/").status_code == 404
        assert c.post("/v1/exports/", json={"schema": "{}"}).status_code == 404


def test_the_key_confines_the_client(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as alice, client(url, keys["bob"]) as bob:
        made = alice.post(
            "/v3/memories/add/",
            json={"messages": [{"role": "user", "content": "alice's secret"}]}
            | {"user_id": "alice", "infer": False},
        ).json()["results"][0]
        assert bob.get(f"/v1/memories/{made['id']}/").status_code == 404
        assert bob.post("/v3/memories/", json={"filters": {"user_id": "alice"}}).status_code == 403
        assert bob.delete(f"/v1/memories/{made['id']}/").status_code == 404
    with client(url, "not-a-key") as nobody:
        assert nobody.get("/v1/ping/").status_code == 401  # the client raises ValueError


def test_entities_are_the_ids_memories_carry(served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    with client(url, keys["alice"]) as c:
        for content, ids in [
            ("I like jazz.", {"user_id": "alice", "run_id": "s-01"}),
            ("I like tea.", {"user_id": "alice", "agent_id": "aria"}),
            ("Use the 24-hour clock.", {"agent_id": "aria"}),
        ]:
            c.post(
                "/v3/memories/add/",
                json={"messages": [{"role": "user", "content": content}], "infer": False} | ids,
            ).raise_for_status()
        listed = c.get("/v1/entities/").json()["results"]
        assert [(e["type"], e["name"], e["total_memories"]) for e in listed] == [
            ("user", "alice", 3),  # a user key's writes carry its user
            ("agent", "aria", 2),
            ("run", "s-01", 1),
        ]
        # delete_users(run_id=...) and then reset(): what the client sends for each.
        assert c.delete("/v2/entities/run/s-01/").status_code == 200
        left = c.post("/v3/memories/", json={"filters": {"user_id": "alice"}}).json()
        assert sorted(texts(left)) == ["I like tea.", "Use the 24-hour clock."]
        assert c.delete("/v2/entities/app/x/").status_code == 422  # no apps in engram
        for entity in c.get("/v1/entities/").json()["results"]:
            path = f"/v2/entities/{entity['type']}/{entity['name']}/"
            assert c.delete(path).status_code == 200
        assert c.get("/v1/entities/").json() == {"results": []}
    with client(url, keys["bob"]) as bob:
        assert bob.delete("/v2/entities/user/alice/").status_code == 403
