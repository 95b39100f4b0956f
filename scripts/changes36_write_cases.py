# ruff: noqa: E501
"""Write round fifteen's case set (changes36): ``scripts/changes36_cases.json``.

Two folds, written before any rule of the round changed: ``tune`` (the lead's 24 fresh
changes of session thirty-two rewritten as data, with 8 look-alikes) and ``held`` (32
changes and 12 look-alikes in domains and wordings the tune fold and the shipped sets
``src/engram/data/changes*.json`` do not use; read twice: on the base at the start and
on the branch at the end). Each case is told on one path: ``add`` (each statement a
``mem.add`` a month apart, then the job queue) or ``mine`` (each chat a
``mem.palace.mine_conversation(..., graph=True)`` a month apart, small talk and
assistant turns around the fact, then the job queue).

    python scripts/changes36_write_cases.py   # rewrites the JSON; prints near-repeats

A near-repeat is a statement within 0.8 (difflib) of a statement of a shipped set.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "changes36_cases.json"

# fmt: off
OPENERS = [
    ("morning! hope your weekend was good", "Morning! It was quiet, thanks. What's up?"),
    ("hey, quick one before I forget", "Sure, go ahead."),
    ("ugh what a week. anyway", "Sounds like a lot. What can I help with?"),
    ("hi again", "Hi! How can I help today?"),
]
CLOSERS = [
    ("Got it, I've noted that.", "thanks!"),
    ("Noted. Anything else?", "nope that's all, cheers"),
    ("Thanks for letting me know.", "np"),
]

# (id, path, statements, question, new, old)
TUNE: list[tuple[str, str, list[str], str, str, str]] = [
    ("t01", "add", ["The billing service runs on Postgres 14.",
                    "Billing now uses Postgres 16 after the upgrade last night."],
     "Which Postgres version does billing use?", "Postgres 16", "Postgres 14"),
    ("t02", "add", ["We bank with Barclays.", "We switched our account to Monzo last month."],
     "Which bank are we with?", "Monzo", "Barclays"),
    ("t03", "add", ["The book club meets at the library.",
                    "The book club relocated to the Crown pub."],
     "Where does the book club meet?", "Crown pub", "library"),
    ("t04", "add", ["The newsletter ships on Tuesdays.",
                    "From now on the newsletter ships on Wednesdays."],
     "Which day does the newsletter ship?", "Wednesdays", "Tuesdays"),
    ("t05", "add", ["I take the 7:40 train to work.", "These days I catch the 8:10 instead."],
     "Which train do I get to work?", "8:10", "7:40"),
    ("t06", "add", ["Grandma lives in Leeds.", "Grandma moved in with Aunt Rosa in York."],
     "Where does Grandma live?", "York", "Leeds"),
    ("t07", "add", ["Our office is on Baker Street.", "The office moved to Camden Road in March."],
     "Where is our office?", "Camden Road", "Baker Street"),
    ("t08", "add", ["My dentist is Dr Patel.",
                    "I'm seeing Dr Okafor for my teeth now, Dr Patel retired."],
     "Who looks after my teeth?", "Dr Okafor", "Dr Patel"),
    ("t09", "add", ["The team uses Jira for tickets.", "We've moved our tickets over to Linear."],
     "Where does the team track tickets?", "Linear", "Jira"),
    ("t10", "add", ["My phone plan is with Vodafone.", "I ported my number to Three last week."],
     "Which network is my phone on?", "Three", "Vodafone"),
    ("t11", "add", ["Sam coaches the under-12s.",
                    "Priya coaches the under-12s now that Sam stepped down."],
     "Who coaches the under-12s?", "Priya", "Sam"),
    ("t12", "add", ["Rent is 1200 a month.", "The landlord raised the rent to 1350."],
     "How much is the rent?", "1350", "1200"),
    ("t13", "add", ["The API gateway runs Kong.", "We replaced Kong with Envoy on the gateway."],
     "What runs on the API gateway?", "Envoy", "Kong"),
    ("t14", "add", ["My daughter goes to Hillside Primary.",
                    "My daughter started at Oakfield Academy this term."],
     "Which school is my daughter at?", "Oakfield Academy", "Hillside Primary"),
    ("t15", "add", ["We deploy with Jenkins.", "Deploys go through GitHub Actions these days."],
     "What do we deploy with?", "GitHub Actions", "Jenkins"),
    ("t16", "add", ["I drive a Honda Civic.", "Sold the Civic; I drive a Tesla Model 3 now."],
     "What car do I drive?", "Tesla Model 3", "Honda Civic"),
    ("t17", "mine", ["We've got an allotment plot at Green Lane, the rent is 45 pounds a year.",
                     "Actually they raised it, it's 52 pounds."],
     "How much is the allotment plot rent?", "52 pounds", "45 pounds"),
    ("t18", "mine", ["The shed padlock code is 4471.", "heads up, the padlock code changed to 9012"],
     "What's the code for the shed padlock?", "9012", "4471"),
    ("t19", "mine", ["I go to PureGym on Mill Road.",
                     "I cancelled PureGym, I'm at The Gym Group now, way cheaper"],
     "Which gym do I go to?", "The Gym Group", "PureGym"),
    ("t20", "mine", ["Our cat's vet is Abbey Vets.",
                     "we've moved Milo to Riverside Vets, Abbey kept cancelling on us"],
     "Which vet does the cat see?", "Riverside Vets", "Abbey Vets"),
    ("t21", "mine", ["The wifi password is tulip88.", "I changed the wifi password to heron42"],
     "What is the wifi password?", "heron42", "tulip88"),
    ("t22", "mine", ["My manager is Karen.", "Karen left, so I report to Dev now."],
     "Who do I report to?", "Dev", "Karen"),
    ("t23", "mine", ["Swim lessons are on Saturday mornings.",
                     "swim lessons moved to Sunday afternoons"],
     "When are swim lessons?", "Sunday", "Saturday"),
    ("t24", "mine", ["I write everything in Vim.", "I've switched to VS Code for most things now."],
     "Which editor do I write in?", "VS Code", "Vim"),
]
TUNE_KEEP: list[tuple[str, str, list[str]]] = [
    ("tk1", "add", ["The billing service runs on Postgres 14.", "We also use Redis for caching."]),
    ("tk2", "add", ["Grandma lives in Leeds.", "My sister lives in York."]),
    ("tk3", "add", ["I take the 7:40 train to work.", "Back in 2019 I took the bus for a while."]),
    ("tk4", "add", ["We bank with Barclays.", "My brother switched his account to Monzo."]),
    ("tk5", "mine", ["The book club meets at the library.", "The choir meets at the Crown pub."]),
    ("tk6", "mine", ["My manager is Karen.", "Karen's manager is Dev."]),
    ("tk7", "mine", ["Rent is 1200 a month.",
                     "should we move somewhere cheaper? maybe 1000 a month?"]),
    ("tk8", "mine", ["I drive a Honda Civic.",
                     "I test drove a Tesla Model 3 yesterday, tempting but no."]),
]
HELD: list[tuple[str, str, list[str], str, str, str]] = [
    ("h01", "add", ["Our hives are kept at Moor Farm.",
                    "The bees went over to Hollins Orchard in April, the farmer sold up."],
     "Where are the hives kept?", "Hollins Orchard", "Moor Farm"),
    ("h02", "add", ["The band rehearses at Spectrum Studios.",
                    "We practise at the Old Mill rooms these days."],
     "Where does the band rehearse?", "Old Mill", "Spectrum Studios"),
    ("h03", "add", ["I buy my yarn from Wool Warehouse.", "All my yarn comes from Loop London now."],
     "Where do I get yarn?", "Loop London", "Wool Warehouse"),
    ("h04", "add", ["Hartley & Co have done our accounts for years.",
                    "Hartley & Co got too pricey, Greenfield Accounts does our books now."],
     "Who does our books?", "Greenfield Accounts", "Hartley & Co"),
    ("h05", "add", ["The residents' parking permit costs 80 pounds.",
                    "The parking permit went up to 95 pounds."],
     "How much is the parking permit?", "95 pounds", "80 pounds"),
    ("h06", "add", ["Leo learns piano with Mrs Greaves.",
                    "Mrs Greaves retired, Leo has lessons with Mr Adeyemi now."],
     "Who teaches Leo piano?", "Mr Adeyemi", "Mrs Greaves"),
    ("h07", "add", ["The render farm runs Blender 3.6.",
                    "The render farm is on Blender 4.1 since Thursday's upgrade."],
     "Which Blender version does the render farm run?", "Blender 4.1", "Blender 3.6"),
    ("h08", "add", ["Our logs go to Papertrail.", "We ship logs to Grafana Loki now."],
     "Where do our logs go?", "Grafana Loki", "Papertrail"),
    ("h09", "add", ["Lights out for the kids is at 8pm.", "Lights out is 8:30pm from now on."],
     "What time is lights out for the kids?", "8:30pm", "8pm"),
    ("h10", "add", ["I do my weekly shop at Tesco.",
                    "I've started doing the weekly shop at Aldi instead."],
     "Where do I do the weekly shop?", "Aldi", "Tesco"),
    ("h11", "add", ["The charity's patron is Lady Ashworth.",
                    "Sir Tom Bell became our patron after Lady Ashworth stepped down."],
     "Who is the charity's patron?", "Sir Tom Bell", "Lady Ashworth"),
    ("h12", "add", ["Our website is hosted on Squarespace.",
                    "We moved the website off Squarespace onto Ghost."],
     "Where is the website hosted?", "Ghost", "Squarespace"),
    ("h13", "add", ["The quiz night is on Thursdays at the Red Lion.", "Quiz night is on Mondays now."],
     "Which night is the quiz?", "Mondays", "Thursdays"),
    ("h14", "add", ["Dad's blood pressure tablet is amlodipine.",
                    "The doctor switched Dad to ramipril."],
     "Which blood pressure tablet does Dad take?", "ramipril", "amlodipine"),
    ("h15", "add", ["We heat the house with an oil boiler.",
                    "The oil boiler's gone, we've got a heat pump now."],
     "How do we heat the house?", "heat pump", "oil boiler"),
    ("h16", "add", ["The football lads train at Victoria Park on Wednesdays.",
                    "Training has moved to the leisure centre pitches."],
     "Where does the football team train?", "leisure centre", "Victoria Park"),
    ("h17", "mine", ["My driving instructor is Gary.",
                     "I changed instructors, I'm with Helen now, Gary kept cancelling"],
     "Who is my driving instructor?", "Helen", "Gary"),
    ("h18", "mine", ["The orchestra's concerts are at St John's church.",
                     "the concerts are at the town hall from this season"],
     "Where are the orchestra's concerts?", "town hall", "St John's church"),
    ("h19", "mine", ["Ewa is our nanny, three days a week.",
                     "Ewa went back to Poland so we've got Chloe looking after the kids now"],
     "Who looks after the kids?", "Chloe", "Ewa"),
    ("h20", "mine", ["The hens get Smallholder Range layers pellets.",
                     "I switched the hens onto Allen & Page pellets"],
     "What feed do the hens get?", "Allen & Page", "Smallholder Range"),
    ("h21", "mine", ["The office printer is an HP LaserJet.",
                     "we got rid of the HP, the office printer is a Brother now"],
     "What is the office printer?", "Brother", "HP LaserJet"),
    ("h22", "mine", ["I pay 30 pounds a month for my phone.",
                     "the phone bill is 24 pounds now, I haggled with them"],
     "How much is my phone bill?", "24 pounds", "30 pounds"),
    ("h23", "mine", ["The alarm code for the studio is 2580.",
                     "they reset the studio alarm code, it's 7316 now"],
     "What is the studio alarm code?", "7316", "2580"),
    ("h24", "mine", ["The car is insured with Aviva.",
                     "I renewed the car insurance with Admiral, Aviva wanted way more"],
     "Who insures the car?", "Admiral", "Aviva"),
    ("h25", "mine", ["Our cleaner comes on Wednesdays.", "the cleaner comes on Fridays now"],
     "Which day does the cleaner come?", "Fridays", "Wednesdays"),
    ("h26", "mine", ["Every Saturday I help out at the Oxfam shop.",
                     "I've moved my volunteering to the food bank"],
     "Where do I volunteer?", "food bank", "Oxfam shop"),
    ("h27", "mine", ["Daily standup for the platform team is at 9:30.",
                     "standup got pushed to 10:15 because of the US folks"],
     "What time is standup?", "10:15", "9:30"),
    ("h28", "mine", ["My reading glasses are +1.5.", "new prescription, my reading glasses are +2.0 now"],
     "What strength are my reading glasses?", "+2.0", "+1.5"),
    ("h29", "mine", ["Our wedding venue is Halton Hall.",
                     "we lost Halton Hall, the wedding is at Birch Barn now"],
     "Where is the wedding?", "Birch Barn", "Halton Hall"),
    ("h30", "mine", ["The dog eats Lily's Kitchen.",
                     "we've put Bramble on Butternut Box now, the dog loves it"],
     "What food does the dog eat?", "Butternut Box", "Lily's Kitchen"),
    ("h31", "mine", ["Our Sunday league team plays in the B division.",
                     "we got promoted, we're in the A division now"],
     "Which division does the Sunday league team play in?", "A division", "B division"),
    ("h32", "mine", ["Mailchimp sends our monthly newsletter.",
                     "We moved the mailing list over to Buttondown."],
     "What sends our newsletter?", "Buttondown", "Mailchimp"),
]
HELD_KEEP: list[tuple[str, str, list[str]]] = [
    ("hk01", "add", ["Our hives are kept at Moor Farm.", "A friend keeps her hives at Hollins Orchard."]),
    ("hk02", "add", ["I buy my yarn from Wool Warehouse.",
                     "I also get some yarn from Loop London for special projects."]),
    ("hk03", "add", ["The render farm runs Blender 3.6.",
                     "Should we upgrade the render farm to Blender 4.1 next quarter?"]),
    ("hk04", "add", ["Leo learns piano with Mrs Greaves.",
                     "My daughter's violin teacher is Mr Adeyemi."]),
    ("hk05", "add", ["The quiz night is on Thursdays at the Red Lion.",
                     "This week only the quiz is on Monday because of the match."]),
    ("hk06", "add", ["We heat the house with an oil boiler.",
                     "We got a quote for a heat pump but it's too expensive."]),
    ("hk07", "mine", ["Ewa is our nanny, three days a week.", "Ewa is off next week so Chloe is covering for her."]),
    ("hk08", "mine", ["The car is insured with Aviva.",
                      "Admiral sent me a quote, cheaper, but I'm staying with Aviva."]),
    ("hk09", "mine", ["I pay 30 pounds a month for my phone.",
                      "My partner pays 24 pounds a month for hers."]),
    ("hk10", "mine", ["Daily standup for the platform team is at 9:30.", "Our sprint review is at 10:15 on Fridays."]),
    ("hk11", "mine", ["The orchestra's concerts are at St John's church.",
                      "When I was a kid our school concerts were at the town hall."]),
    ("hk12", "mine", ["My driving instructor is Gary.",
                      "My sister's instructor is Helen, she loves her."]),
]

# fmt: on


def _chats(n: int, statements: list[str]) -> list[list[list[str]]]:
    """Each statement in its own chat, with small talk and assistant turns around it."""
    chats = []
    for k, text in enumerate(statements):
        hello, reply = OPENERS[(n + k) % len(OPENERS)]
        ack, bye = CLOSERS[(n + k) % len(CLOSERS)]
        chats.append(
            [
                ["user", hello],
                ["assistant", reply],
                ["user", text],
                ["assistant", ack],
                ["user", bye],
            ]
        )
    return chats  # fmt: skip


def _case(fold: str, n: int, row: tuple, kind: str) -> dict[str, object]:
    cid, path, statements = row[0], row[1], row[2]
    case: dict[str, object] = {"id": f"{fold}-{cid}", "fold": fold, "kind": kind, "path": path}
    case["statements"] = statements
    if path == "mine":
        case["chats"] = _chats(n, statements)
    if kind == "change":
        case.update(question=row[3], new=row[4], old=row[5])
    return case


def main() -> None:
    cases = [_case("tune", n, r, "change") for n, r in enumerate(TUNE)]
    cases += [_case("tune", n, r, "keep") for n, r in enumerate(TUNE_KEEP)]
    cases += [_case("held", n, r, "change") for n, r in enumerate(HELD)]
    cases += [_case("held", n, r, "keep") for n, r in enumerate(HELD_KEEP)]
    about = __doc__.split("\n\n")[0] if __doc__ else ""
    OUT.write_text(json.dumps({"about": about, "cases": cases}, indent=1) + "\n")
    shipped = []
    for path in sorted((HERE.parent / "src/engram/data").glob("changes*.json")):
        data = json.loads(path.read_text())
        for story in data.get("stories", []):
            shipped += [s.lower() for s in story.get("statements", [])]
    near = 0
    for case in cases:
        for text in case["statements"]:  # type: ignore[attr-defined]
            hit = difflib.get_close_matches(text.lower(), shipped, n=1, cutoff=0.8)
            if hit:
                near += 1
                print(f"near: {case['id']}: {text!r} ~ {hit[0]!r}")
    print(f"{len(cases)} cases written to {OUT.name}; {near} near-repeats")


if __name__ == "__main__":
    main()
