"""``mem.transcripts``: a session's raw transcript, kept verbatim and once (seed 004).

Memories of the session carry ``session_id=session_key``; ``recall(..., expand=True)``
joins the transcript to them, so the full conversation behind a recalled memory is one
call away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Unpack

from engram.core import Core, Part
from engram.errors import InvalidInputError
from engram.records import Recall
from engram.scoping import ScopeArgs, scoped
from engram.validate import no_nul, session_key_value


class Transcripts(Part):
    """Lossless session transcripts of a ``Memory``."""

    @scoped
    def add(self, session_key: str, content: str, **who: Unpack[ScopeArgs]) -> bool:
        """Keep a session's raw transcript. Returns False when the session already has
        one: the first one is kept unchanged. The injection scan reads it as it reads a
        memory (``InjectionBlocked`` in block mode)."""
        core = self._core
        scope = core.open_scope(**who)
        key = session_key_value(session_key)
        if not isinstance(content, str) or not content.strip():
            raise InvalidInputError("transcript content must be a non-empty string")
        # Kept verbatim, so only what no backend can hold is refused (NUL, a lone
        # surrogate), the same on SQLite as on PostgreSQL.
        no_nul("transcript content", content)
        # Scanned like a memory: block mode refuses it; flag mode keeps it, and recall's
        # ``expand`` hands it out inside an untrusted marker.
        core.scan_text(content)
        return core.store.transcripts.put(scope.namespace, key, content, agent_id=scope.agent_id)

    @scoped
    def get(self, session_keys: Sequence[str], **who: Unpack[ScopeArgs]) -> dict[str, str]:
        """The transcripts of these sessions, by session key; sessions without one are
        left out."""
        core = self._core
        scope = core.open_scope(**who)
        if isinstance(session_keys, str) or not isinstance(session_keys, Sequence):
            raise InvalidInputError("session_keys must be a list of session keys")
        keys = [session_key_value(k) for k in session_keys]
        return core.store.transcripts.get(scope.namespace, keys)


def joined(core: Core, result: Recall, namespace: str) -> Recall:
    """``recall(..., expand=True)``: ``result`` with the transcripts of its hits'
    sessions, each as recall hands one out (``Core.guarded_transcript``)."""
    sessions = [h.memory.session_id for h in result.hits if h.memory.session_id]
    if not sessions:
        return result
    found = core.store.transcripts.get(namespace, sessions)
    guarded = {key: core.guarded_transcript(text) for key, text in found.items()}
    return replace(result, transcripts=guarded)
