"""``mem.chat``: memory that runs by itself around every chat turn (seed 003; issue 31).

seed 003: "Before the model is called, recallForUser(userId, message, { topK }) runs",
the drawers are "rendered into a compact memory context block
(<memory_context>…</memory_context>) and prepended to the system prompt"; after the
exchange "the system kicks off mineConversation(conversationId) in the background".

- ``before(messages, user_id=…)`` recalls on the latest user message in the user's
  namespace and returns a ``Turn``: the messages with the context block in the system
  prompt and the ids of the memories injected. Flagged memories never enter (recall's
  ``flagged_context = "omit"`` for every chat turn) and the block is spotlighted like
  every context (quoted data under a data marker). What reached the prompt is recorded
  against the conversation (``mem.sessions``), so continuity scoring (FEATURES S13)
  works without wiring.
- ``after(messages, reply, user_id=…)`` queues the exchange for mining through the job
  queue (``chat_mine``); it never mines inline, so the reply is never delayed.

Settings are ``[chat]`` (``enabled``, ``top_k``, ``rerank``, ``auto_mine``,
``recall_off_agents``); each user may store their own (``set_settings``; seed 003:
"settings are per-user"), and a call may override any of them. An agent in
``recall_off_agents`` (seed 003's per-agent override) gets no context, but its turns
are still mined (seed 003: "so other agents in the same user's palace benefit").
Recall reads the whole user namespace, not only what this agent wrote.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engram.chat import mine_job, turns
from engram.core import Core, Part
from engram.errors import InvalidInputError
from engram.inject import check_messages, text_of
from engram.recall.small_talk import small_talk
from engram.records import Recall, utcnow
from engram.settings import ChatConfig
from engram.store.protocols import Job
from engram.validate import no_nul, type_name

__all__ = ["Chat", "ChatConfig", "Turn"]

#: ``Memory.recall``, handed in by ``engram.parts`` (parts do not import one another).
RecallFn = Callable[..., Recall]
#: ``mem.sessions.injected`` as (conversation, memory ids, namespace), handed in likewise.
InjectedFn = Callable[[str, Sequence[str], str], object]

#: The ``[chat]`` settings a user or a call may override (the upstream is the server's).
SETTINGS = ("enabled", "top_k", "rerank", "auto_mine", "recall_off_agents")


@dataclass(frozen=True, slots=True)
class Turn:
    """What ``before`` prepared for one chat turn."""

    messages: list[dict[str, Any]]
    """The messages to send the model: the context block leads the system prompt."""
    injected: tuple[str, ...]
    """Ids of the memories in the block, in rank order (empty: nothing was added)."""
    conversation_id: str
    """The conversation (the caller's, or derived from the opening messages)."""
    namespace: str
    context: str = ""
    """The ``<memory_context>`` block put into the system prompt ("" when none)."""
    skipped: str | None = None
    """Why no recall ran: ``disabled``, ``agent_override``, ``no_user_message`` or
    ``small_talk`` (the message is only "thanks!", "hi again" ...)."""
    recall_ms: float = 0.0
    """Milliseconds recall took (0 when it did not run)."""
    prepare_ms: float = 0.0
    """Milliseconds before recall: checking the messages, reading the settings,
    naming the conversation."""

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "messages": self.messages,
            "injected": list(self.injected),
            "conversation_id": self.conversation_id,
            "namespace": self.namespace,
            "context": self.context,
            "skipped": self.skipped,
            "recall_ms": round(self.recall_ms, 3),
            "prepare_ms": round(self.prepare_ms, 3),
        }


def _checked(messages: object) -> list[dict[str, Any]]:
    """``check_messages``, and every message's text storable (no NUL, no lone
    surrogate): it is hashed into the conversation id, recalled on and mined."""
    checked = check_messages(messages)
    for i, message in enumerate(checked):
        no_nul(f"messages[{i}] content", text_of(message.get("content")))
    return checked


def _settings(base: ChatConfig, overrides: Mapping[str, Any] | None) -> ChatConfig:
    """``base`` with a call's overrides, checked like the config file's values."""
    if overrides is not None and not isinstance(overrides, Mapping):
        raise InvalidInputError(f"chat settings must be a mapping, got {type_name(overrides)}")
    if not overrides:
        return base
    unknown = set(overrides) - set(SETTINGS)
    if unknown:
        raise InvalidInputError(
            f"unknown chat setting(s) {', '.join(sorted(map(str, unknown)))}; "
            f"known: {', '.join(SETTINGS)}"
        )
    for name in ("enabled", "auto_mine"):
        if name in overrides and not isinstance(overrides[name], bool):
            raise InvalidInputError(
                f"{name} must be true or false, got {type_name(overrides[name])}"
            )
    agents = overrides.get("recall_off_agents", "")
    if not isinstance(agents, str):
        raise InvalidInputError(
            f"recall_off_agents must be comma-separated agent ids, got {type_name(agents)}"
        )
    top_k = overrides.get("top_k", base.top_k)
    if isinstance(top_k, bool) or not isinstance(top_k, int) or not 1 <= top_k <= 50:
        raise InvalidInputError(f"top_k must be an integer from 1 to 50, got {top_k!r}")
    rerank = overrides.get("rerank", base.rerank)
    choices = ("none", "embedding", "cross-encoder", "llm")
    if rerank not in choices:
        raise InvalidInputError(f"rerank must be one of {', '.join(choices)}, got {rerank!r}")
    return replace(base, **dict(overrides))


class Chat(Part):
    """Automatic recall before a chat turn and mining after it, for one ``Memory``."""

    def __init__(self, core: Core, recall: RecallFn, injected: InjectedFn) -> None:
        super().__init__(core)
        self._recall = recall
        self._injected = injected

    def settings(
        self,
        overrides: Mapping[str, Any] | None = None,
        *,
        user_id: str | None = None,
        namespace: str | None = None,
    ) -> ChatConfig:
        """The settings a turn of this user runs with: ``[chat]``, then the user's own
        (``set_settings``), then ``overrides`` (checked)."""
        scope = self._core.open_scope(namespace, user_id=user_id)
        return self._effective(scope.namespace, overrides)

    def set_settings(
        self,
        values: Mapping[str, Any],
        *,
        user_id: str | None = None,
        namespace: str | None = None,
    ) -> ChatConfig:
        """Store the user's own values of ``enabled``, ``top_k``, ``rerank``,
        ``auto_mine`` and ``recall_off_agents`` (seed 003: settings are per user); the
        keys not named keep their value. Returns the settings the user now has."""
        core = self._core
        scope = core.open_scope(namespace, user_id=user_id)
        if not isinstance(values, Mapping):
            raise InvalidInputError(f"chat settings must be a mapping, got {type_name(values)}")
        mine = {**(core.store.chat_settings.get(scope.namespace) or {}), **values}
        checked = _settings(core.config.chat, mine)  # a bad value is refused before storing
        core.store.chat_settings.put(scope.namespace, mine, now=utcnow())
        return checked

    def reset_settings(self, *, user_id: str | None = None, namespace: str | None = None) -> bool:
        """Forget the user's own settings (``[chat]`` applies again); True if any."""
        scope = self._core.open_scope(namespace, user_id=user_id)
        return self._core.store.chat_settings.remove(scope.namespace)

    def _effective(self, namespace: str, overrides: Mapping[str, Any] | None) -> ChatConfig:
        """``[chat]``, then the namespace's stored settings, then ``overrides``."""
        core = self._core
        mine = core.store.chat_settings.get(namespace) or {}
        # A key a later release dropped is ignored rather than failing every turn.
        base = _settings(core.config.chat, {k: v for k, v in mine.items() if k in SETTINGS})
        return _settings(base, overrides)

    def before(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        conversation_id: str | None = None,
        namespace: str | None = None,
        settings: Mapping[str, Any] | None = None,
        record: bool = True,
    ) -> Turn:
        """The turn's messages with recalled memory in the system prompt.

        Recall runs on the latest user message, in the namespace ``user_id`` (or
        ``namespace``) names, for ``top_k`` memories; the block recall renders is
        prepended to the leading system prompt (or becomes one). Nothing is added when
        chat memory is disabled, when ``agent_id`` is in ``recall_off_agents``, when no
        user message has text, when it is small talk only ("thanks!", "ok cool":
        ``engram.recall.small_talk``), or when nothing related is stored.

        What was injected is recorded against the conversation (FEATURES S13);
        ``record=False`` leaves that to a later ``record(turn)``, so a caller can send
        the model its request first (the chat proxy does)."""
        core = self._core
        begun = time.perf_counter()
        scope = core.open_scope(namespace, user_id=user_id, agent_id=agent_id)
        checked = _checked(messages)
        cfg = self._effective(scope.namespace, settings)
        conversation = turns.conversation_id(conversation_id, checked)
        turn = Turn(checked, (), conversation, scope.namespace)
        query = turns.latest_user_text(checked)
        if not cfg.enabled:
            return replace(turn, skipped="disabled")
        if agent_id is not None and agent_id in turns.agent_list(cfg.recall_off_agents):
            return replace(turn, skipped="agent_override")
        if query is None:
            return replace(turn, skipped="no_user_message")
        if small_talk(query):
            # Round twenty-one: with mined small talk out of the candidates, "thanks!"
            # recalled whatever sat nearest (a dentist's date, a question asked
            # before) into 29 of 33 small-talk turns' prompts; the conversation itself
            # is what the model needs to answer it.
            return replace(turn, skipped="small_talk")
        # Flagged memories never enter a chat prompt, whatever recall.flagged_context says.
        wanted = {"flagged_context": "omit", "context_style": "memory_context"}
        if cfg.rerank != core.config.recall.rerank:
            wanted["rerank"] = cfg.rerank
        current = core.config.recall
        overrides = {k: v for k, v in wanted.items() if getattr(current, k) != v}
        started = time.perf_counter()
        result = self._recall(query, namespace=scope.namespace, limit=cfg.top_k, **overrides)
        took = (time.perf_counter() - started) * 1000
        done = replace(
            turn,
            messages=turns.with_context(checked, result.context),
            injected=result.shown,
            context=result.context,
            recall_ms=took,
            prepare_ms=(started - begun) * 1000,
        )
        if record:
            self.record(done)
        return done

    def record(self, turn: Turn) -> None:
        """Record the memories ``turn`` injected against its conversation, as recall
        with a ``session_id`` does (FEATURES S13: continuity scoring). A turn whose
        recall did not run (``skipped``) records nothing; one whose recall found
        nothing still starts its session. ``before`` does this unless told not to."""
        if not isinstance(turn, Turn):
            raise InvalidInputError(
                f"turn must be the Turn that chat.before returned, got {type_name(turn)}"
            )
        if turn.skipped is None:
            self._injected(turn.conversation_id, turn.injected, turn.namespace)

    def after(
        self,
        messages: Sequence[Mapping[str, Any]],
        reply: str,
        *,
        user_id: str | None = None,
        agent_id: str | None = None,
        conversation_id: str | None = None,
        namespace: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> Job | None:
        """Queue the exchange (the user and assistant turns of ``messages``, then
        ``reply``) for mining into the palace; returns the queued job, or None when
        chat memory or ``auto_mine`` is off or there is nothing to mine. The job runs
        on a worker (``engram serve``, ``engram worker``, ``mem.jobs.start()`` or
        ``mem.jobs.process_pending()``), never here."""
        core = self._core
        scope = core.open_scope(namespace, user_id=user_id, agent_id=agent_id)
        checked = _checked(messages)
        if not isinstance(reply, str):
            raise InvalidInputError(f"reply must be the model's text, got {type_name(reply)}")
        cfg = self._effective(scope.namespace, settings)
        conversation = turns.conversation_id(conversation_id, checked)
        exchange = turns.exchange(checked, reply)
        if not cfg.enabled or not cfg.auto_mine or not exchange:
            return None
        no_nul("reply", reply)
        no_nul("conversation_id", conversation)  # the job's payload is stored as JSON text
        payload = {
            "messages": exchange,
            "conversation_id": conversation,
            "user_id": user_id,
            "agent_id": agent_id,
        }
        return core.store.jobs.enqueue(
            mine_job.KIND,
            scope.namespace,
            payload=payload,
            max_attempts=core.config.worker.max_attempts,
        )
