"""Issue 24, task beam23: a question that lists three or more things, asked per thing.

"Considering my cover letter deadlines, the Zoom call with the creative director, and
my interview clarity improvements, how should I prioritize ...?" names three threads;
one ranking of the whole question fills its head with whichever matches best (BEAM's
multi_session_reasoning misses on chats 6-10). Offline: every question holding a list
("A, B(,) and/or C") is also recalled once per item, and the rankings are interleaved
as ``recall.decompose`` interleaves (the whole question first); scored on a dump of
``scripts/beam23_dump.py`` (the same store) per fold and ability, and counted on LoCoMo.

    PYTHONPATH=src python scripts/beam23_lists.py STORE DUMP.pkl locomo|beam item|sentence [show]
"""

from __future__ import annotations

import pickle
import sys
from collections import Counter

from engram import Memory
from engram.bench.runner import namespace_for
from engram.config import Config
from engram.recall import decompose, lists


def queries(query: str, style: str) -> list[str]:
    """Each listed item alone (``item``), or the asking sentence with the list replaced
    by the item (``sentence``)."""
    named = lists.items(query)
    if style == "item" or not named:
        return list(named)
    asked = lists._SENTENCE.findall(query)
    sentence = asked[-1] if asked else query
    found = lists._LIST.search(sentence)
    assert found is not None
    span = sentence[found.start() : found.end()]
    first = lists._LEAD.sub("", span.split(",")[0])
    start = sentence.index(span) + len(span.split(",")[0]) - len(first)
    return [sentence[:start] + n + sentence[found.end() :] for n in named]


def main(store: str, dump: str, name: str, style: str) -> None:
    with open(dump, "rb") as f:
        data = pickle.load(f)
    rows = data["rows"]
    fired: Counter[str] = Counter()
    config = Config().with_overrides(injection_mode="flag")
    with Memory(store, config=config) as mem:
        for row in rows:
            q = row["question"]
            parts = queries(q.text, style)
            if not parts:
                continue
            fired[q.category] += 1
            ns = namespace_for(name, row["conversation"])
            rankings = [row["hits"]]
            for p in parts:
                got = mem.recall(p, namespace=ns, limit=50, abstain=False, coverage_top_n=0)
                rankings.append(list(got.hits))
            row["hits"] = decompose.interleave(rankings)[:50]
            row["parts"] = parts
            if len(sys.argv) > 5:
                print(q.category, "|", q.text[:120], "->", parts)
    print("fired per category:", dict(fired))
    out = dump.replace(".pkl", f"-lists-{style}.pkl")
    with open(out, "wb") as f:
        pickle.dump(data, f)
    print("->", out)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4])
