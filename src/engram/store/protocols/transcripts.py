"""The transcripts part of a store: a session's raw text, kept verbatim once (seed 004)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class TranscriptRow:
    """A session's raw transcript (seed 004), as stored."""

    namespace: str
    session_key: str
    content: str
    agent_id: str | None
    created_at: datetime


@runtime_checkable
class TranscriptStore(Protocol):
    """Lossless session transcripts, one per (namespace, session key)."""

    def put(
        self, namespace: str, session_key: str, content: str, *, agent_id: str | None = None
    ) -> bool:
        """Store a session's transcript once (the first one is kept: a transcript is the
        verbatim record, never rewritten). True when stored, False when the session
        already had one."""
        ...

    def get(self, namespace: str, session_keys: Sequence[str]) -> dict[str, str]:
        """Transcripts of ``namespace`` by session key; keys without one are left out."""
        ...
