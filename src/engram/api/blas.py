"""One BLAS thread for the server's process (issue 31's chat proxy latency).

Below ``recall.ann_min_vectors`` recall scores a namespace exactly: one matrix-vector
product in numpy, which OpenBLAS splits over a thread per core. Its threads spin after
the product, waiting for the next one, so on a small machine they hold the cores the
server's other threads need next: the event loop waited 3-12 ms to resume a request
after recall (the ``hop`` stage of the proxy's ``Server-Timing``) and recall itself ran
2-4x slower, at 10,000 memories on the shared two-core machine (docs/benchmarks.md,
"Chat proxy (issue 31)", experiment 6). With one BLAS thread the hop is 0.3 ms. A
product of 20,000 x 384 floats takes a couple of milliseconds on one thread, and the
server runs many requests at once, so the threads are not missed. OpenMP (the ANN
graph builds) and onnxruntime (the embedder) keep their own pools.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

#: The BLAS threads a server process uses.
THREADS = 1


@contextmanager
def one_thread() -> Iterator[None]:
    """BLAS on ``THREADS`` thread(s) while the server runs, the earlier limit after."""
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped, unused-ignore]
    except ImportError:  # a dependency; without it, the default pool
        yield
        return
    with threadpool_limits(limits=THREADS, user_api="blas"):
        yield
