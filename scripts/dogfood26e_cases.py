"""Round twenty-six of the new-user pass: fold E, written after fold D was read and
before the round's second variant (the question less its names), so that variant has a
held-out fold of its own (none of the project's test or bench data).

A choir's secretary keeps a venue hire agreement in engram (a four-page PDF; the venue,
the hirer and the event named on page 1 only, later pages saying "the Venue" and "the
Hirer") and a rehearsal note. Half the answerable questions name a party only page 1
gives; some unanswerable ones name a party too.
"""

from __future__ import annotations

from dogfood22_cases import Question

HIRE = [
    [
        "VENUE HIRE AGREEMENT",
        "",
        "Agreed on 18 October 2026",
        "Venue: St Aldric's Hall, Pembroke Lane, Norwich NR2 1LF, run by the",
        "Pembroke Lane Trust. Hirer: the Wensum Valley Singers, contact Rosalind Tay.",
        "Event: Winter Lanterns concert, Saturday 12 December 2026, doors at 18:30.",
        "",
        "The Venue lets the main hall, the green room and the kitchen for the day.",
    ],
    [
        "1. Fee and deposit",
        "The hire fee is GBP 640 for the day. A deposit of GBP 150 secures the booking",
        "and is returned within fourteen days after the event if the rooms are left",
        "clean and nothing is damaged.",
        "",
        "2. Access",
        "The Hirer may enter from 10:00 for setting up and must have left the building",
        "by 23:00. Keys are collected from the caretaker's lodge and returned the same",
        "night through the letterbox.",
    ],
    [
        "3. Cancellation",
        "If the Hirer cancels more than eight weeks before the event, the deposit is",
        "refunded in full. Closer to the date the deposit is kept, and inside two weeks",
        "half the hire fee is also due.",
        "",
        "4. Safety",
        "No more than 220 people may be in the main hall. Candles and open flames are",
        "not allowed anywhere in the building; battery lights may be used instead.",
    ],
    [
        "5. Noise and neighbours",
        "Amplified music must stop at 22:30. The side door onto the lane stays shut",
        "during the performance.",
        "",
        "6. Insurance",
        "The Hirer holds public liability cover of at least GBP 5 million for the event",
        "and shows the certificate to the Venue two weeks before.",
    ],
]

REHEARSAL_MD = """# Rehearsals before the winter concert

We rehearse on Tuesday evenings from 19:30 in the school music room until the end of
November, then twice a week in the last fortnight. The full run-through with the
string quartet is on the Sunday before the concert, afternoon only.

Sopranos need the descant for the third carol learnt by heart; the altos keep their
folders. Programmes are printed by the library on the Thursday before, 250 copies.
Tea and mince pies at the interval are run by two volunteers from the tenors.
"""

Q = Question
QUESTIONS_E: list[Question] = [
    # The hire agreement: these name a party or the event only page 1 gives.
    Q("How much does St Aldric's Hall charge for the day?", "GBP 640 for the day", "hire.pdf", 2),
    Q(
        "What time can the Wensum Valley Singers start setting up?",
        "enter from 10:00",
        "hire.pdf",
        2,
    ),
    Q(
        "If the Wensum Valley Singers pull out a month ahead, do they get the deposit back?",
        "deposit is kept",
        "hire.pdf",
        3,
    ),
    Q(
        "Can we light candles at St Aldric's for Winter Lanterns?",
        "Candles and open flames are",
        "hire.pdf",
        3,
    ),
    Q(
        "What cover does the Pembroke Lane Trust want us to hold?",
        "public liability cover",
        "hire.pdf",
        4,
    ),
    # Without a party's name.
    Q("How many people fit in the main hall?", "No more than 220 people", "hire.pdf", 3),
    Q("When must the amplified music end?", "must stop at 22:30", "hire.pdf", 4),
    Q("Where do we pick up the keys?", "caretaker's lodge", "hire.pdf", 2),
    Q("How many programmes are we printing?", "250 copies", "rehearsal.md"),
    Q(
        "When is the run-through with the string players?",
        "Sunday before the concert",
        "rehearsal.md",
    ),
    # Nothing answers these; two name a party only page 1 gives.
    Q("What is the caretaker's phone number at St Aldric's Hall?", kind="none"),
    Q("Does the Pembroke Lane Trust provide a piano?", kind="none"),
    Q("How much do concert tickets cost?", kind="none"),
    Q("Is there parking near the venue?", kind="none"),
    Q("Who conducts the choir?", kind="none"),
]
