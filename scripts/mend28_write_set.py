"""Task mend28: writes src/engram/data/mend28.json, notes and chat turns shaped like the
extraction readings session twenty-five left (docs/benchmarks.md, notes27's "Left on
check" and the change folds' AA): a thing done "with" a tool or with people read as a
part the thing has (``runs has_forerunner Garmin Forerunner``, ``program has_junior
juniors``), a product word that is also English inside another name read as that
product's category (``user uses_framework Express Scripts``), a list of tools and
purposes, a model name that reads as a verb; and the right readings of the same words
that must stay (``billing uses_database Postgres 16``, ``efoil has 12V20Ah battery``).

Each row: the text, its register ("note": ``mem.add``; "chat": the proxy's path), the
facts a careful reader keeps (``expect``: each a list of words the fact holds), the
relations it records (``relations``, each must be found) and those it would accept
(``allowed``); every other relation is junk (scripts/queue27_measure.py scores them).
Folds by kind: the rows of a kind alternate tune, check.

    python scripts/mend28_write_set.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notes27_write_set import Row, build, rel  # noqa: E402 - the scripts' own folder

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "mend28.json"


USES = "uses|has|owns"
#: (kind, register, text, expect, relations, allowed)
ROWS: list[Row] = [
    # a product word that is also English, inside another name
    (
        "english",
        "note",
        "We use Express Scripts for prescriptions.",
        [["express scripts"]],
        [],
        [rel("user", "uses", "Express Scripts")],
    ),
    (
        "english",
        "chat",
        "We use Swift Transport for all our deliveries.",
        [["swift transport"]],
        [],
        [rel("user", "uses", "Swift Transport")],
    ),
    (
        "english",
        "chat",
        "I have a Rust Belt tin for the spare keys.",
        [["rust belt"]],
        [],
        [rel("user", "has|has_tin|owns", "Rust Belt tin")],
    ),
    (
        "english",
        "note",
        "The offsite moved to Phoenix Park this year.",
        [["phoenix park"]],
        [],
        [rel("offsite", "lives_in|moved_to|located_in|uses", "Phoenix Park")],
    ),
    (
        "english",
        "chat",
        "I keep my receipts in a Linear Motion folder.",
        [["linear motion"]],
        [],
        [rel("user", "has|has_folder|uses", "Linear Motion folder")],
    ),
    (
        "english",
        "note",
        "We ship parts with Arch Freight out of Rotterdam.",
        [["arch freight"]],
        [],
        [rel("user", "uses", "Arch Freight")],
    ),
    # the same words where they do name the product: must stay
    (
        "product",
        "note",
        "We moved billing to Postgres 16.",
        [["postgres 16"]],
        [rel("billing", "uses_database|uses", "Postgres 16")],
        [],
    ),
    (
        "product",
        "chat",
        "I'm on a Pixel 8 now.",
        [["pixel 8"]],
        [rel("user", "uses_phone|uses", "Pixel 8")],
        [],
    ),
    (
        "product",
        "note",
        "We use AWS Lambda for the nightly jobs.",
        [["aws lambda"]],
        [rel("nightly jobs", "uses_cloud|uses", "AWS Lambda")],
        [rel("user", "uses_cloud|uses", "AWS Lambda")],
    ),
    (
        "product",
        "note",
        "Our API runs on Express.",
        [["express"]],
        [rel("API", "uses_framework|uses", "Express")],
        [],
    ),
    (
        "product",
        "chat",
        "I have an iPhone 12.",
        [],
        [rel("user", "uses_phone|has", "iPhone 12")],
        [],
    ),
    (
        "product",
        "note",
        "The blog is hosted on Ghost Pro.",
        [["ghost pro"]],
        [],
        [rel("blog", "uses_cms|uses", "Ghost Pro")],
    ),
    # a thing done with a tool, or with people: no part the thing has
    (
        "with",
        "chat",
        "I track my runs with a Garmin Forerunner.",
        [["garmin forerunner"]],
        [],
        [rel("user", USES, "Garmin Forerunner")],
    ),
    (
        "with",
        "note",
        "I log my rides with a Wahoo Elemnt.",
        [["wahoo elemnt"]],
        [],
        [rel("user", USES, "Wahoo Elemnt")],
    ),
    ("with", "chat", "I pair/mob program with the juniors on Tuesdays.", [["juniors"]], [], []),
    ("with", "chat", "I cook dinner with the kids on Sundays.", [["kids"]], [], []),
    (
        "with",
        "note",
        "I measure my sleep with an Oura Ring.",
        [["oura ring"]],
        [],
        [rel("user", USES, "Oura Ring")],
    ),
    ("with", "note", "We run retros with the contractors every Friday.", [["contractors"]], [], []),
    (
        "with",
        "chat",
        "I edit my photos with a MacBook Pro.",
        [["macbook pro"]],
        [],
        [rel("user", USES, "MacBook Pro")],
    ),
    ("with", "chat", "I practise scales with the twins after school.", [["twins"]], [], []),
    # a thing with a part: must stay
    (
        "part",
        "chat",
        "I bought an efoil with a 12V20Ah battery.",
        [["efoil"]],
        [rel("efoil", "has|has_battery", "12V20Ah battery")],
        [],
    ),
    (
        "part",
        "chat",
        "We rented a cabin with a wood stove for the winter.",
        [["cabin"]],
        [rel("cabin", "has|has_stove", "wood stove")],
        [],
    ),
    (
        "part",
        "note",
        "The new build server is a box with a Threadripper CPU.",
        [["threadripper"]],
        [],
        [rel("box|server|build server", "has|has_cpu", "Threadripper CPU")],
    ),
    (
        "part",
        "chat",
        "My sister has a flat with a roof terrace in Leith.",
        [["roof terrace"]],
        [],
        [rel("flat", "has|has_terrace", "roof terrace"), rel("sister", "lives_in", "Leith")],
    ),
    # tools and purposes in one list; a model name that reads as a verb
    (
        "list",
        "chat",
        "I use Obsidian for notes, Things for tasks and Fantastical for my calendar.",
        [["obsidian"]],
        [rel("user", "uses", "Obsidian")],
        [rel("user", "uses", "Things"), rel("user", "uses", "Fantastical")],
    ),
    (
        "list",
        "note",
        "We use Jira for tickets, Slack for chat and Zoom for calls.",
        [["jira"]],
        [rel("user", "uses|uses_tracker", "Jira")],
        [rel("user", "uses|uses_chat", "Slack"), rel("user", "uses|uses_video", "Zoom")],
    ),
    (
        "model",
        "chat",
        "I run in Brooks Ghost, Hoka Clifton and Saucony Ride shoes.",
        [["hoka clifton"]],
        [],
        [rel("user", "uses|wears|runs_in", "Brooks Ghost")],
    ),
    (
        "model",
        "note",
        "I wear Nike Vomero and Brooks Launch shoes for long runs.",
        [["nike vomero"]],
        [],
        [rel("user", "uses|wears", "Nike Vomero")],
    ),
]


def main() -> None:
    OUT.write_text(json.dumps(build(ROWS, "m28", __doc__), indent=1) + "\n")
    print(len(ROWS), "rows")


if __name__ == "__main__":
    main()
