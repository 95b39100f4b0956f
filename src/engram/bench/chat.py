"""The chat proxy benchmark (issue 31): what ``/v1/proxy/chat/completions`` adds to a
chat call, against the same call made to the upstream directly.

For each store size N (LoCoMo turns composed up to N, with real-model vectors, as the
scale benchmark builds them; a store file is reused when it already holds them):

1. a scripted OpenAI-compatible upstream runs on 127.0.0.1 (``FakeUpstream``): it notes
   when each request arrives, then answers with a fixed reply, streamed as SSE in
   ``chunks`` pieces ``chunk_ms`` apart;
2. ``engram serve``'s app runs on 127.0.0.1 with a key, its upstream that server;
3. **first byte at the upstream**, with mining off: the time from the client sending a
   request to the upstream receiving it, direct and through the proxy, interleaved, on
   distinct LoCoMo questions (the proxy's share: authentication, recall with the real
   embedder, relaying); beside each pair, **recall alone**: ``mem.chat.before`` in
   process on another question (a repeated one would skip the model through the
   query-vector cache), before the pair on even rounds and after it on odd ones, so a
   swing of the machine's load hits both; the target is judged per round (proxy −
   direct − recall alone, the median), and the proxy's ``Server-Timing`` stages say
   where its time went;
4. **last byte at the client** for streamed replies: through the proxy with mining off
   (step 3's requests), and with mining on (``auto_mine``; the server's worker mines
   each turn after its reply) beside direct calls, interleaved. The client waits for
   the queue to drain between questions, as a user reads a reply before writing the
   next message, so a turn's mining runs between turns, as it would in a chat.

All parts run in one process (client, proxy, upstream), so the numbers share one CPU
clock; the machine's other load shows up as noise in both columns alike.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

from engram.bench import report
from engram.bench.metrics import percentile
from engram.bench.pg_scale import compose_corpus
from engram.bench.scale import base_vectors, locomo_turns_and_questions
from engram.bench.scale_cold import wait_for_index
from engram.chat import stages
from engram.config import Config
from engram.errors import InvalidInputError
from engram.memory import Memory
from engram.store.protocols import VectorRow

USER = "bench"
NAMESPACE = f"user:{USER}"
REPLY = "Sure, here is what I remember about that, in a few words for you."
#: Requests sent before timing (model load, connections, caches).
WARMUP = 10


@dataclass
class FakeUpstream:
    """An OpenAI-compatible server on 127.0.0.1 that notes arrivals by the body's
    ``user`` field and streams ``REPLY``."""

    chunks: int = 20
    chunk_ms: float = 2.0
    arrived: dict[str, float] = field(default_factory=dict)
    _server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self._server is not None
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def _answer(self, handler: BaseHTTPRequestHandler) -> None:
        at = time.perf_counter()
        raw = handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
        body = json.loads(raw or b"{}")
        self.arrived[str(body.get("user"))] = at
        words = REPLY.split(" ")
        size = max(1, len(words) // self.chunks)
        pieces = [" ".join(words[i : i + size]) + " " for i in range(0, len(words), size)]
        handler.send_response(200)
        if body.get("stream") is not True:
            data = json.dumps(
                {
                    "id": "x",
                    "object": "chat.completion",
                    "model": "bench",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY}}],
                }
            ).encode()
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            return
        handler.send_header("Content-Type", "text/event-stream")
        handler.end_headers()
        for i, piece in enumerate(pieces):
            choice = {"index": 0, "delta": {"content": piece}, "finish_reason": None}
            if i == len(pieces) - 1:
                choice["finish_reason"] = "stop"
            event = {"object": "chat.completion.chunk", "choices": [choice]}
            handler.wfile.write(f"data: {json.dumps(event)}\n\n".encode())
            handler.wfile.flush()
            time.sleep(self.chunk_ms / 1000)
        handler.wfile.write(b"data: [DONE]\n\n")

    @contextmanager
    def running(self) -> Iterator[FakeUpstream]:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - the base class's name
                owner._answer(self)

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                """Quiet."""

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._server.shutdown()
            self._server.server_close()


def build_store(path: Path, n: int, *, config: Config, locomo: str) -> dict[str, Any]:
    """``path`` holding ``n`` memories with real-model vectors in ``NAMESPACE``;
    reused as it is when it already holds them. Returns how it was made."""
    with Memory(path, config=config, embedder=None) as mem:
        held = mem.get_all(namespace=NAMESPACE, limit=1).total
    if held >= n:
        return {"memories": held, "reused": True}
    if held:
        raise InvalidInputError(f"{path} holds {held} memories, not {n}: pass another --store-dir")
    # No pipeline jobs for the corpus: a backlog of N would hold up the turns' mining.
    config = config.with_overrides(pipeline={"enabled": False})
    turns, _ = locomo_turns_and_questions(locomo)
    texts, vectors = compose_corpus(
        turns, base_vectors(config, turns, config.home_path / "bench-cache"), n
    )
    started = time.perf_counter()
    with Memory(path, config=config, embedder=None) as mem:
        records = list(mem.add_many(texts, namespace=NAMESPACE))
    with Memory(path, config=config) as mem:
        assert mem.embedder is not None
        model = mem.embedder.name
        for lo in range(0, len(records), 5000):
            mem.store.vectors.put(
                VectorRow(r.id, model, vectors[lo + i], r.content_hash)
                for i, r in enumerate(records[lo : lo + 5000])
            )
    return {"memories": n, "reused": False, "build_s": round(time.perf_counter() - started, 1)}


def _stats(values: Sequence[float]) -> dict[str, float]:
    return {"p50_ms": round(percentile(values, 50), 2), "p95_ms": round(percentile(values, 95), 2)}


def _body(question: str, tag: str, *, stream: bool) -> dict[str, Any]:
    return {
        "model": "bench",
        "user": tag,
        "stream": stream,
        "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": question},
        ],
    }


def _timed(
    client: httpx.Client,
    urls: dict[str, str],
    upstream: FakeUpstream,
    questions: Sequence[str],
    settle: Callable[[], None],
    alone: Callable[[int], float] | None = None,
) -> dict[str, dict[str, list[float]]]:
    """Each question streamed to each URL in turn (interleaved, so load drift hits all
    alike): per URL, milliseconds from sending to the upstream receiving the request
    (``first``) and to the client's last byte (``last``), warm-up left out. ``settle``
    runs between questions, as a user reads a reply before writing the next message.
    ``alone(i)`` (recall alone, timed in process) runs beside each question, before
    the calls on even ones and after them on odd ones, into ``out["alone"]["first"]``.
    The proxy's ``Server-Timing`` stages land in ``out["stage:<name>"]["first"]``."""
    out: dict[str, dict[str, list[float]]] = {n: {"first": [], "last": []} for n in urls}
    out["alone"] = {"first": [], "last": []}
    for i, question in enumerate(questions):
        took = alone(i) if alone is not None and i % 2 == 0 else None
        for name, url in urls.items():
            tag = f"{name}-{i}-{time.monotonic_ns()}"
            sent = time.perf_counter()
            with client.stream("POST", url, json=_body(question, tag, stream=True)) as response:
                for _ in response.iter_raw():
                    pass
            done = time.perf_counter()
            arrived = upstream.arrived.pop(tag)
            if i >= WARMUP:
                out[name]["first"].append((arrived - sent) * 1000)
                out[name]["last"].append((done - sent) * 1000)
                for stage, ms in stages.parse(response.headers.get(stages.HEADER, "")).items():
                    out.setdefault(f"stage:{stage}", {"first": [], "last": []})["first"].append(ms)
        if alone is not None and took is None:
            took = alone(i)
        if took is not None and i >= WARMUP:
            out["alone"]["first"].append(took)
        settle()
    return out


def _drained(mem: Memory, timeout: float = 30.0) -> Callable[[], None]:
    """Wait until the job queue holds nothing pending or running: the turn's mining and
    the pipeline jobs of what it filed are done."""

    def settle() -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            counts = mem.jobs.counts()
            if counts["pending"] == 0 and counts["leased"] == 0:
                return
            time.sleep(0.005)

    return settle


def measure_size(
    n: int,
    *,
    config: Config,
    locomo: str,
    store_dir: Path,
    requests: int,
    progress: Callable[[str, int, int], None] | None = None,
) -> dict[str, Any]:
    """Every measurement for one store size."""
    from engram.api.app import create_app
    from engram.api.server import serve_in_thread

    path = store_dir / f"chat-{n}.db"
    made = build_store(path, n, config=config, locomo=locomo)
    _, questions = locomo_turns_and_questions(locomo)
    questions = list(dict.fromkeys(questions))
    each = requests + WARMUP
    asked = [questions[i % len(questions)] for i in range(3 * each)]
    parts = [asked[i * each : (i + 1) * each] for i in range(3)]
    result: dict[str, Any] = {"memories": n, "store": made, "requests": requests}
    upstream = FakeUpstream()
    with upstream.running():
        for auto_mine in (False, True):
            chat = {"upstream_url": upstream.url, "auto_mine": auto_mine}
            # The worker polls often, so a turn's mining starts soon after its reply.
            cfg = config.with_overrides(chat=chat, worker={"poll_ms": 100})
            with Memory(path, config=cfg) as mem:
                # As a long-running server has them: the search indexes built (above
                # recall.ann_min_vectors, an HNSW graph in the background) before timing.
                mem.recall("warm up", namespace=NAMESPACE)
                result[f"index_wait_s_{'mining' if auto_mine else 'no_mining'}"] = round(
                    wait_for_index(mem), 1
                )
                _, key = mem.keys.create(user=USER)
                app = create_app(mem, mcp=False, worker=auto_mine)
                headers = {"Authorization": f"Bearer {key}"}
                with (
                    serve_in_thread(app) as url,
                    httpx.Client(timeout=120, headers=headers) as client,
                ):
                    urls = {
                        "direct": f"{upstream.url}/chat/completions",
                        "proxy": f"{url}/v1/proxy/chat/completions",
                    }
                    step = f"{n} memories, mining {'on' if auto_mine else 'off'}"
                    if progress:
                        progress(step, 0, 1)
                    # Without a worker nothing drains: there is nothing to wait for.
                    settle = _drained(mem) if auto_mine else lambda: None
                    # Recall alone beside the proxy's own cost (mining off), on its own
                    # questions (a repeated one would hit the query-vector cache).
                    alone = None if auto_mine else _recall_alone(mem, parts[0])
                    times = _timed(client, urls, upstream, parts[1 + auto_mine], settle, alone)
                    mode = "mining" if auto_mine else "no_mining"
                    for byte in ("first", "last"):
                        for way in ("direct", "proxy"):
                            result[f"{byte}_byte_{way}_{mode}"] = _stats(times[way][byte])
                    if not auto_mine:
                        result.update(_paired(times))
                    if auto_mine:
                        result["mined_turns"] = mem.jobs.counts(kind="chat_mine")
                    if progress:
                        progress(step, 1, 1)
    for mode in ("no_mining", "mining"):
        for byte in ("first", "last"):
            added = _p50(result, f"{byte}_byte_proxy_{mode}") - _p50(
                result, f"{byte}_byte_direct_{mode}"
            )
            result[f"{byte}_byte_added_p50_ms_{mode}"] = round(added, 2)
    # The target is the proxy's own cost: mining off, no worker competing for the CPU;
    # judged per pair (proxy − direct − recall alone, timed side by side).
    result["target_met"] = result["added_minus_recall_p50_ms"] <= 5
    return result


def _recall_alone(mem: Memory, questions: Sequence[str]) -> Callable[[int], float]:
    """Milliseconds of ``mem.chat.before`` (recall, the block, the S13 record) in
    process on the ``i``-th question."""

    def timed(i: int) -> float:
        started = time.perf_counter()
        mem.chat.before(
            [{"role": "user", "content": questions[i]}],
            user_id=USER,
            conversation_id="bench-alone",
        )
        return (time.perf_counter() - started) * 1000

    return timed


def _paired(times: dict[str, dict[str, list[float]]]) -> dict[str, Any]:
    """Recall alone, the proxy's added time per question (proxy − direct) and that less
    recall alone on the same round, as medians; and the proxy's stages (p50 each)."""
    added = [p - d for p, d in zip(times["proxy"]["first"], times["direct"]["first"], strict=True)]
    alone = times["alone"]["first"]
    margin = [a - r for a, r in zip(added, alone, strict=True)]
    return {
        "recall_alone": _stats(alone),
        "added_per_pair_p50_ms": round(percentile(added, 50), 2),
        "added_minus_recall_p50_ms": round(percentile(margin, 50), 2),
        "stages_p50_ms": {
            name.removeprefix("stage:"): round(percentile(v["first"], 50), 3)
            for name, v in times.items()
            if name.startswith("stage:")
        },
    }


def run_chat(
    sizes: Sequence[int],
    *,
    config: Config,
    locomo: str,
    store_dir: str,
    requests: int = 200,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Measure each size in turn; returns one dict per size."""
    if not Path(locomo).expanduser().is_file():
        raise InvalidInputError(f"LoCoMo file {locomo} does not exist; pass it with --data")
    folder = Path(store_dir).expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    return [
        measure_size(
            n, config=config, locomo=locomo, store_dir=folder, requests=requests, progress=progress
        )
        for n in sizes
    ]


def _p50(result: dict[str, Any], name: str) -> float:
    return float(result[name]["p50_ms"])


def _pair(result: dict[str, Any], name: str) -> str:
    return f"{result[name]['p50_ms']} / {result[name]['p95_ms']}"


def markdown(results: Sequence[dict[str, Any]]) -> str:
    """Two tables: first byte at the upstream, last byte at the client."""
    first = report.table(
        [
            "memories",
            "direct p50 / p95 ms",
            "proxy p50 / p95 ms",
            "added p50 ms",
            "recall alone p50 / p95 ms",
            "added − recall per pair, median ms",
            "target (≤ 5)",
        ],
        [
            [
                r["memories"],
                _pair(r, "first_byte_direct_no_mining"),
                _pair(r, "first_byte_proxy_no_mining"),
                r["first_byte_added_p50_ms_no_mining"],
                _pair(r, "recall_alone"),
                r["added_minus_recall_p50_ms"],
                "met" if r["target_met"] else "missed",
            ]
            for r in results
        ],
    )
    names = list(dict.fromkeys(n for r in results for n in r["stages_p50_ms"]))
    split = report.table(
        ["memories", *names],
        [[r["memories"], *(r["stages_p50_ms"].get(n, "") for n in names)] for r in results],
    )
    last = report.table(
        ["memories", "auto_mine", "direct p50 / p95 ms", "proxy p50 / p95 ms", "added p50 ms"],
        [
            [
                r["memories"],
                "on" if mode == "mining" else "off",
                _pair(r, f"last_byte_direct_{mode}"),
                _pair(r, f"last_byte_proxy_{mode}"),
                r[f"last_byte_added_p50_ms_{mode}"],
            ]
            for r in results
            for mode in ("no_mining", "mining")
        ],
    )
    return (
        "First byte at the upstream, mining off (the time the proxy adds before the model "
        f"sees the request)\n\n{first}\n\nLast byte at the client, streamed replies, "
        f"auto_mine off and on (each beside direct calls, interleaved)\n\n{last}\n\n"
        f"The proxy's stages (its Server-Timing header), p50 ms each, mining off\n\n{split}"
    )
