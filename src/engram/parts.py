"""How ``Memory`` gets its parts (``mem.keys``, ``mem.graph``, ``mem.sessions`` ...).

Each concern's part is built over the one shared ``Core``. The few things one part needs
from another are handed in here as callables, so parts never import each other (the
layer rule in tests/test_architecture.py) and this is the one place that says how they
connect.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engram.admin import Admin
from engram.agents import Agents
from engram.backend import Backend
from engram.browse import Browse
from engram.chat import Chat
from engram.core import Core
from engram.documents import Documents
from engram.erasure import Erasure
from engram.graph import Graph
from engram.health import Health
from engram.inject import Inject
from engram.jobs import Jobs
from engram.keys import Keys
from engram.lifecycle import Lifecycle
from engram.maintenance import Maintenance
from engram.org import Org
from engram.palace import Palace
from engram.procedures import Procedures
from engram.review import Review
from engram.runs import Runs
from engram.sessions import Sessions
from engram.sessions.redact import redact
from engram.shared import Shared
from engram.transcripts import Transcripts

if TYPE_CHECKING:
    from engram.memory import Memory


def attach(mem: Memory, core: Core) -> None:
    """Give ``mem`` its parts, all over ``core``."""
    mem.keys = Keys(core)
    mem.transcripts = Transcripts(core)
    mem.admin = Admin(core)
    mem.graph = Graph(core)
    mem.review = Review(core)
    mem.jobs = Jobs(core)
    mem.documents = Documents(core)
    mem.palace = Palace(core)
    mem.runs = Runs(core)
    mem.sessions = Sessions(
        core,
        # seed 004: a session's useful memories confirm their aspects in the graph.
        lambda ids, ns, at: mem.graph.aspect_feedback(ids, namespace=ns, now=at),
        # seed 002: an agent's session-level memories end with its session.
        lambda agent, key, ns: mem.agents.end_session(agent, key, namespace=ns),
        # seed 004: aspect decay every N sessions.
        lambda ns, at: mem.graph.decay_aspects(namespace=ns, now=at),
    )
    mem.health = Health(core)
    mem.browse = Browse(core)
    mem.erasure = Erasure(core)
    # seed 004's aspect decay also runs on the lifecycle schedule (FEATURES G5).
    mem.lifecycle = Lifecycle(core, lambda ns, at: mem.graph.decay_aspects(namespace=ns, now=at))
    # Maintenance's retention-sweep repair runs the lifecycle's sweep.
    mem.maintenance = Maintenance(core, lambda: mem.lifecycle.retention().total)
    mem.backend = Backend(core)
    mem.agents = Agents(core)
    mem.shared = Shared(core)
    mem.org = Org(core, mem.keys.create)

    # FEATURES S13: a context given a session records what it injected.
    def injected(key: str, ids: Sequence[str], ns: str) -> object:
        return mem.sessions.injected(key, ids, namespace=ns)

    mem.runs.record_injected = injected
    mem.inject = Inject(core, mem.recall, injected)
    mem.procedures = Procedures(core, redact)
    mem.chat = Chat(core, mem.recall, injected)  # seed 003: recall before, mining after a turn
