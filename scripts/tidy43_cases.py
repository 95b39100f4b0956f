"""Leftovers of session thirty-seven (tidy43): left42's three misses of change reading.

Each story is the user's own fact, a line of small talk, then a second statement a
month on (told as ``scripts/left42_measure.py`` tells its stories). ``kind`` says what
the second must do:

- ``other``: a change of a third party's thing, said with a family's plural possessive
  ("The Smiths' boiler") or with "his"/"her"/"their" and no person named before it
  ("His boiler is serviced by Octopus now."): the user's fact stays current;
- ``own``: the user's own thing changed: the user's fact closes. Among them the joint
  possessive that includes the user ("My husband's and my GP is Dr Shah now."), and
  controls where a third party is only compared with ("..., like the Smiths'.").

Two folds, written and committed before any rule changed: **tune** (home, car, pets,
services) and **held** (money, health, work, hobbies; other names and wordings), the
held one read once, at the end, on the base and on the branch. Each fold: 8 ``other``,
5 ``own``. ``scripts/tidy43_measure.py`` tells them.
"""

# ruff: noqa: E501 (one story a line reads best)
from __future__ import annotations

#: (id, kind, [user turns: the user's fact first, the second statement last], old, new)
Story = tuple[str, str, list[str], str, str]

TUNE: list[Story] = [
    # A family's plural possessive.
    (
        "t01",
        "other",
        ["My boiler is serviced by British Gas.", "The Smiths' boiler is serviced by Octopus now."],
        "British Gas",
        "Octopus",
    ),
    (
        "t02",
        "other",
        ["My car is serviced by Kwik Fit.", "The Joneses' car is serviced by Halfords now."],
        "Kwik Fit",
        "Halfords",
    ),
    (
        "t03",
        "other",
        ["My vet is Vets4Pets.", "The Patels' vet is Medivet now."],
        "Vets4Pets",
        "Medivet",
    ),
    (
        "t04",
        "other",
        ["My cleaner is Maria.", "Next door, the Browns' cleaner is Ana now."],
        "Maria",
        "Ana",
    ),
    # his / her / their with no person named before it.
    (
        "t05",
        "other",
        ["My boiler is serviced by British Gas.", "His boiler is serviced by Octopus now."],
        "British Gas",
        "Octopus",
    ),
    ("t06", "other", ["My gardener is Bob.", "Her gardener is Tim now."], "Bob", "Tim"),
    (
        "t07",
        "other",
        ["My energy supplier is EDF.", "Their energy supplier is Octopus now."],
        "EDF",
        "Octopus",
    ),
    (
        "t08",
        "other",
        ["My window cleaner is Dave.", "His window cleaner is Steve now."],
        "Dave",
        "Steve",
    ),
    # A joint possessive that includes the user: the user's own.
    (
        "t09",
        "own",
        ["My car is serviced by Kwik Fit.", "My partner's and my car is serviced by Halfords now."],
        "Kwik Fit",
        "Halfords",
    ),
    (
        "t10",
        "own",
        ["My vet is Vets4Pets.", "My wife's and my vet is Medivet now."],
        "Vets4Pets",
        "Medivet",
    ),
    (
        "t11",
        "own",
        ["My cleaner is Maria.", "My flatmate's and my cleaner is Ana now."],
        "Maria",
        "Ana",
    ),
    # Controls: the third party only compared with; the user's thing changed.
    (
        "t12",
        "own",
        [
            "My boiler is serviced by British Gas.",
            "My boiler is serviced by Octopus now, like the Smiths'.",
        ],
        "British Gas",
        "Octopus",
    ),
    (
        "t13",
        "own",
        ["My energy supplier is EDF.", "My energy supplier is Octopus now, the same as his."],
        "EDF",
        "Octopus",
    ),
]

HELD: list[Story] = [
    (
        "h01",
        "other",
        ["My bank is Barclays.", "The Robinsons' bank is Monzo now."],
        "Barclays",
        "Monzo",
    ),
    (
        "h02",
        "other",
        ["My dentist is Dr Patel.", "The Hendersons' dentist is Dr Okafor now."],
        "Dr Patel",
        "Dr Okafor",
    ),
    (
        "h03",
        "other",
        ["My pension provider is Aviva.", "The Walkers' pension provider is Legal & General now."],
        "Aviva",
        "Legal & General",
    ),
    (
        "h04",
        "other",
        ["My piano teacher is Mrs Hill.", "The Khans' piano teacher is Mr Grant now."],
        "Mrs Hill",
        "Mr Grant",
    ),
    ("h05", "other", ["My GP is Dr Evans.", "His GP is Dr Shah now."], "Dr Evans", "Dr Shah"),
    ("h06", "other", ["My physio is Jenny.", "Her physio is Claire now."], "Jenny", "Claire"),
    (
        "h07",
        "other",
        ["My mortgage lender is Nationwide.", "Their mortgage lender is Halifax now."],
        "Nationwide",
        "Halifax",
    ),
    (
        "h08",
        "other",
        ["My therapist is Dr Moss.", "His therapist is Dr Lane now."],
        "Dr Moss",
        "Dr Lane",
    ),
    (
        "h09",
        "own",
        ["My GP is Dr Evans.", "My husband's and my GP is Dr Shah now."],
        "Dr Evans",
        "Dr Shah",
    ),
    (
        "h10",
        "own",
        ["My bank is Lloyds.", "My partner's and my bank is Starling now."],
        "Lloyds",
        "Starling",
    ),
    (
        "h11",
        "own",
        ["My dentist is Dr Patel.", "My wife's and my dentist is Dr Okafor now."],
        "Dr Patel",
        "Dr Okafor",
    ),
    (
        "h12",
        "own",
        [
            "My mobile provider is EE.",
            "My mobile provider is Giffgaff now, the same as the Walkers'.",
        ],
        "EE",
        "Giffgaff",
    ),
    (
        "h13",
        "own",
        ["My bank is Barclays.", "Like his, my bank is Monzo now."],
        "Barclays",
        "Monzo",
    ),
]
