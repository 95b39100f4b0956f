# ruff: noqa: E501
"""Write round sixteen's case set (change38): ``scripts/change38_cases.json``.

Written before any rule of the round changed. Two folds by domain and wording, not a
random split: ``tune`` (services and tools at work, an office, a family's homes and
doctors, clubs, a commute, a phone and broadband) and ``held`` (a farm shop, a choir,
a lab, a charity, a warehouse, a podcast, a band, a physio, a parcel business, a vet, a
tennis club; read once on the base and once at the end). Most changes word the old
value's relation differently from the new one ("is located at" then "operates out
of", "uses" then "runs on", "is" then "is under"). Each fold has 8 look-alikes that
must close nothing: an addition, a second value that coexists, another subject's
change, someone else's, a past event, a one-off, a plan or hypothetical, a question.
Paths as round fifteen's (``scripts/changes36_write_cases.py``): ``add`` (each
statement a ``mem.add`` a month apart) or ``mine`` (each statement its own mined chat
with small talk around it).

    python scripts/change38_write_cases.py     # rewrites the JSON; prints near-repeats
    PYTHONPATH=src python scripts/change38_check.py tune [OUT.json]

A near-repeat is a statement within 0.8 (difflib) of a statement of a shipped set or
of round fifteen's cases.
"""

from __future__ import annotations

import difflib
import json
import runpy
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "change38_cases.json"
ROUND15 = runpy.run_path(str(HERE / "changes36_write_cases.py"))

# fmt: off
# (id, path, statements, question, new, old)
TUNE: list[tuple[str, str, list[str], str, str, str]] = [
    ("t01", "add", ["The orders service uses MySQL 5.7.", "Orders runs on MySQL 8.0 since the migration."],
     "Which MySQL does the orders service use?", "MySQL 8.0", "MySQL 5.7"),
    ("t02", "add", ["Our support office is located on Harbour Street.",
                    "The support office moved to 14 Mill Lane."],
     "Where is the support office?", "14 Mill Lane", "Harbour Street"),
    ("t03", "add", ["My sister lives in Bristol.", "My sister relocated to Cardiff in May."],
     "Where does my sister live?", "Cardiff", "Bristol"),
    ("t04", "add", ["The design team uses Figma for mockups.",
                    "The design team switched to Penpot for mockups."],
     "What does the design team use for mockups?", "Penpot", "Figma"),
    ("t05", "add", ["Our backups are stored on Backblaze.", "We migrated the backups to Wasabi last week."],
     "Where are our backups stored?", "Wasabi", "Backblaze"),
    ("t06", "add", ["My GP is Dr Hughes.", "I registered with Dr Mensah at the new surgery, Dr Hughes left."],
     "Who is my GP?", "Dr Mensah", "Dr Hughes"),
    ("t07", "add", ["The climbing club trains at The Arch.", "The climbing club is now based at Depot Climbing."],
     "Where does the climbing club train?", "Depot Climbing", "The Arch"),
    ("t08", "add", ["Our CI runs on CircleCI.", "We moved CI over to Buildkite."],
     "What do we run CI on?", "Buildkite", "CircleCI"),
    ("t09", "add", ["Mum's care home is Rosewood House.", "Mum moved into Elm Court care home last month."],
     "Which care home is Mum in?", "Elm Court", "Rosewood House"),
    ("t10", "add", ["The kids' swimming lessons are at Eastgate pool.",
                    "Swimming lessons are held at the Riverside leisure centre now."],
     "Where are the swimming lessons?", "Riverside leisure centre", "Eastgate pool"),
    ("t11", "add", ["Our payroll is handled by Sage.", "Payroll now goes through Xero."],
     "What handles our payroll?", "Xero", "Sage"),
    ("t12", "add", ["The team chats on Slack.", "We've switched the team over to Microsoft Teams."],
     "What chat tool does the team use?", "Microsoft Teams", "Slack"),
    ("t13", "add", ["Hassan manages the London branch.", "Since April the London branch is run by Olga."],
     "Who runs the London branch?", "Olga", "Hassan"),
    ("t14", "add", ["Our marketing site is hosted on Netlify.", "The marketing site is deployed to Vercel now."],
     "Where is the marketing site hosted?", "Vercel", "Netlify"),
    ("t15", "mine", ["my gym is PureGym on King Street", "I joined the Anytime Fitness by the station instead"],
     "Which gym do I go to?", "Anytime Fitness", "PureGym"),
    ("t16", "mine", ["my running club meets at Victoria Park", "the running club switched to the canal path now"],
     "Where does my running club meet?", "canal path", "Victoria Park"),
    ("t17", "mine", ["we host the blog on WordPress", "the blog runs on Ghost now, we left WordPress"],
     "What is the blog hosted on?", "Ghost", "WordPress"),
    ("t18", "mine", ["I catch the 7:15 bus to work", "these days I take the 7:45 instead"],
     "Which bus do I take to work?", "7:45", "7:15"),
    ("t19", "mine", ["The boys' football training is on Thursdays", "from now on football training is on Mondays"],
     "When is football training?", "Mondays", "Thursdays"),
    ("t20", "mine", ["my mobile is with EE", "I moved my mobile contract to Tesco Mobile"],
     "Which network is my mobile on?", "Tesco Mobile", "EE"),
    ("t21", "mine", ["my landlord is Mr Cole", "the flat got sold, our landlord is Mrs Barker now"],
     "Who is my landlord?", "Mrs Barker", "Mr Cole"),
    ("t22", "mine", ["Grandad lives in Harrogate", "Grandad moved in with my uncle in Whitby"],
     "Where does Grandad live?", "Whitby", "Harrogate"),
    ("t23", "mine", ["our broadband provider is BT", "we switched the broadband to Plusnet"],
     "Who is our broadband with?", "Plusnet", "BT"),
    ("t24", "mine", ["the monthly team lunch is at Nando's", "team lunch moved to Thai Orchid on Mill Road"],
     "Where is the team lunch?", "Thai Orchid", "Nando's"),
]
TUNE_KEEP: list[tuple[str, str, list[str]]] = [
    ("tk01", "add", ["Our invoices are stored in Dropbox.", "We also keep a copy of the invoices in Google Drive."]),
    ("tk02", "add", ["The orders service uses MySQL 8.0.", "The analytics service runs on ClickHouse."]),
    ("tk03", "add", ["My sister lives in Bristol.", "My cousin moved to Cardiff last year."]),
    ("tk04", "add", ["Our CI runs on CircleCI.", "If CircleCI gets any pricier we might move to Buildkite."]),
    ("tk05", "mine", ["my gym is PureGym on King Street", "back in uni I went to the sports centre gym"]),
    ("tk06", "mine", ["we host the blog on WordPress", "my friend moved her blog to Ghost"]),
    ("tk07", "mine", ["the monthly team lunch is at Nando's", "this month only the team lunch is at Thai Orchid"]),
    ("tk08", "add", ["I speak Spanish.", "I'm learning Portuguese too."]),
]
HELD: list[tuple[str, str, list[str], str, str, str]] = [
    ("h01", "add", ["The farm shop takes payments through Square.",
                    "Card payments at the farm shop go through Dojo now."],
     "What does the farm shop take payments with?", "Dojo", "Square"),
    ("h02", "add", ["Our choir rehearses in St Mary's hall.",
                    "Choir practice is held at the Quaker meeting house these days."],
     "Where does the choir rehearse?", "Quaker meeting house", "St Mary's hall"),
    ("h03", "add", ["Dad's cardiologist is Dr Farouk.", "Dad is under Dr Lindqvist for his heart now."],
     "Who is Dad's cardiologist?", "Dr Lindqvist", "Dr Farouk"),
    ("h04", "add", ["The allotment society banks with Lloyds.",
                    "The allotment society moved its account to Nationwide."],
     "Which bank does the allotment society use?", "Nationwide", "Lloyds"),
    ("h05", "add", ["The lab's sequencing is done by Novogene.", "We send our sequencing to Genewiz these days."],
     "Who does the lab's sequencing?", "Genewiz", "Novogene"),
    ("h06", "add", ["The charity's donation pages live on Squarespace.",
                    "The charity's site has been on Wix since the spring."],
     "Where is the charity's website hosted?", "Wix", "Squarespace"),
    ("h07", "add", ["The warehouse is located at Unit 4, Riverside Park.",
                    "The warehouse operates out of Unit 9 on Canal Road now."],
     "Where is the warehouse?", "Unit 9", "Unit 4"),
    ("h08", "add", ["I edit the podcast in Audacity.", "Podcast editing happens in Reaper nowadays."],
     "What do I edit the podcast in?", "Reaper", "Audacity"),
    ("h09", "add", ["Lena's piano teacher is Mr Osei.", "Lena has lessons with Ms Romero now, Mr Osei moved away."],
     "Who teaches Lena piano?", "Ms Romero", "Mr Osei"),
    ("h10", "add", ["Our bookkeeping firm is Hart & Co.", "The firm's books are now done by Ledgerline."],
     "Who does our accounts?", "Ledgerline", "Hart & Co"),
    ("h11", "add", ["The night bus to the estate is the N29.", "The estate is served by the N41 now that the N29 was cut."],
     "Which night bus goes to the estate?", "N41", "N29"),
    ("h12", "add", ["The food bank runs out of the Methodist church.",
                    "The food bank relocated to the old library on Cross Street."],
     "Where is the food bank?", "old library", "Methodist church"),
    ("h13", "mine", ["I get my coffee beans from Origin", "these days my beans come from Square Mile"],
     "Where do I get coffee beans?", "Square Mile", "Origin"),
    ("h14", "mine", ["the band practises at Pirate Studios", "we practise in Jamie's garage these days"],
     "Where does the band rehearse?", "Jamie's garage", "Pirate Studios"),
    ("h15", "mine", ["my physiotherapist is Karen from Active Health", "I see Tomasz at the sports clinic for physio now"],
     "Who is my physio?", "Tomasz", "Karen"),
    ("h16", "mine", ["our cat eats Royal Canin", "we put the cat on Purina Pro Plan now"],
     "What food does the cat eat?", "Purina Pro Plan", "Royal Canin"),
    ("h17", "mine", ["we ship orders with Royal Mail", "all our parcels go out with Evri now"],
     "Who ships our orders?", "Evri", "Royal Mail"),
    ("h18", "mine", ["the school run starts at 8:20", "school run starts at 8:05 now, new term"],
     "When does the school run start?", "8:05", "8:20"),
    ("h19", "mine", ["Nana lives in Galway", "Nana's moved into sheltered housing in Limerick"],
     "Where does Nana live?", "Limerick", "Galway"),
    ("h20", "mine", ["the tennis club plays at Heaton Park", "the tennis club is based at Jesmond Dene now"],
     "Where does the tennis club play?", "Jesmond Dene", "Heaton Park"),
    ("h21", "mine", ["I use a ThinkPad T14 for work", "work gave me a Dell XPS, the ThinkPad is gone"],
     "What is my work laptop?", "Dell XPS", "ThinkPad T14"),
    ("h22", "mine", ["the shop's electricity is with Octopus", "we moved the shop's energy over to Ecotricity"],
     "Who supplies the shop's electricity?", "Ecotricity", "Octopus"),
    ("h23", "mine", ["our vet is Meadow Vets", "the dog is registered at Fernside Veterinary now"],
     "Which vet are we with?", "Fernside Veterinary", "Meadow Vets"),
    ("h24", "mine", ["I work from the Leeds office", "I'm based in the Manchester office since the restructure"],
     "Which office do I work from?", "Manchester office", "Leeds office"),
]
HELD_KEEP: list[tuple[str, str, list[str]]] = [
    ("hk01", "add", ["The farm shop takes payments through Square.", "The café next door switched to Dojo."]),
    ("hk02", "add", ["Our choir rehearses in St Mary's hall.", "The concert in June will be at the cathedral."]),
    ("hk03", "add", ["Dad's cardiologist is Dr Farouk.", "Mum's cardiologist is Dr Lindqvist."]),
    ("hk04", "add", ["The warehouse is located at Unit 4, Riverside Park.",
                     "We're thinking about moving the warehouse to Canal Road next year."]),
    ("hk05", "mine", ["the band practises at Pirate Studios", "we played a gig at the Leadmill on Saturday"]),
    ("hk06", "mine", ["we ship orders with Royal Mail", "we also use DPD for the big parcels"]),
    ("hk07", "mine", ["my physiotherapist is Karen from Active Health", "my husband sees Tomasz for his back"]),
    ("hk08", "mine", ["I get my coffee beans from Origin", "would Square Mile beans be any good?"]),
]
# fmt: on


def main() -> None:
    case = ROUND15["_case"]
    cases = [case("tune", n, r, "change") for n, r in enumerate(TUNE)]
    cases += [case("tune", n, r, "keep") for n, r in enumerate(TUNE_KEEP)]
    cases += [case("held", n, r, "change") for n, r in enumerate(HELD)]
    cases += [case("held", n, r, "keep") for n, r in enumerate(HELD_KEEP)]
    about = __doc__.split("\n\n")[0] if __doc__ else ""
    OUT.write_text(json.dumps({"about": about, "cases": cases}, indent=1) + "\n")
    seen = []
    for path in sorted((HERE.parent / "src/engram/data").glob("changes*.json")):
        for story in json.loads(path.read_text()).get("stories", []):
            seen += [s.lower() for s in story.get("statements", [])]
    for earlier in json.loads((HERE / "changes36_cases.json").read_text())["cases"]:
        seen += [s.lower() for s in earlier["statements"]]
    near = 0
    for row in cases:
        for text in row["statements"]:  # type: ignore[attr-defined]
            hit = difflib.get_close_matches(text.lower(), seen, n=1, cutoff=0.8)
            if hit:
                near += 1
                print(f"near: {row['id']}: {text!r} ~ {hit[0]!r}")
    print(f"{len(cases)} cases written to {OUT.name}; {near} near-repeats")


if __name__ == "__main__":
    main()
