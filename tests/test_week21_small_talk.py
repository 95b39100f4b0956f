"""Chat small talk kept out of recall (new-user pass, round twenty-one).

A week with a personal assistant through the chat proxy stored every "thanks!", "hi
again" and "You're welcome!" as a memory, and 141 of them came back in the week's 94
blocks (the block of "What time do I work out?" was "perfect" and nothing else). A turn
of small talk only is now left out of recall's candidates, and a small-talk message runs
no recall; a turn with a fact in it ("thanks, the gate code is 4471") is kept. Both
backends (``mem``); the sentences are written for this test.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engram import Memory
from engram.config import Config
from engram.recall.small_talk import small_talk
from test_chat_proxy import SYSTEM, Proxy, _serve


@pytest.mark.parametrize(
    "text",
    [
        "thanks!",
        "Thanks",
        "hi again",
        "ok cool",
        "great, talk tomorrow",
        "perfect, thank you so much",
        "You're welcome!",
        "Hello again! How can I help?",
        "thanks, that’s all for today",
        "Good night!",
        "How are you?",
        "ok, anything else?",
        "Have a great weekend!",
    ],
)
def test_small_talk_is_read_as_small_talk(text: str) -> None:
    assert small_talk(text)


@pytest.mark.parametrize(
    "text",
    [
        "thanks, the gate code for Mum's building is 4471",  # a number
        "ok, Thursday works",  # a day
        "thanks Priya",  # a name
        "great, see you at the dentist tomorrow",  # a content word
        "sure, cancel the gym",
        "no, I'm allergic to nuts",
        "ok cool cool cool cool cool cool cool cool",  # longer than MAX_WORDS
        "",
        "?!",
        # questions of the lexicon's words that ask for what is stored (the lead's review)
        "what do I have today?",
        "ok what do I have today?",
        "What's on tomorrow?",
        "anything on tonight?",
        "do I have anything today",
    ],
)
def test_a_turn_with_anything_in_it_is_not_small_talk(text: str) -> None:
    assert not small_talk(text)


def _turn(mem: Memory, text: str, reply: str, conversation: str) -> list[str]:
    """One chat turn (recall, the reply, mining, the jobs); the block's memory lines."""
    messages = [{"role": "user", "content": text}]
    turn = mem.chat.before(messages, user_id="sam", conversation_id=conversation)
    mem.chat.after(messages, reply, user_id="sam", conversation_id=conversation)
    mem.jobs.process_pending()
    return [line for line in turn.context.splitlines() if line.startswith("- [")]


SMALL = [("hi", "Hi! What can I do for you?"), ("Thanks!", "You're welcome!")]
SAID = ["ok cool", "perfect", "thanks!", "Anything else?", "You're welcome!", "Hi! What"]


def test_recall_leaves_chat_small_talk_out_and_keeps_a_thanks_with_a_fact(mem: Memory) -> None:
    for n, (text, reply) in enumerate(
        [
            *SMALL,
            ("My gym is PureGym on Castle Street; I go at 7am.", "Noted."),
            ("ok cool", "Anything else?"),
            ("thanks, the gate code for Mum's building is 4471", "Saved."),
            ("perfect", "Glad to help!"),
        ]
    ):
        _turn(mem, text, reply, f"day-{n}")
    gym = _turn(mem, "What time do I go to the gym?", "Ok.", "q1")
    assert gym and "PureGym" in gym[0], gym
    code = _turn(mem, "What's the code for Mum's building?", "Ok.", "q2")
    assert code and "4471" in code[0], code  # the fact-bearing thanks stays
    for lines in (gym, code):
        assert not any(line.split("] ", 1)[1].startswith(tuple(SAID)) for line in lines), lines
    # The turns are still stored as said: only recall leaves them out.
    assert any(m.content == "ok cool" for m in mem.get_all(user_id="sam", limit=100))


def test_a_small_talk_message_gets_no_recall(mem: Memory) -> None:
    _turn(mem, "My dentist appointment is on Thursday at 9am.", "Noted.", "d1")
    turn = mem.chat.before([{"role": "user", "content": "thanks!"}], user_id="sam")
    assert turn.skipped == "small_talk" and turn.context == "" and not turn.injected
    asked = mem.chat.before(
        [{"role": "user", "content": "thanks, and when is the dentist?"}], user_id="sam"
    )
    assert asked.skipped is None and "dentist" in asked.context


@pytest.fixture
def proxy(config: Config, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Proxy]:
    yield from _serve(config, tmp_path, monkeypatch)


def test_the_proxy_block_is_free_of_small_talk(proxy: Proxy) -> None:
    client = proxy.client()
    said = [
        "hi again",
        "My daughter Lena swims every Thursday at 5pm at the Westbad pool.",
        "ok cool",
        "thanks!",
        "great, talk tomorrow",
    ]
    for n, text in enumerate(said):
        client.chat.completions.create(
            model="m",
            messages=[SYSTEM, {"role": "user", "content": text}],
            extra_headers={"X-Engram-Conversation": f"c{n}"},
        )
        proxy.mined()
    raw = client.chat.completions.with_raw_response.create(
        model="m", messages=[SYSTEM, {"role": "user", "content": "When does Lena swim?"}]
    )
    ids = [i for i in raw.headers["x-engram-memories"].split(",") if i]
    shown = [proxy.memory.get(i, user_id="alice").content for i in ids]
    assert shown and "Westbad" in shown[0], shown
    small = {*said[:1], *said[2:], "Noted."}  # "Noted." is the upstream's every reply
    assert not small & set(shown), shown
    assert "Westbad" in proxy.system_prompt()
