"""``engram bench chat``: the latency the chat proxy adds (issue 31); kept apart from
``cli/bench.py`` so each stays a readable size."""

from __future__ import annotations

import click

from engram.bench import chat
from engram.cli import render
from engram.cli.bench_options import data_option, json_command, out_option, stage_progress
from engram.cli.bench_scale import _sizes
from engram.cli.common import Ctx


@click.command("chat")
@click.option(
    "--n", "sizes", default="10000,100000", show_default=True, help="Store sizes, comma-separated."
)
@data_option("LoCoMo file the memory texts and questions come from.")
@click.option("--requests", default=200, show_default=True, help="Timed requests per measurement.")
@click.option(
    "--store-dir",
    default="bench-results/chat-stores",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where the stores are kept (chat-<n>.db), reused by later runs.",
)
@out_option("Directory for chat.json and chat.md.")
@json_command
def chat_cmd(
    obj: Ctx, /, sizes: str, data: str, requests: int, store_dir: str, out: str, as_json: bool
) -> None:
    """Chat proxy: time added before the upstream's first byte (p50/p95, beside a direct
    call and recall alone, and less recall alone per pair), the proxy's Server-Timing
    stages, and time to the last byte with mining on, off and direct."""
    with stage_progress(shown=not as_json) as advance:
        results = chat.run_chat(
            _sizes(sizes),
            config=obj.config(),
            locomo=data,
            store_dir=store_dir,
            requests=requests,
            progress=advance,
        )
    path = render.publish(out, "chat", results, chat.markdown(results), as_json=as_json)
    if not as_json:
        render.console.print(f"results: {path}")
