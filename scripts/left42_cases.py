"""Leftovers of session thirty-six (left42): a change said of someone else's thing.

Each story is the user's own fact, a line of small talk, then a second statement a
month on. ``kind`` says what the second must do:

- ``other``: a change of a third party's thing ("my neighbour's boiler", "Tom's",
  "her sister's", "the landlord's"): the user's fact stays current (closing it is the
  bug batch40 found);
- ``own``: the user's own thing changed: the user's fact closes, as on the base.

Edge cases decided here (and in docs/benchmarks.md, left42's section): a thing the
user shares with the third party ("my wife's and my car", "our car, mine and
Tom's") is the user's own; "like my neighbour's" compares, the thing is the user's;
a third party's thing named with his/her ("my brother changed his broadband") is
theirs.

Two folds, written before any rule changed: **tune** (home, car, pets, services) and
**held** (money, health, work, hobbies, kids' things; other wordings), the held one
read once on the base and once at the end.

    PYTHONPATH=src python scripts/left42_cases.py   # prints the counts
"""

# ruff: noqa: E501 (one story a line reads best)
from __future__ import annotations

#: (id, kind, [user turns: the user's fact first, the second statement last], old, new)
Story = tuple[str, str, list[str], str, str]

SMALL_TALK = "It rained all day."

TUNE: list[Story] = [
    (
        "t01",
        "other",
        [
            "My boiler is serviced by British Gas.",
            "My neighbour's boiler is serviced by Octopus now.",
        ],
        "British Gas",
        "Octopus",
    ),
    (
        "t02",
        "other",
        ["My car is serviced by Kwik Fit.", "Tom's car is serviced by Halfords now."],
        "Kwik Fit",
        "Halfords",
    ),
    (
        "t03",
        "other",
        ["Our broadband provider is BT.", "My sister's broadband provider is Virgin Media now."],
        "BT",
        "Virgin Media",
    ),
    (
        "t04",
        "other",
        ["My vet is Vets4Pets.", "My neighbour's vet is Medivet now."],
        "Vets4Pets",
        "Medivet",
    ),
    (
        "t05",
        "other",
        ["The boiler is serviced by Baxi.", "The landlord's boiler is serviced by Worcester now."],
        "Baxi",
        "Worcester",
    ),
    ("t06", "other", ["My gardener is Bob.", "Her sister's gardener is Tim now."], "Bob", "Tim"),
    (
        "t07",
        "other",
        ["My energy supplier is EDF.", "My mum's energy supplier is Octopus now."],
        "EDF",
        "Octopus",
    ),
    ("t08", "other", ["My cleaner is Maria.", "Sam's cleaner is Ana now."], "Maria", "Ana"),
    (
        "t09",
        "other",
        ["My car insurer is Aviva.", "My wife's car insurer is Admiral now."],
        "Aviva",
        "Admiral",
    ),
    (
        "t10",
        "other",
        ["My broadband provider is BT.", "Our neighbours' broadband provider is Sky now."],
        "BT",
        "Sky",
    ),
    (
        "t11",
        "other",
        ["My window cleaner is Dave.", "My brother's window cleaner is Steve now."],
        "Dave",
        "Steve",
    ),
    ("t12", "other", ["My hairdresser is Lucy.", "Priya's hairdresser is Jo now."], "Lucy", "Jo"),
    (
        "t13",
        "other",
        ["My landlord is Mr Jones.", "My flatmate's landlord is Mr Price now."],
        "Mr Jones",
        "Mr Price",
    ),
    (
        "t14",
        "other",
        ["My gym is PureGym.", "My boyfriend switched his gym to The Gym Group."],
        "PureGym",
        "The Gym Group",
    ),
    (
        "t15",
        "own",
        ["My boiler is serviced by British Gas.", "My boiler is serviced by Octopus now."],
        "British Gas",
        "Octopus",
    ),
    (
        "t16",
        "own",
        ["My car insurer is Aviva.", "My car insurer is Admiral now."],
        "Aviva",
        "Admiral",
    ),
    ("t17", "own", ["My vet is Vets4Pets.", "My vet is Medivet now."], "Vets4Pets", "Medivet"),
    (
        "t18",
        "own",
        ["My car is serviced by Kwik Fit.", "My wife's and my car is serviced by Halfords now."],
        "Kwik Fit",
        "Halfords",
    ),
    (
        "t19",
        "own",
        ["My cleaner is Maria.", "Like my flatmate's, my cleaner is Ana now."],
        "Maria",
        "Ana",
    ),
    (
        "t20",
        "own",
        ["The boiler is serviced by Baxi.", "The boiler is serviced by Worcester now."],
        "Baxi",
        "Worcester",
    ),
    (
        "t21",
        "own",
        ["Our broadband is from BT.", "Our broadband is from Virgin Media now."],
        "BT",
        "Virgin Media",
    ),
    (
        "t22",
        "own",
        ["My energy supplier is EDF.", "My energy supplier is Octopus now."],
        "EDF",
        "Octopus",
    ),
]

HELD: list[Story] = [
    ("h01", "other", ["My bank is Barclays.", "My dad's bank is Monzo now."], "Barclays", "Monzo"),
    (
        "h02",
        "other",
        ["My dentist is Dr Patel.", "My husband's dentist is Dr Okafor now."],
        "Dr Patel",
        "Dr Okafor",
    ),
    (
        "h03",
        "other",
        ["My mortgage lender is Nationwide.", "Our landlord's mortgage lender is Halifax now."],
        "Nationwide",
        "Halifax",
    ),
    ("h04", "other", ["My editor is Vim.", "Anna's editor is Helix these days."], "Vim", "Helix"),
    (
        "h05",
        "other",
        ["My bank is Lloyds.", "My partner's bank is Starling now."],
        "Lloyds",
        "Starling",
    ),
    (
        "h06",
        "other",
        ["My piano teacher is Mrs Hill.", "My son's piano teacher is Mr Grant now."],
        "Mrs Hill",
        "Mr Grant",
    ),
    (
        "h07",
        "other",
        ["My pension provider is Aviva.", "Her husband's pension provider is Legal & General now."],
        "Aviva",
        "Legal & General",
    ),
    (
        "h08",
        "other",
        ["My GP is Dr Evans.", "My mother's GP is Dr Shah now."],
        "Dr Evans",
        "Dr Shah",
    ),
    ("h09", "other", ["My team uses Jira.", "Marco's team uses Linear now."], "Jira", "Linear"),
    (
        "h10",
        "other",
        ["My bike mechanic is Evans Cycles.", "My cousin's bike mechanic is Halfords now."],
        "Evans Cycles",
        "Halfords",
    ),
    (
        "h11",
        "other",
        ["My mobile provider is EE.", "The babysitter's mobile provider is Giffgaff now."],
        "EE",
        "Giffgaff",
    ),
    (
        "h12",
        "other",
        ["My physio is Jenny.", "His wife's physio is Claire now."],
        "Jenny",
        "Claire",
    ),
    (
        "h13",
        "other",
        ["My therapist is Dr Moss.", "My colleague's therapist is Dr Lane now."],
        "Dr Moss",
        "Dr Lane",
    ),
    (
        "h14",
        "other",
        ["My lawyer is Ms Reid.", "My friend changed her lawyer to Mr Khan."],
        "Ms Reid",
        "Mr Khan",
    ),
    ("h15", "own", ["My bank is Barclays.", "My bank is Monzo now."], "Barclays", "Monzo"),
    (
        "h16",
        "own",
        ["My dentist is Dr Patel.", "My dentist is Dr Okafor now."],
        "Dr Patel",
        "Dr Okafor",
    ),
    ("h17", "own", ["My editor is Vim.", "My editor is Helix these days."], "Vim", "Helix"),
    (
        "h18",
        "own",
        ["My GP is Dr Evans.", "My husband's and my GP is Dr Shah now."],
        "Dr Evans",
        "Dr Shah",
    ),
    (
        "h19",
        "own",
        ["My team uses Jira.", "Like Marco's team, my team uses Linear now."],
        "Jira",
        "Linear",
    ),
    (
        "h20",
        "own",
        ["My yoga class is on Mondays.", "My yoga class is on Wednesdays now."],
        "Mondays",
        "Wednesdays",
    ),
    (
        "h21",
        "own",
        ["My piano teacher is Mrs Hill.", "My piano teacher is Mr Grant now."],
        "Mrs Hill",
        "Mr Grant",
    ),
    (
        "h22",
        "own",
        ["My pension provider is Aviva.", "My pension provider is Legal & General now."],
        "Aviva",
        "Legal & General",
    ),
]


def folds() -> dict[str, list[Story]]:
    return {"tune": TUNE, "held": HELD}


if __name__ == "__main__":
    for name, stories in folds().items():
        kinds = [s[1] for s in stories]
        print(
            f"{name}: {len(stories)} stories, {kinds.count('other')} other, {kinds.count('own')} own"
        )
