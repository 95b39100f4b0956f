"""Task queue27: writes src/engram/data/queue27_turns.json, the labelled turns (written
for this task, before any rule changed; see the file's "about")."""

import json
from pathlib import Path


def R(s: str, r: str, o: str) -> dict[str, str]:  # noqa: N802 - a label, read as one
    return {"s": s, "r": r, "o": o}


rows = []


def add(kind, text, expect=(), relations=(), allowed=(), reply=None):
    row = {
        "kind": kind,
        "text": text,
        "expect": [list(e) for e in expect],
        "relations": list(relations),
        "allowed": list(allowed),
    }
    if reply is not None:
        row["reply"] = reply
    rows.append(row)


# gear or a tool a habit is done "in"/"on"
add(
    "gear",
    "I do my long runs in Hoka Clifton shoes.",
    [["hoka", "clifton"]],
    [R("user", "uses|wears|runs_in|has", "Hoka Clifton")],
)
add(
    "gear",
    "I write all my meeting notes in Obsidian.",
    [["notes", "obsidian"]],
    [R("user", "uses|writes_in|uses_notes", "Obsidian")],
)
add(
    "gear",
    "I ride most of my commutes on a Brompton.",
    [["brompton"]],
    [R("user", "uses|rides|has|commutes_on", "Brompton")],
)
add(
    "gear",
    "I cook nearly every dinner in a cast iron pan.",
    [["cast", "iron", "pan"]],
    [],
    [R("user", "uses|cooks_in|has", "cast iron pan")],
)
add(
    "gear",
    "We keep all the receipts in a shoebox under the bed.",
    [["receipts", "shoebox"]],
    [],
    [R("user", "keeps|uses|has", "shoebox")],
)
add(
    "gear",
    "I track my weekend rides in Strava.",
    [["rides", "strava"]],
    [R("user", "uses|tracks_in", "Strava")],
)
# a negation typed without its apostrophe
add(
    "negation",
    "i dont eat pork",
    [["pork"]],
    [],
    [R("user", "dislikes|avoids|does_not_eat|doesnt_eat", "pork")],
)
add(
    "negation",
    "My wife doesnt like spicy food.",
    [["wife", "spicy"]],
    [],
    [R("wife", "dislikes|doesnt_like", "spicy food")],
)
add(
    "negation",
    "I really cant stand country music",
    [["country", "music"]],
    [],
    [R("user", "dislikes|cant_stand", "country music")],
)
add("negation", "We havent had a car since 2022.", [["car", "2022"]], [], [])
add(
    "negation",
    "i honestly dont enjoy long meetings",
    [["long", "meetings"]],
    [],
    [R("user", "dislikes|doesnt_enjoy", "long meetings")],
)
add(
    "negation",
    "My son wont eat broccoli.",
    [["son", "broccoli"]],
    [],
    [R("son", "dislikes|refuses|wont_eat", "broccoli")],
)
# a team or group the user is in
add(
    "team",
    "I'm on the platform team.",
    [["platform", "team"]],
    [],
    [R("user", "member_of|works_in|on_team|works_on|part_of|team", "platform team")],
)
add(
    "team",
    "I'm part of the data team at Philips.",
    [["data", "team"]],
    [R("user", "works_at|works_for|employer", "Philips")],
    [R("user", "member_of|works_in|on_team|part_of|team", "data team")],
)
add(
    "team",
    "I'm in the design guild at work.",
    [["design", "guild"]],
    [],
    [R("user", "member_of|part_of|in", "design guild")],
)
add(
    "team",
    "I sit on the school's parents' council.",
    [["parents", "council"]],
    [],
    [R("user", "member_of|sits_on|part_of", "parents' council")],
)
# what was studied
add(
    "study",
    "I did chemistry at Leeds.",
    [["chemistry", "leeds"]],
    [R("user", "studied|attended|studied_at", "Leeds")],
    [R("user", "studied", "chemistry")],
)
add(
    "study",
    "I studied law at Durham before I moved into tech.",
    [["law", "durham"]],
    [R("user", "studied|attended|studied_at", "Durham")],
    [R("user", "studied", "law")],
)
add(
    "study",
    "My sister is studying medicine in Prague.",
    [["sister", "medicine"]],
    [],
    [R("sister", "studies|studying|studies_in|lives_in", "medicine|Prague")],
)
add(
    "study",
    "I took a degree in history at Cardiff.",
    [["history", "cardiff"]],
    [R("user", "studied|attended|studied_at", "Cardiff")],
    [R("user", "studied|degree", "history")],
)
# a date as the value
add(
    "date",
    "The builder starts on 3 June.",
    [["builder", "3", "june"]],
    [],
    [R("builder", "starts|starts_on|scheduled|start", "3 June")],
)
add("date", "The start got pushed to 12 May.", [["12", "may"]], [], [])
add(
    "date",
    "The kickoff moved to the 9th.",
    [["kickoff", "9th"]],
    [],
    [R("kickoff", "scheduled|moved_to", "9th")],
)
add(
    "date",
    "The move date is now 28 August.",
    [["move", "28", "august"]],
    [],
    [R("move date", "is|scheduled", "28 August")],
)
# how something is deployed or hosted
add(
    "deploy",
    "The API is deployed with the official Docker image.",
    [["api", "docker"]],
    [],
    [R("API", "uses|deployed_with", "Docker")],
)
add(
    "deploy",
    "The blog is hosted on Netlify's free plan.",
    [["blog", "netlify"]],
    [R("blog", "hosted_on|uses|hosted_by", "Netlify")],
)
add(
    "deploy",
    "Our docs are built with the standard MkDocs theme.",
    [["docs", "mkdocs"]],
    [],
    [R("docs", "uses|built_with", "MkDocs")],
)
add(
    "deploy",
    "The cluster is managed with the community Terraform modules.",
    [["cluster", "terraform"]],
    [],
    [R("cluster", "uses|managed_with", "Terraform")],
)
# statements with no I or we
add("no-i", "Postgres 16 on RDS now.", [["postgres", "16"]], [], [R("user", "uses", "Postgres 16")])
add(
    "no-i",
    "The plumber comes on Thursday.",
    [["plumber", "thursday"]],
    [],
    [R("plumber", "comes|scheduled|visits", "Thursday")],
)
add(
    "no-i",
    "1Password holds all the team's logins.",
    [["1password", "logins"]],
    [],
    [R("1Password", "holds|stores", "logins"), R("team", "uses", "1Password")],
)
add(
    "no-i",
    "Sentry catches the frontend errors.",
    [["sentry", "errors"]],
    [],
    [R("frontend", "uses", "Sentry"), R("Sentry", "catches", "frontend errors")],
)
add(
    "no-i",
    "The nightly jobs run on Airflow.",
    [["nightly", "airflow"]],
    [R("nightly jobs", "runs_on|run_on|uses", "Airflow")],
)
add(
    "no-i",
    "Grafana has the latency dashboards.",
    [["grafana", "dashboards"]],
    [],
    [R("Grafana", "has", "latency dashboards")],
)
add(
    "no-i",
    "The electrician is booked for the 14th.",
    [["electrician", "14th"]],
    [],
    [R("electrician", "booked|scheduled", "14th")],
)
add(
    "no-i",
    "Kids' school is St Anne's.",
    [["school", "anne"]],
    [],
    [R("kids", "attends|school|goes_to", "St Anne's")],
)
# my X is NAME
add(
    "role",
    "My manager is Tomasz.",
    [["user", "manager", "tomasz"]],
    [R("user", "reports_to|manager|has_manager|managed_by", "Tomasz")],
)
add(
    "role",
    "My landlord is Mrs Patel.",
    [["user", "landlord", "patel"]],
    [R("user", "landlord|has_landlord|rents_from", "Mrs Patel")],
)
add(
    "role",
    "My GP is Dr. Reyes.",
    [["user", "gp", "reyes"]],
    [R("user", "gp|doctor|has_gp|sees", "Dr. Reyes")],
)
add(
    "role",
    "My team lead is Aylin.",
    [["user", "team", "lead", "aylin"]],
    [R("user", "reports_to|team_lead|lead|has_team_lead", "Aylin")],
)
# talk that states nothing
for t in ["ok", "lol yes", "thanks!", "haha fair enough", "sounds good, ok bye"]:
    add("smalltalk", t)
for t in [
    "Can you remind me what my GP is called?",
    "What should I cook tonight?",
    "Write a haiku about trains.",
    "Is it going to rain in Leeds tomorrow?",
    "Could you draft an email to my landlord about the boiler?",
]:
    add("request", t)
# plain statements
add(
    "plain",
    "I work at Philips as a data engineer.",
    [["philips"]],
    [R("user", "works_at|works_for|employer", "Philips")],
)
add(
    "plain",
    "I live in Utrecht with my partner.",
    [["utrecht"]],
    [R("user", "lives_in|lives", "Utrecht")],
)
add(
    "plain",
    "My partner Sanne is a nurse.",
    [["sanne", "nurse"]],
    [R("user", "partner|has|married_to", "Sanne")],
    [R("Sanne", "is_a|works_as|job|has_role", "nurse")],
)
add(
    "plain",
    "I drive a Skoda Octavia.",
    [["skoda"]],
    [R("user", "drives|uses|has|owns|uses_car", "Skoda Octavia")],
)
add(
    "plain",
    "My daughter goes to the Montessori school.",
    [["daughter", "montessori"]],
    [R("daughter", "attends|goes_to|school", "Montessori school")],
)
add(
    "plain",
    "I'm allergic to penicillin.",
    [["penicillin"]],
    [R("user", "allergic_to|allergy", "penicillin")],
)
add(
    "plain", "I use Neovim for everything.", [["neovim"]], [R("user", "uses|uses_editor", "Neovim")]
)
add("plain", "I bank with Monzo.", [["monzo"]], [R("user", "banks_with|uses|bank", "Monzo")])
# not the user's own fact as stated
add("hypothetical", "If I had the money I'd buy a Tesla.", [], [], [])
add("joke", "I basically live at the gym these days lol", [], [], [])
add(
    "other",
    "My neighbour drives a Porsche.",
    [["neighbour", "porsche"]],
    [],
    [R("neighbour", "drives|owns|has|uses", "Porsche")],
)
add("plan", "I might switch to Linear next year.", [["linear"]], [], [])
add("reported", "My friend reckons Rust is the future.", [], [], [])
add(
    "wish",
    "I'd love to visit Japan someday.",
    [["japan"]],
    [],
    [R("user", "wants_to_visit|wishes", "Japan")],
)
# an assistant's turn in reply: the reply states nothing of the user's own
add("assistant", "who was my dentist again?", reply="Your dentist is Dr. Okafor, on Mill Road.")
add("assistant", "thanks", reply="You're welcome! Since you use Neovim, try the telescope plugin.")
add(
    "assistant",
    "I live in Utrecht now.",
    [["utrecht"]],
    [R("user", "lives_in|lives|moved_to", "Utrecht")],
    reply="Noted: you live in Utrecht and work at Philips.",
)
add("assistant", "what phone do I have?", reply="You have a Pixel 7, according to my notes.")
add(
    "assistant",
    "Recommend me a running shoe.",
    reply="Most runners like the Brooks Ghost; it is a neutral daily trainer.",
)
add(
    "assistant",
    "My cat is called Miso.",
    [["cat", "miso"]],
    [R("user", "has|cat|has_cat|pet", "Miso")],
    reply="Miso is a lovely name! Cats like Miso often sleep 16 hours a day.",
)
# a change said plainly
add(
    "change",
    "I moved from Leeds to York in March.",
    [["york"]],
    [R("user", "lives_in|moved_to|lives", "York")],
    [R("user", "moved_from|lived_in", "Leeds")],
)
add(
    "change",
    "We switched from Jira to Linear.",
    [["linear"]],
    [R("user", "uses|migrated_to|switched_to", "Linear")],
)
add(
    "change",
    "My manager changed, it's Aylin now.",
    [["aylin"]],
    [],
    [R("user", "reports_to|manager|has_manager", "Aylin")],
)
add(
    "change",
    "I sold the Golf and bought an e-bike.",
    [["golf"], ["e-bike"]],
    [],
    [R("user", "uses|owns|has|bought|sold", "e-bike|Golf")],
)

by_kind = {}
for r in rows:
    by_kind.setdefault(r["kind"], []).append(r)
n = 0
for rs in by_kind.values():
    for i, r in enumerate(rs):
        r["fold"] = "tune" if i % 2 == 0 else "check"
for i, r in enumerate(rows):
    r["id"] = f"q{i:03d}"
ABOUT = (
    "Task queue27: single chat turns a user types (and, where 'reply' is given, the "
    "assistant's reply the proxy mines beside it), written for this task, each labelled "
    "with the facts a careful reader keeps ('expect': lists of lower-case words one fact "
    "must hold), the relations they record ('relations': subject, |-separated types, "
    "target; 'user' for the user) and those they would accept without asking ('allowed'). "
    "Every other relation is junk. Small talk, requests, questions, jokes, hypotheticals "
    "and the assistant's replies keep nothing. Folds by kind: tune = even rows of a kind, "
    "check = odd."
)
KEYS = ("id", "fold", "kind", "text", "expect", "relations", "allowed")
out = {
    "about": ABOUT,
    "turns": [
        {k: r[k] for k in KEYS} | ({"reply": r["reply"]} if "reply" in r else {}) for r in rows
    ],
}
path = Path(__file__).resolve().parent.parent / "src/engram/data/queue27_turns.json"
path.write_text(json.dumps(out, indent=1, ensure_ascii=False))
print(len(rows), sum(r["fold"] == "tune" for r in rows))
