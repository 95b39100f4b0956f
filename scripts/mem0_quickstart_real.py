"""Run mem0's quickstart and memory-operations pages (tests/mem0_quickstart.py, 25
calls and 7 more) against REAL mem0 2.2.1, offline, and write what it returned as the door's
expectation (tests/data/mem0_quickstart.json).

Most calls add with ``infer=True``, where mem0 asks its LLM for the facts. The LLM is
tests/llmserver.py's scripted server on 127.0.0.1, speaking OpenAI's protocol, which
answers mem0's extraction prompt with fixed JSON (``FACTS``: the facts an LLM would
take from each conversation, none when it repeats what is stored); the comparison
looks at shapes and events, not the wording. Everything else is as in
scripts/mem0_script_real.py (hash embedder, local Qdrant and history under a temporary
directory, telemetry off). Run it from mem0's own venv, with no network::

    python3 -m venv /tmp/mem0-venv && /tmp/mem0-venv/bin/pip install mem0ai==2.2.1
    unshare -rn sh -c 'ip link set lo up && /tmp/mem0-venv/bin/python \\
        scripts/mem0_quickstart_real.py'
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "scripts")]

from mem0_script_real import offline_memory  # noqa: E402

from llmserver import Request, ScriptedLlm  # noqa: E402
from mem0_quickstart import CALLS, EXPECTED, run  # noqa: E402

#: What the scripted LLM extracts from each conversation (a word of it picks which).
FACTS = {
    "basketball": ["Name is Alex", "Enjoys basketball and gaming"],
    "sci-fi": ["Is not a big fan of thriller movies", "Loves sci-fi movies"],
    "Berlin": ["Lives in Berlin"],
    "Lisbon": ["Moved to Lisbon last month"],
    "window seats": ["User prefers window seats"],
}


def extract(request: Request) -> str:
    """mem0's extraction call: the facts of the conversation under its prompt's "New
    Messages", less those already listed above it (an LLM adds nothing it is told is
    stored; mem0's hash check would drop them anyway)."""
    prompt = str(request.body["messages"][-1]["content"])
    known, _, new = prompt.partition("## New Messages")
    new = new.split("## Observation Date")[0]
    facts = [f for word, said in FACTS.items() if word in new for f in said]
    return json.dumps({"memory": [{"text": f} for f in facts if f not in known]})


def main() -> int:
    with ScriptedLlm() as llm, tempfile.TemporaryDirectory(prefix="mem0-qs-") as tmp:
        llm.fallback = extract
        llm_config: dict[str, Any] = {
            "provider": "openai",
            "config": {
                "model": "gpt-4.1-nano",
                "api_key": "unused-offline",
                "openai_base_url": llm.openai_url,
            },
        }
        memory = offline_memory(Path(tmp), llm=llm_config)
        import mem0

        summaries = run(memory)
        asked = len(llm.requests)
    for n, ((verb, _, kwargs), got) in enumerate(zip(CALLS, summaries, strict=True), start=1):
        print(f"{n:2d} {verb:<10} {json.dumps(kwargs, default=str)[:60]:<60} {json.dumps(got)}")
    print(f"mem0 {mem0.__version__}: {len(summaries)} calls, {asked} LLM request(s)")
    EXPECTED.write_text(
        json.dumps({"mem0": mem0.__version__, "summaries": summaries}, indent=1) + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
