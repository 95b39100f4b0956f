"""Task abstain29: round nineteen's team questions, on a reconstruction of its notes.

Round nineteen (docs/benchmarks.md, "2026-12-01, round nineteen") asked a team of three
six questions nothing stored answered; five got a confident answer from a topical
neighbour. Its store (/tmp/dogfood19) is gone, so these notes are written again from what
that section quotes and describes (the neighbours of the five, and the kind of note each
user kept), with the same questions; the figures are this reconstruction's, not the
team's. Each user's notes go to their own namespace in a fresh in-memory Memory and each
question is asked with the attribute test off (``attribute_floor=0``, the default) and
on (``FLOOR``, with its ceiling), printing silent / marked / confident per side and
each answerable question's gold in the context.

    python scripts/abstain29_team.py
"""

from __future__ import annotations

from engram import Memory
from engram.recall.abstain_attribute import FLOOR

NOTES = {
    "ines": [
        "The payments cluster pages the on-call SRE through Opsgenie when p99 latency "
        "stays above 800 ms for five minutes.",
        "Terraform state lives in the S3 bucket tf-state-prod with DynamoDB locking.",
        "Postgres backups run nightly at 02:00 UTC with pgBackRest and are kept 35 days.",
        "The API gateway allows 600 requests a minute per customer key.",
        "I'm allergic to penicillin; the GP prescribes doxycycline instead.",
        "My daughter Lotte has swimming lessons on Wednesdays at 17:30 at De Mirandabad.",
    ],
    "tomas": [
        "The billing service is written in Kotlin with Ktor and deploys from the "
        "billing-svc repository.",
        "Database migrations are run with Flyway before each release.",
        "The staging environment is reset every Monday morning from a production snapshot.",
        "Our cat Pixel gets half a thyroid pill every morning with her food.",
        "Integration tests run on GitHub Actions with a Postgres service container.",
        "Feature flags are managed in Unleash, self-hosted next to the API.",
    ],
    "amara": [
        "The design system's components live in the Figma file 'Atlas 3.0', owned by "
        "the design team.",
        "Icons are drawn on a 24 px grid with a 2 px stroke.",
        "Brand blue is #1D4ED8 and is used for primary buttons only.",
        "Usability tests are run every second Thursday with five participants.",
        "I present design reviews to the product leads on Friday afternoons.",
        "The marketing site is built with Astro and hosted on Netlify.",
    ],
}

#: (user, question, gold note index or None when nothing stored answers it)
QUESTIONS = [
    ("ines", "which message broker does the payments cluster use?", None),
    ("tomas", "what ORM does the billing service use?", None),
    ("ines", "when is my daughter's birthday?", None),
    ("amara", "which font does the design system use?", None),
    ("tomas", "what is my cat's vet called?", None),
    ("amara", "who hosts the marketing website?", 5),
    ("ines", "who gets woken up when payments are slow?", 0),
    ("ines", "which antibiotic must I avoid?", 4),
    ("ines", "how many calls can a customer make per minute?", 3),
    ("tomas", "what language is the billing service written in?", 0),
    ("tomas", "what medication does the cat take?", 3),
    ("amara", "where are the design system's components kept?", 0),
    ("amara", "which colour do primary buttons use?", 2),
]


def main() -> None:
    counts = {
        side: {"answerable": [0, 0, 0, 0], "unanswerable": [0, 0, 0]} for side in ("off", "on")
    }
    with Memory(":memory:") as mem:
        for user, notes in NOTES.items():
            mem.add_many([{"content": n} for n in notes], namespace=f"user:{user}")
        for user, question, gold in QUESTIONS:
            line = []
            for side in ("off", "on"):
                floor = 0.0 if side == "off" else FLOOR
                r = mem.recall(question, namespace=f"user:{user}", attribute_floor=floor)
                verdict = 0 if not r.shown else (1 if r.low_confidence else 2)
                kind = "unanswerable" if gold is None else "answerable"
                counts[side][kind][verdict] += 1
                if gold is not None:
                    shown = {
                        h.memory.id: h.memory.content for h in r.hits if h.memory.id in r.shown
                    }
                    counts[side][kind][3] += NOTES[user][gold] in shown.values()
                line.append(("silent", "marked", "confident")[verdict])
            print(f"{question:55} off {line[0]:9} on {line[1]}")
    for side, by_kind in counts.items():
        a, u = by_kind["answerable"], by_kind["unanswerable"]
        print(
            f"{side}: answerable silent/marked/confident {a[0]}/{a[1]}/{a[2]}, gold in "
            f"context {a[3]}; unanswerable {u[0]}/{u[1]}/{u[2]}"
        )


if __name__ == "__main__":
    main()
