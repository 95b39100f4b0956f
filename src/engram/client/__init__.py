"""engram's HTTP client: ``Memory``'s verbs against ``engram serve``, sync and async.

::

    from engram.client import EngramClient

    with EngramClient("http://127.0.0.1:8765", api_key) as mem:
        mem.add("Deploys go through ops/deploy.sh", user_id="alice")
        print(mem.recall("how do we deploy?", user_id="alice").context)

Verbs return the library's records (``MemoryRecord``, ``Recall``, ``Hit``, ``Page``,
``HistoryEntry``, ``BatchResult``) and raise its ``EngramError`` tree, so code written
against ``Memory`` runs against a server. See ``docs/client.md``.
"""

from engram.client.aio import AsyncEngramClient
from engram.client.sync import EngramClient
from engram.errors import ServerConnectionError

__all__ = ["AsyncEngramClient", "EngramClient", "ServerConnectionError"]
