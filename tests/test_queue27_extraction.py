"""The owner's "My ..." in a turn that reads as a work note stays the owner's (task
queue27; round seventeen's new-user pass: "My manager is Tomasz" in a data engineer's
chat was written "The team's manager is Tomasz")."""

from __future__ import annotations

import pytest

from engram import Memory
from engram.pipeline import offline, turns


@pytest.mark.parametrize(
    ("text", "owners"),
    [
        ("We run Airflow 2.9 on Kubernetes. My manager is Tomasz.", "User's manager is Tomasz."),
        ("We deploy with Helm. My laptop runs Fedora 40.", "User's laptop runs Fedora 40."),
        (
            "Our CI runs on GitHub Actions. Me and Sam own the deploy scripts.",
            "User and Sam own the deploy scripts.",
        ),
    ],
)
def test_my_in_a_work_turn_is_the_owners(text: str, owners: str) -> None:
    facts = [f.content for f in offline.analyse(text, speaker=turns.OWNER).facts]
    assert owners in facts
    assert not any("team's manager" in f or "team's laptop" in f for f in facts)
    # the turn's "we" is still the team's
    assert any(f.startswith("The team") for f in facts)


def test_the_chat_proxy_writes_the_owners_manager(mem: Memory) -> None:
    text = "We run Airflow 2.9 on Kubernetes. My manager is Tomasz."
    mem.chat.after([{"role": "user", "content": text}], "Noted.", user_id="a")
    mem.jobs.process_pending()
    mem.jobs.process_pending()
    contents = [m.content for m in mem.get_all(user_id="a", limit=50)]
    assert "User's manager is Tomasz." in contents
    assert "The team's manager is Tomasz." not in contents
