"""Round eighteen's case set (batch40): a change told inside one write batch.

Each story is a first statement, a turn or two of small talk, and its change a few
weeks on, optionally with a look-alike that must close nothing (a second value said
beside the first, someone else's thing). ``scripts/batch40_measure.py`` tells every
story three ways: one ``mem.add`` per turn (the reference), all turns in one
``add_many``, and as one mined chat (user turns with assistant replies between).

Two folds, written before any rule changed: **tune** (home, pets, work tools, food)
and **held** (travel, health, money, hobbies, kids; other verbs and wordings), the
held one read once at the end.

    PYTHONPATH=src python scripts/batch40_cases.py   # prints the counts
"""

from __future__ import annotations

#: (id, [user turns, the first value first, the change last], old, new)
Story = tuple[str, list[str], str, str]

TUNE: list[Story] = [
    (
        "t01",
        ["The cat eats Purina.", "She's been sleeping a lot.", "The cat eats Royal Canin now."],
        "Purina",
        "Royal Canin",
    ),
    (
        "t02",
        [
            "We order groceries from Tesco.",
            "Busy week at work.",
            "We order groceries from Ocado now.",
        ],
        "Tesco",
        "Ocado",
    ),
    (
        "t03",
        ["I swim in the evenings.", "The pool got new lockers.", "I swim in the mornings now."],
        "evenings",
        "mornings",
    ),
    (
        "t04",
        ["My editor is Vim.", "I refactored the parser today.", "My editor is Helix these days."],
        "Vim",
        "Helix",
    ),
    (
        "t05",
        ["We deploy to Heroku.", "The release went fine.", "We deploy to Fly.io now."],
        "Heroku",
        "Fly.io",
    ),
    (
        "t06",
        [
            "The dog goes to Happy Paws daycare.",
            "He loves the park.",
            "The dog goes to Barking Mad daycare now.",
        ],
        "Happy Paws",
        "Barking Mad",
    ),
    (
        "t07",
        [
            "Our bins are collected on Tuesdays.",
            "The recycling was late.",
            "Our bins are collected on Thursdays now.",
        ],
        "Tuesdays",
        "Thursdays",
    ),
    (
        "t08",
        ["I drink oat milk.", "Coffee was great this morning.", "I drink soy milk now."],
        "oat milk",
        "soy milk",
    ),
    (
        "t09",
        [
            "The boiler is serviced by British Gas.",
            "It was cold last night.",
            "The boiler is serviced by Octopus now.",
        ],
        "British Gas",
        "Octopus",
    ),
    (
        "t10",
        ["I keep my notes in Notion.", "Wrote up the meeting.", "I keep my notes in Obsidian now."],
        "Notion",
        "Obsidian",
    ),
    (
        "t11",
        ["Our CI runs on Jenkins.", "The build was green.", "Our CI runs on GitHub Actions now."],
        "Jenkins",
        "GitHub Actions",
    ),
    (
        "t12",
        [
            "The rabbit eats Burgess pellets.",
            "We cleaned the hutch.",
            "The rabbit eats Science Selective pellets now.",
        ],
        "Burgess",
        "Science Selective",
    ),
    (
        "t13",
        [
            "I work from the Shoreditch office.",
            "Lunch was nice.",
            "I work from the Kings Cross office now.",
        ],
        "Shoreditch",
        "Kings Cross",
    ),
    (
        "t14",
        [
            "We buy our coffee beans from Origin.",
            "The grinder is noisy.",
            "We buy our coffee beans from Square Mile now.",
        ],
        "Origin",
        "Square Mile",
    ),
    (
        "t15",
        ["My laptop runs Ubuntu.", "Battery life is fine.", "My laptop runs Fedora now."],
        "Ubuntu",
        "Fedora",
    ),
    (
        "t16",
        ["I get my hair cut at Toni's.", "It's getting long.", "I get my hair cut at Ruby's now."],
        "Toni's",
        "Ruby's",
    ),
    (
        "t17",
        [
            "The plants get watered on Sundays.",
            "The basil is thriving.",
            "The plants get watered on Wednesdays now.",
        ],
        "Sundays",
        "Wednesdays",
    ),
    (
        "t18",
        [
            "Our team standup is at 9:30.",
            "Sprint planning went long.",
            "Our team standup is at 10:15 now.",
        ],
        "9:30",
        "10:15",
    ),
]

HELD: list[Story] = [
    (
        "h01",
        [
            "I fly with easyJet to Lisbon.",
            "The flat there is lovely.",
            "I fly with Ryanair to Lisbon these days.",
        ],
        "easyJet",
        "Ryanair",
    ),
    (
        "h02",
        ["My dentist is Dr Patel.", "My tooth has been fine.", "My dentist is Dr Okafor now."],
        "Dr Patel",
        "Dr Okafor",
    ),
    (
        "h03",
        [
            "I take sertraline in the morning.",
            "Sleeping better lately.",
            "I take sertraline at night now.",
        ],
        "morning",
        "night",
    ),
    (
        "h04",
        ["We bank with Barclays.", "Paid the council tax.", "We bank with Monzo now."],
        "Barclays",
        "Monzo",
    ),
    (
        "h05",
        ["I climb at The Arch.", "My forearms are sore.", "I climb at Yonder now."],
        "The Arch",
        "Yonder",
    ),
    (
        "h06",
        [
            "Maya's school starts at 8:45.",
            "She made a volcano.",
            "Maya's school starts at 8:30 now.",
        ],
        "8:45",
        "8:30",
    ),
    (
        "h07",
        [
            "I run with the Hackney Harriers.",
            "Did a 10k on Saturday.",
            "I run with the Victoria Park Runners now.",
        ],
        "Hackney Harriers",
        "Victoria Park Runners",
    ),
    (
        "h08",
        [
            "Our broadband is from BT.",
            "The router keeps dropping.",
            "Our broadband is from Hyperoptic now.",
        ],
        "BT",
        "Hyperoptic",
    ),
    (
        "h09",
        [
            "I practise piano on weekdays.",
            "Learning a Chopin nocturne.",
            "I practise piano on weekends now.",
        ],
        "weekdays",
        "weekends",
    ),
    (
        "h10",
        [
            "The car is insured with Aviva.",
            "Had it washed today.",
            "The car is insured with Admiral now.",
        ],
        "Aviva",
        "Admiral",
    ),
    (
        "h11",
        ["I read on a Kindle.", "Finished a thriller.", "I read on a Kobo now."],
        "Kindle",
        "Kobo",
    ),
    (
        "h12",
        ["We save into a Vanguard ISA.", "Markets were up.", "We save into a Fidelity ISA now."],
        "Vanguard",
        "Fidelity",
    ),
    (
        "h13",
        [
            "Leo's swimming lessons are on Mondays.",
            "He got his 25m badge.",
            "Leo's swimming lessons are on Fridays now.",
        ],
        "Mondays",
        "Fridays",
    ),
    (
        "h14",
        [
            "I cycle to work on a Brompton.",
            "It rained all week.",
            "I cycle to work on a Cannondale now.",
        ],
        "Brompton",
        "Cannondale",
    ),
    (
        "h15",
        [
            "My physio is at Balance Clinic.",
            "The knee is improving.",
            "My physio is at Pure Sports Medicine now.",
        ],
        "Balance Clinic",
        "Pure Sports Medicine",
    ),
    (
        "h16",
        [
            "We stream music on Spotify.",
            "Made a road trip playlist.",
            "We stream music on Tidal now.",
        ],
        "Spotify",
        "Tidal",
    ),
    (
        "h17",
        [
            "The choir rehearses at St Mary's.",
            "We are learning Faure.",
            "The choir rehearses at the Quaker hall now.",
        ],
        "St Mary's",
        "Quaker hall",
    ),
    (
        "h18",
        ["I pay rent to Foxtons.", "The landlord fixed the tap.", "I pay rent to Savills now."],
        "Foxtons",
        "Savills",
    ),
]

#: A look-alike told after the change in some stories: it must close nothing.
LOOK_ALIKES: dict[str, str] = {
    "t02": "My sister orders her groceries from Waitrose.",
    "t05": "We also deploy the docs to Netlify.",
    "t10": "My colleague keeps her notes in Bear.",
    "t15": "My desktop runs Arch.",
    "h04": "My brother banks with Starling.",
    "h08": "We might switch the broadband to Virgin next year.",
    "h11": "My partner reads on an iPad.",
    "h16": "We also stream films on Netflix.",
}

#: The assistant's replies between the user's turns of a mined chat.
REPLIES = ("Got it.", "Sounds good!", "Thanks for letting me know.", "Nice.")


def folds() -> dict[str, list[Story]]:
    return {"tune": TUNE, "held": HELD}


if __name__ == "__main__":
    for name, stories in folds().items():
        looks = sum(1 for s in stories if s[0] in LOOK_ALIKES)
        print(f"{name}: {len(stories)} stories, {looks} look-alikes")
