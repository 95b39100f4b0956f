"""Task conflict38: the labelled pairs and mined chats of "two statements of one slot
that disagree" (written before any rule changed; see docs/benchmarks.md).

    python scripts/conflict38_cases.py        # writes scripts/conflict38_cases.json

Each pair is two statements told to one namespace (``user:<u>``), by two agents or by
one source at two times, with a question about the slot. ``kind``:

- ``conflict``: two values of one slot, neither told as a change (the pair a review
  item must name, and recall must mark);
- ``change``: the second told as a change ("raised to", "moved to", "now"): the change
  reader closes the old value, so no conflict;
- ``coexist``: two values that hold together (two tools for two jobs, an addition);
- ``restate``: the same value said again in other words;
- ``unrelated``: two statements of different slots or subjects.

Folds: ``tune`` (software teams, ops, a planner/coder crew) is the one rules may be
tuned on; ``held`` (households, events, clinics, travel, clubs; other wording) is read
once at the end. ``chats`` are mined conversations (user and assistant turns with small
talk, restatements, coexisting values and changes told as changes) whose review queue
must stay empty; two per fold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).with_suffix(".json")

# (old, new, question, old_agent, new_agent) per kind; agents None = one source.
TUNE: dict[str, list[tuple[str, str, str, str | None, str | None]]] = {
    "conflict": [
        (
            "The API rate limit burst is 20.",
            "The API rate limit burst is 30.",
            "What is the API rate limit burst?",
            "planner",
            "coder",
        ),
        (
            "The release owner is Priya.",
            "The release owner is Marco.",
            "Who is the release owner?",
            "planner",
            "coder",
        ),
        (
            "The staging database is Postgres 15.",
            "The staging database is MySQL 8.",
            "Which database does staging use?",
            "planner",
            "reviewer",
        ),
        (
            "The team uses Jira for tickets.",
            "The team uses Linear for tickets.",
            "Which tracker does the team use for tickets?",
            "planner",
            "coder",
        ),
        (
            "The request timeout is 30 seconds.",
            "The request timeout is 45 seconds.",
            "What is the request timeout?",
            "coder",
            "reviewer",
        ),
        (
            "The on-call lead this week is Tomasz.",
            "The on-call lead this week is Aisha.",
            "Who is the on-call lead this week?",
            "planner",
            "coder",
        ),
        (
            "The billing service runs on Kubernetes.",
            "The billing service runs on Nomad.",
            "What does the billing service run on?",
            "planner",
            "coder",
        ),
        (
            "The max upload size is 25 MB.",
            "The max upload size is 50 MB.",
            "What is the max upload size?",
            "coder",
            "reviewer",
        ),
        (
            "The code freeze starts on Thursday.",
            "The code freeze starts on Monday.",
            "When does the code freeze start?",
            "planner",
            "coder",
        ),
        (
            "The retry limit for webhooks is 5.",
            "The retry limit for webhooks is 8.",
            "What is the webhook retry limit?",
            None,
            None,
        ),
        (
            "The design lead is Hannah.",
            "The design lead is Oskar.",
            "Who is the design lead?",
            None,
            None,
        ),
        (
            "The cache TTL is 300 seconds.",
            "The cache TTL is 600 seconds.",
            "What is the cache TTL?",
            "planner",
            "coder",
        ),
    ],
    "change": [
        (
            "The API rate limit burst is 20.",
            "We raised the API rate limit burst to 30.",
            "What is the API rate limit burst?",
            "planner",
            "coder",
        ),
        (
            "The release owner is Priya.",
            "Marco took over as release owner from Priya.",
            "Who is the release owner?",
            "planner",
            "coder",
        ),
        (
            "The team uses Jira for tickets.",
            "The team switched from Jira to Linear for tickets.",
            "Which tracker does the team use?",
            "planner",
            "coder",
        ),
        (
            "The billing service uses MySQL.",
            "The billing service migrated to Postgres.",
            "Which database does billing use?",
            "planner",
            "coder",
        ),
        ("Our standup is at 9am.", "We moved standup to 10am.", "When is standup?", None, None),
        (
            "The request timeout is 30 seconds.",
            "The request timeout is now 45 seconds.",
            "What is the request timeout?",
            "coder",
            "reviewer",
        ),
    ],
    "coexist": [
        (
            "We use Slack for team chat.",
            "We use email for talking to clients.",
            "What do we use to communicate?",
            "planner",
            "coder",
        ),
        (
            "The backend is written in Go.",
            "The admin scripts are written in Python.",
            "What languages do we write code in?",
            "planner",
            "coder",
        ),
        (
            "The billing service uses Redis for caching.",
            "The billing service also uses Postgres.",
            "What does the billing service use?",
            "planner",
            "coder",
        ),
        (
            "Priya reviews the backend pull requests.",
            "Marco reviews the frontend pull requests.",
            "Who reviews pull requests?",
            "planner",
            "coder",
        ),
        (
            "The team likes pairing on hard bugs.",
            "The team likes async code review too.",
            "How does the team like to work?",
            None,
            None,
        ),
    ],
    "restate": [
        (
            "The API rate limit burst is 20.",
            "Burst for the API rate limiter: 20 requests.",
            "What is the API rate limit burst?",
            "planner",
            "coder",
        ),
        (
            "The release owner is Priya.",
            "Priya owns the release.",
            "Who is the release owner?",
            "planner",
            "coder",
        ),
        (
            "The staging database is Postgres 15.",
            "Staging runs on PostgreSQL 15.",
            "Which database does staging use?",
            "planner",
            "reviewer",
        ),
        (
            "The team uses Jira for tickets.",
            "Tickets live in Jira.",
            "Which tracker does the team use?",
            None,
            None,
        ),
        (
            "The cache TTL is 300 seconds.",
            "The cache TTL is five minutes.",
            "What is the cache TTL?",
            "planner",
            "coder",
        ),
    ],
    "unrelated": [
        (
            "The API rate limit burst is 20.",
            "The release owner is Marco.",
            "What is the API rate limit burst?",
            "planner",
            "coder",
        ),
        (
            "The staging database is Postgres 15.",
            "The design lead is Hannah.",
            "Which database does staging use?",
            "planner",
            "coder",
        ),
        (
            "The request timeout is 30 seconds.",
            "The max upload size is 50 MB.",
            "What is the request timeout?",
            None,
            None,
        ),
        (
            "Thanks, that was a great sprint review!",
            "Lunch today was really good.",
            "How was the sprint review?",
            "coder",
            "reviewer",
        ),
    ],
}

HELD: dict[str, list[tuple[str, str, str, str | None, str | None]]] = {
    "conflict": [
        (
            "The wedding venue is Hollins Hall.",
            "The wedding venue is Marsden Barn.",
            "Where is the wedding venue?",
            "mum",
            "sister",
        ),
        (
            "Grandpa's dentist is Dr. Okafor.",
            "Grandpa's dentist is Dr. Lindqvist.",
            "Who is grandpa's dentist?",
            None,
            None,
        ),
        (
            "The book club meets on Wednesdays.",
            "The book club meets on Fridays.",
            "When does the book club meet?",
            "organiser",
            "member",
        ),
        (
            "The monthly rent is 1200 pounds.",
            "The monthly rent is 1350 pounds.",
            "What is the monthly rent?",
            "tenant",
            "partner",
        ),
        (
            "The flight to Lisbon leaves from Gatwick.",
            "The flight to Lisbon leaves from Stansted.",
            "Which airport does the Lisbon flight leave from?",
            "assistant1",
            "assistant2",
        ),
        (
            "Mia's piano teacher is Mrs. Albright.",
            "Mia's piano teacher is Mr. Castellanos.",
            "Who is Mia's piano teacher?",
            "dad",
            "mum",
        ),
        (
            "The clinic's head nurse is Beatriz.",
            "The clinic's head nurse is Kwame.",
            "Who is the clinic's head nurse?",
            "intake",
            "scheduler",
        ),
        (
            "The team kit colour is navy.",
            "The team kit colour is maroon.",
            "What colour is the team kit?",
            "coach",
            "captain",
        ),
        (
            "The insurance deductible is 500 dollars.",
            "The insurance deductible is 750 dollars.",
            "What is the insurance deductible?",
            None,
            None,
        ),
        (
            "The hotel check-in time is 3pm.",
            "The hotel check-in time is 4pm.",
            "What time is hotel check-in?",
            "assistant1",
            "assistant2",
        ),
        (
            "The school pickup is at 15:15.",
            "The school pickup is at 15:45.",
            "When is school pickup?",
            "dad",
            "mum",
        ),
        (
            "The allotment plot number is 14.",
            "The allotment plot number is 22.",
            "What is the allotment plot number?",
            None,
            None,
        ),
    ],
    "change": [
        (
            "The wedding venue is Hollins Hall.",
            "We changed the wedding venue to Marsden Barn.",
            "Where is the wedding venue?",
            "mum",
            "sister",
        ),
        (
            "The book club meets on Wednesdays.",
            "The book club moved its meetings to Fridays.",
            "When does the book club meet?",
            "organiser",
            "member",
        ),
        (
            "The monthly rent is 1200 pounds.",
            "The landlord put the rent up to 1350 pounds.",
            "What is the monthly rent?",
            "tenant",
            "partner",
        ),
        (
            "Mia's piano teacher is Mrs. Albright.",
            "Mia switched piano teachers, she now has Mr. Castellanos.",
            "Who is Mia's piano teacher?",
            "dad",
            "mum",
        ),
        (
            "Grandpa lives in Harrogate.",
            "Grandpa moved to York in the spring.",
            "Where does grandpa live?",
            None,
            None,
        ),
        (
            "The hotel check-in time is 3pm.",
            "The hotel pushed check-in back to 4pm.",
            "What time is hotel check-in?",
            "assistant1",
            "assistant2",
        ),
    ],
    "coexist": [
        (
            "Mum drinks oat milk in her tea.",
            "Mum puts cow's milk in her coffee.",
            "What milk does mum take?",
            "dad",
            "sister",
        ),
        (
            "The kids play football on Saturdays.",
            "The kids also swim on Sundays.",
            "What do the kids do at weekends?",
            None,
            None,
        ),
        (
            "We book trains with Trainline.",
            "We book flights with Skyscanner.",
            "How do we book travel?",
            "assistant1",
            "assistant2",
        ),
        (
            "Nadia plays the violin.",
            "Nadia plays the cello as well.",
            "What instruments does Nadia play?",
            None,
            None,
        ),
        (
            "The clinic opens at 8am on weekdays.",
            "The clinic opens at 10am on Saturdays.",
            "When does the clinic open?",
            "intake",
            "scheduler",
        ),
    ],
    "restate": [
        (
            "The wedding venue is Hollins Hall.",
            "We're getting married at Hollins Hall.",
            "Where is the wedding venue?",
            "mum",
            "sister",
        ),
        (
            "The book club meets on Wednesdays.",
            "Book club is every Wednesday evening.",
            "When does the book club meet?",
            None,
            None,
        ),
        (
            "The monthly rent is 1200 pounds.",
            "Rent comes to £1,200 a month.",
            "What is the monthly rent?",
            "tenant",
            "partner",
        ),
        (
            "Grandpa's dentist is Dr. Okafor.",
            "Dr. Okafor looks after grandpa's teeth.",
            "Who is grandpa's dentist?",
            None,
            None,
        ),
        (
            "The team kit colour is navy.",
            "Our kit is navy blue.",
            "What colour is the team kit?",
            "coach",
            "captain",
        ),
    ],
    "unrelated": [
        (
            "The wedding venue is Hollins Hall.",
            "The monthly rent is 1350 pounds.",
            "Where is the wedding venue?",
            "mum",
            "sister",
        ),
        (
            "Grandpa's dentist is Dr. Okafor.",
            "The book club meets on Fridays.",
            "Who is grandpa's dentist?",
            None,
            None,
        ),
        (
            "Haha, that cake was amazing!",
            "Rainy again today, typical.",
            "How was the cake?",
            "dad",
            "mum",
        ),
        (
            "The team kit colour is navy.",
            "The allotment plot number is 22.",
            "What colour is the team kit?",
            "coach",
            "captain",
        ),
    ],
}

CHATS: list[dict[str, Any]] = [
    {
        "id": "c38-tune-1",
        "fold": "tune",
        "messages": [
            {
                "role": "user",
                "content": "Morning! Quick context: I run the platform team at Kestrel.",
            },
            {"role": "assistant", "content": "Good morning! Noted, you run the platform team."},
            {"role": "user", "content": "Our API rate limit burst is 20 right now."},
            {"role": "assistant", "content": "Got it: burst of 20."},
            {"role": "user", "content": "We use Slack for team chat and email for clients."},
            {"role": "assistant", "content": "Slack internally, email externally. Makes sense."},
            {"role": "user", "content": "Honestly the burst of 20 felt tight during the launch."},
            {"role": "assistant", "content": "Launches do spike traffic."},
            {"role": "user", "content": "So we raised the burst to 30 yesterday."},
            {"role": "assistant", "content": "Great, burst is 30 now."},
            {"role": "user", "content": "Our on-call lead this week is Tomasz."},
            {"role": "assistant", "content": "Tomasz is on call, noted."},
            {"role": "user", "content": "Tomasz is also covering the weekend."},
            {"role": "user", "content": "Thanks, you're a star!"},
            {"role": "assistant", "content": "Happy to help!"},
        ],
    },
    {
        "id": "c38-tune-2",
        "fold": "tune",
        "messages": [
            {"role": "user", "content": "Hi there. I maintain the billing service."},
            {"role": "assistant", "content": "Hi! What would you like to work on?"},
            {"role": "user", "content": "The billing service uses Postgres and Redis for caching."},
            {"role": "assistant", "content": "Postgres plus Redis, got it."},
            {"role": "user", "content": "Our request timeout is 30 seconds."},
            {"role": "assistant", "content": "A 30 second timeout is fairly generous."},
            {"role": "user", "content": "Yeah the timeout is 30s because some reports are slow."},
            {"role": "user", "content": "Should we drop it to 10 seconds? Not sure yet."},
            {
                "role": "assistant",
                "content": "You could try 10 seconds on the fast endpoints first.",
            },
            {"role": "user", "content": "My manager is Priya, she prefers small PRs."},
            {"role": "assistant", "content": "Small PRs it is."},
            {"role": "user", "content": "Priya also likes a short summary in each PR."},
            {"role": "user", "content": "Lol the coffee machine broke again today."},
            {"role": "assistant", "content": "Oh no! Hope it gets fixed soon."},
        ],
    },
    {
        "id": "c38-held-1",
        "fold": "held",
        "messages": [
            {"role": "user", "content": "Hello! I'm planning my sister's wedding."},
            {"role": "assistant", "content": "How exciting! How can I help?"},
            {"role": "user", "content": "The venue is Hollins Hall, just outside Leeds."},
            {"role": "assistant", "content": "Hollins Hall sounds lovely."},
            {
                "role": "user",
                "content": "We're getting married at Hollins Hall in June, well, she is.",
            },
            {"role": "user", "content": "The budget is 15000 pounds."},
            {"role": "assistant", "content": "15,000 pounds, noted."},
            {"role": "user", "content": "Mum does the flowers and Dad does the music."},
            {"role": "assistant", "content": "A real family effort!"},
            {"role": "user", "content": "Update: we bumped the budget up to 18000 pounds."},
            {"role": "assistant", "content": "Okay, 18,000 pounds now."},
            {"role": "user", "content": "What do you think about a string quartet?"},
            {"role": "assistant", "content": "A quartet would suit a hall like that."},
            {"role": "user", "content": "Haha we'll see, thanks so much!"},
        ],
    },
    {
        "id": "c38-held-2",
        "fold": "held",
        "messages": [
            {"role": "user", "content": "Hiya, can you help me keep track of the kids' week?"},
            {"role": "assistant", "content": "Of course! Tell me the routine."},
            {"role": "user", "content": "School pickup is at 15:15 on weekdays."},
            {"role": "assistant", "content": "Pickup 15:15, got it."},
            {
                "role": "user",
                "content": "Mia's piano teacher is Mrs. Albright, lessons on Tuesdays.",
            },
            {"role": "user", "content": "The kids play football on Saturdays and swim on Sundays."},
            {"role": "assistant", "content": "Busy weekends!"},
            {"role": "user", "content": "On Fridays pickup is at 14:30 because of the half day."},
            {"role": "assistant", "content": "Friday pickup 14:30, noted."},
            {
                "role": "user",
                "content": "Mia switched piano teachers, she now has Mr. Castellanos.",
            },
            {"role": "assistant", "content": "Mr. Castellanos from now on."},
            {"role": "user", "content": "Ugh, it's raining again. Typical."},
            {"role": "assistant", "content": "Cosy indoor day then!"},
        ],
    },
]


def _pairs(
    fold: str, table: dict[str, list[tuple[str, str, str, str | None, str | None]]]
) -> list[dict[str, Any]]:
    rows = []
    for kind, items in table.items():
        for i, (old, new, question, a, b) in enumerate(items):
            rows.append(
                {
                    "id": f"{fold}-{kind}-{i}",
                    "fold": fold,
                    "kind": kind,
                    "old": old,
                    "new": new,
                    "question": question,
                    "old_agent": a,
                    "new_agent": b,
                }
            )
    return rows


def main() -> None:
    data = {"pairs": _pairs("tune", TUNE) + _pairs("held", HELD), "chats": CHATS}
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    n = len(data["pairs"])
    print(f"wrote {OUT.name}: {n} pairs, {len(CHATS)} chats")


if __name__ == "__main__":
    main()
