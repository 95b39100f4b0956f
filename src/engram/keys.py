"""``mem.keys``: API keys for the HTTP API — create, verify, list, revoke — and what a
key may reach (``Principal``).

A key is ``engram_`` followed by 43 URL-safe random characters (256 bits from
``secrets``). Only its SHA-256 hash is stored; the plaintext is returned once, by
``Keys.create``, and never again. Admin keys ``verify`` accepted are also remembered in
this process, by hash, for ``REMEMBERED_FOR`` (``Keys.remembered``): what ``engram
serve`` answers ``/metrics`` with while the database is down.

The namespace rule: a key belongs to one user ``U`` and reaches the namespace
``user:U`` (the library's ``user_id`` rule, ``validate.namespace_for``) and every
namespace under it, ``user:U/<anything>``. An admin key reaches every namespace. User
names cannot contain ``/`` or ``:``, so no user's namespaces are a prefix of another's.

A key may also be bound to an agent ``A`` of its user (``create(U, agent=A)``, keys38):
it acts only as ``A``. Under ``user:U`` the first segment of a namespace names whose it
is, as a crew lays them out (docs/organisation.md): ``user:U`` itself is the user's
team namespace, ``user:U/shared`` the shared space (``mem.shared``), and any other
``user:U/X/...`` is agent ``X``'s own. So an agent key reaches ``user:U``,
``user:U/shared[/...]`` and ``user:U/A[/...]``, never ``user:U/B`` of another agent;
a request's ``agent_id`` must be absent or ``A`` (403 otherwise), and what it writes
or publishes is ``A``'s. ``shared`` is no agent's name for the same reason.
"""

from __future__ import annotations

import builtins
import hashlib
import re
import secrets
import threading
import time
from collections.abc import Set
from dataclasses import dataclass
from datetime import timedelta
from typing import Protocol, Unpack

from engram.core import Core, Part, Scope
from engram.errors import AuthenticationError, InvalidInputError, PermissionDeniedError, shown
from engram.ids import resolve_prefix
from engram.records import ApiKey, new_id, utcnow
from engram.refusals import pattern_rule
from engram.scoping import ScopeArgs, ScopeIds, scoped
from engram.validate import no_nul

#: Every key starts with this, so a leaked key is recognisable (secret scanners, logs).
PREFIX = "engram_"

_USER = re.compile(r"^[A-Za-z0-9_.@+-]{1,100}$")

#: The segment under ``user:U`` that is the user's shared space, not an agent's own.
SHARED_SEGMENT = "shared"

#: ``last_used_at`` is written at most this often per key, so a busy key does not turn
#: every read request into a write transaction.
TOUCH_INTERVAL = timedelta(seconds=60)

#: How long an admin key verified against the store is remembered (``Keys.remembered``),
#: in seconds from that verification: what lets a Prometheus scrape of ``/metrics``
#: be answered while the database is down. A scrape every 15 s to 1 min keeps its key
#: fresh until the outage begins; past this, the scrape gets 503 again.
REMEMBERED_FOR = 15 * 60.0

#: While the store answers, the remembered keys are checked against its list of live
#: keys at most this often (seconds), so a key revoked by another process (``engram keys
#: revoke`` is one) is forgotten by the next check after its revocation.
RECHECK_EVERY = 30.0


def hash_key(plaintext: str) -> str:
    """The hex SHA-256 of a key's plaintext: what the store keeps."""
    return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


def _hashed(plaintext: object) -> str | None:
    """The hash of a presented key; None for no key or one no key was ever made of."""
    if not plaintext or not isinstance(plaintext, str):
        return None
    try:
        return hash_key(plaintext)
    except UnicodeEncodeError:  # a lone surrogate: no key was ever made of one
        return None


def user_name(user: object) -> str:
    """A valid key owner: 1-100 letters, digits and ``_ . @ + -`` (no ``/`` or ``:``)."""
    if not isinstance(user, str) or not _USER.match(user):
        raise InvalidInputError(f"invalid user {shown(user)}: use {pattern_rule(_USER.pattern)}")
    return user


def agent_name(agent: object) -> str:
    """A valid agent a key is bound to: as a user name (it names the namespace
    ``user:U/<agent>``, one segment), and not ``shared`` (the user's shared space)."""
    if not isinstance(agent, str) or not _USER.match(agent):
        raise InvalidInputError(f"invalid agent {shown(agent)}: use {pattern_rule(_USER.pattern)}")
    if agent == SHARED_SEGMENT:
        raise InvalidInputError(
            "an agent may not be called 'shared': user:<user>/shared is the user's shared "
            "space, reached by every agent of the user"
        )
    return agent


class Keys(Part):
    """The API keys of a store (``mem.keys``)."""

    def __init__(self, core: Core) -> None:
        super().__init__(core)
        # Admin keys verified against the store lately: the key's hash -> its record
        # (id, user, role; never a secret) and the monotonic time of the verification.
        self._recent: dict[str, tuple[ApiKey, float]] = {}
        self._recent_lock = threading.Lock()
        self._rechecked = 0.0

    def create(
        self, user: str, *, admin: bool = False, name: str | None = None, agent: str | None = None
    ) -> tuple[ApiKey, str]:
        """Create a key for ``user``, bound to its agent ``agent`` if given (it then acts
        only as that agent: ``Principal``); returns the stored record and the plaintext
        (shown once)."""
        self._core.check_open()
        if agent is not None:
            agent = agent_name(agent)
            if admin:
                raise InvalidInputError("an admin key reaches everything: it takes no agent")
        if name is not None and (not isinstance(name, str) or len(name) > 200):
            raise InvalidInputError("key name must be a string of at most 200 characters")
        if name is not None:
            no_nul("key name", name)
        key = ApiKey(
            id=new_id(), user=user_name(user), admin=bool(admin), name=name or None, agent=agent
        )
        plaintext = PREFIX + secrets.token_urlsafe(32)
        self._core.store.keys.add(key, hash_key(plaintext))
        return key, plaintext

    def verify(self, plaintext: str | None, *, wait: float | None = None) -> ApiKey:
        """The live key for ``plaintext``; ``AuthenticationError`` if missing, unknown or
        revoked. ``wait``: wait at most this many seconds for a store connection while
        the database is unreachable (``Store.bounded_wait``), not ``pool_timeout``."""
        with self._core.bounded(wait):
            return self._verify(plaintext)

    def _verify(self, plaintext: str | None) -> ApiKey:
        self._core.check_open()
        if not plaintext:
            raise AuthenticationError(
                "this API needs a key: send 'Authorization: Bearer <key>' "
                "(create one with `engram keys create --user NAME`)"
            )
        keys = self._core.store.keys
        hashed = _hashed(plaintext)
        key = None if hashed is None else keys.find(hashed)
        if key is None:
            if hashed is not None:
                self._forget({hashed})
            raise AuthenticationError(
                "unknown or revoked key: create one with `engram keys create --user NAME` "
                "(`engram keys list` shows the live ones)"
            )
        now = utcnow()
        if key.last_used_at is None or now - key.last_used_at >= TOUCH_INTERVAL:
            keys.touch(key.id, now)
        if key.admin and hashed is not None:
            with self._recent_lock:
                self._recent[hashed] = (key, time.monotonic())
        self._recheck()
        return key

    def remembered(self, plaintext: str | None) -> ApiKey | None:
        """The admin key for ``plaintext`` if ``verify`` accepted it against the store in
        the last ``REMEMBERED_FOR`` seconds, else None. For when the store cannot be
        reached (``engram serve``'s ``/metrics`` in a database outage): while the store
        answers, ``verify`` asks it every time, so a revoked key is refused at once.
        Only admin keys are remembered, by their hash, in this process's memory."""
        hashed = _hashed(plaintext)
        if hashed is None:
            return None
        with self._recent_lock:
            found = self._recent.get(hashed)
            if found is None:
                return None
            key, verified = found
            if time.monotonic() - verified > REMEMBERED_FOR:
                del self._recent[hashed]
                return None
        return key

    def _forget(self, hashes: Set[str] = frozenset(), ids: Set[str] = frozenset()) -> None:
        """Forget the remembered keys of these hashes, and of these key ids."""
        with self._recent_lock:
            for hashed in [h for h, (key, _) in self._recent.items() if key.id in ids]:
                del self._recent[hashed]
            for hashed in hashes:
                self._recent.pop(hashed, None)

    def _recheck(self) -> None:
        """Forget remembered keys the store no longer holds live (revoked by another
        process), at most every ``RECHECK_EVERY`` seconds and only while some are
        remembered."""
        now = time.monotonic()
        with self._recent_lock:
            if not self._recent or now - self._rechecked < RECHECK_EVERY:
                return
            self._rechecked = now
        live = {k.id for k in self._core.store.keys.all() if not k.revoked}
        with self._recent_lock:
            gone = {key.id for key, _ in self._recent.values() if key.id not in live}
        self._forget(ids=gone)

    def list(self) -> builtins.list[ApiKey]:
        """Every key, revoked ones included, oldest first (never a secret)."""
        self._core.check_open()
        return self._core.store.keys.all()

    def resolve(self, key_id: str) -> str:
        """The whole id of the key ``key_id`` names: its id, or a unique prefix of it
        (at least 8 characters), as ``engram keys list`` shows it. ``NotFoundError`` if
        no key has it; ``InvalidInputError`` if several do, or it is too short."""
        self._core.check_open()
        if not isinstance(key_id, str) or not key_id.strip():
            raise InvalidInputError("key id must be a non-empty string")
        ids = [k.id for k in self._core.store.keys.all()]  # a handful of keys, not millions
        return resolve_prefix(
            no_nul("key id", key_id.strip()),
            exact=lambda key: key in ids,
            starting=lambda prefix, limit: [i for i in ids if i.startswith(prefix)][:limit],
            what="API key",
            where="",
            listed="`engram keys list` shows them",
        )

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke a key, by its id or a unique prefix of it (``resolve``), at once;
        ``NotFoundError`` if there is no such key."""
        revoked = self._core.store.keys.revoke(self.resolve(key_id))
        self._forget(ids={revoked.id})  # not remembered past its revocation, even in an outage
        return revoked

    def ensure_admin(self, user: str = "admin") -> tuple[ApiKey, str] | None:
        """Create the first admin key if no live admin key exists; otherwise None.

        ``engram serve`` calls this at start so a fresh store is usable; an existing key
        is never shown again (only its hash is stored).
        """
        if any(k.admin and not k.revoked for k in self.list()):
            return None
        return self.create(user, admin=True, name="first admin key")


class ScopeResolver(Protocol):
    """Anything that resolves the namespace rule: a ``Memory`` or its core."""

    def scope(self, namespace: str | None = None, **ids: Unpack[ScopeIds]) -> Scope:
        """The scope these ids name."""
        ...


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: an API key's owner, or everyone (``--no-auth`` / admin)."""

    user: str | None
    admin: bool
    key_id: str | None = None
    agent: str | None = None
    """The agent the key is bound to: it acts only as that agent (see the module)."""

    @classmethod
    def of(cls, key: ApiKey) -> Principal:
        """The principal an API key authenticates."""
        return cls(user=key.user, admin=key.admin, key_id=key.id, agent=key.agent)

    @property
    def home(self) -> str | None:
        """The user's own namespace, ``user:<user>`` (None for an unscoped principal)."""
        return None if self.user is None else f"user:{self.user}"

    def may_reach(self, namespace: str) -> bool:
        """The namespace rule: admin reaches all; a user ``user:U`` and ``user:U/...``;
        an agent ``A`` of ``U`` ``user:U``, ``user:U/shared[/...]``, ``user:U/A[/...]``."""
        if self.admin:
            return True
        home = self.home
        if home is None:
            return False
        if namespace == home:
            return True
        if not namespace.startswith(home + "/"):
            return False
        if self.agent is None:
            return True
        segment = namespace[len(home) + 1 :].split("/", 1)[0]
        return segment in (SHARED_SEGMENT, self.agent)

    def acting(self, agent_id: str | None) -> str | None:
        """The agent a request acts as: ``agent_id`` for a key of no agent; for an
        agent's key its agent, and ``PermissionDeniedError`` if ``agent_id`` names
        another (writing, publishing or retracting as another agent of the user)."""
        if self.agent is None:
            return agent_id
        if agent_id is not None and agent_id != self.agent:
            raise PermissionDeniedError(
                f"this API key acts as agent {shown(self.agent)} of user {shown(self.user)}; "
                f"it may not act as agent {shown(agent_id)} (leave agent_id out, or use "
                "that agent's key)"
            )
        return self.agent

    def require_admin(self, action: str) -> None:
        """``PermissionDeniedError`` unless this is an admin key (or ``--no-auth``)."""
        if not self.admin:
            raise PermissionDeniedError(f"{action} needs an admin key")

    @scoped
    def acting_scope(self, memory: ScopeResolver, **who: Unpack[ScopeArgs]) -> Scope:
        """``scope`` for a call that writes as its agent (a memory, a checkpoint, a run):
        an agent's key stamps its agent when the request names none. A read that names
        none keeps the team's view of ``user:U``, every agent's memories in it."""
        who["agent_id"] = self.acting(who.get("agent_id"))
        return self.scope(memory, **who)

    @scoped
    def scope(self, memory: ScopeResolver, **who: Unpack[ScopeArgs]) -> Scope:
        """Resolve a request's scope with the library's rule, then check this key may use it.

        A non-admin key that names neither a namespace nor a user works in its own
        namespace: ``user_id`` defaults to the key's user. ``PermissionDeniedError`` if
        the resolved namespace is outside the key's reach, or an agent's key names
        another ``agent_id`` (``acting``).
        """
        self.acting(who.get("agent_id"))
        if not self.admin and who.get("namespace") is None and who.get("user_id") is None:
            who["user_id"] = self.user
        named = who.get("namespace")
        if isinstance(named, str) and not self.may_reach(named):
            # Outside the key's reach whatever its spelling: refused as that first, so a
            # user key learns nothing of the library's name rule for names it may not use
            # (``user:`` is 403 to alice, 422 only to an admin).
            raise self._denied(named)
        scope = memory.scope(**who)
        if not self.may_reach(scope.namespace):
            raise self._denied(scope.namespace)
        return scope

    def _denied(self, namespace: str) -> PermissionDeniedError:
        if self.agent is not None:
            return PermissionDeniedError(
                f"this API key of agent {shown(self.agent)} may not use namespace "
                f"{shown(namespace)}; it reaches {shown(self.home)}, '{self.home}/shared' "
                f"and '{self.home}/{self.agent}' (and namespaces under those two): "
                f"'{self.home}/<agent>' is that agent's own"
            )
        return PermissionDeniedError(
            f"this API key may not use namespace {shown(namespace)}; it reaches "
            f"{shown(self.home)} and namespaces under '{self.home}/'"
        )


#: The principal of a server started with ``--no-auth``: one local user, every namespace.
LOCAL = Principal(user=None, admin=True)

__all__ = [
    "LOCAL",
    "PREFIX",
    "Keys",
    "Principal",
    "ScopeResolver",
    "agent_name",
    "hash_key",
    "user_name",
]
