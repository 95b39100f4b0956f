"""Round twenty-five of the new-user pass: fold F of the personal-assistant week
(``scripts/dogfood21_week.py DIR f``), written and committed before any rule of the round
was changed, and read once at the end. The shape of folds C to E (scripts/week22_cases.py ..
scripts/week24_cases.py): days 1 to 5 tell plans and facts, change some in passing and make
small talk; days 6 and 7 ask about them. Other people and events (a cousin's housewarming,
violin lessons, a choir rehearsal, a garage rewiring), the shapes round twenty-four left:
a new number or e-mail said as "X's new number is Y" / "X has a new email, Y", a quote
that "came back with ... instead", a budget changed by an imperative and a cap ("let's go
up to ..."), a time asked of an event, a link that pays for something, a friend's swap
that is not the speaker's. Written for this round; none of the project's test or bench
data.
"""

from __future__ import annotations

#: The week: a date and its turns, ``(kind, user, reply)`` as in dogfood21_cases.
DAYS_F: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "2026-12-07",
        [
            ("small", "morning!", "Morning! What can I do for you?"),
            (
                "fact",
                "My cousin Teodor's housewarming is at his new flat in Leith on Saturday the"
                " 12th at 7pm.",
                "Noted: Teodor's housewarming in Leith, Saturday the 12th at 7pm.",
            ),
            ("small", "sweet", "Great!"),
            (
                "fact",
                "Our plumber Gavin Reid's number is 07700 900734.",
                "Saved Gavin's number.",
            ),
            (
                "fact",
                "My daughter Elsie has violin lessons every Thursday at 4:30pm at the Ashby"
                " music school.",
                "Elsie's violin: Thursdays at 4:30pm, Ashby music school.",
            ),
            ("small", "speak soon", "Talk later!"),
        ],
    ),
    (
        "2026-12-08",
        [
            ("small", "hiya", "Hi! How can I help?"),
            (
                "fact",
                "The electrician quoted 620 pounds to rewire the garage.",
                "Garage rewiring quote: 620 pounds.",
            ),
            (
                "fact",
                "We set the Christmas food budget at 300 pounds.",
                "Christmas food budget: 300 pounds.",
            ),
            ("small", "brilliant", "Anytime!"),
            (
                "fact",
                "I keep all my photos on Google Photos.",
                "Noted: your photos are on Google Photos.",
            ),
            (
                "fact",
                "We agreed 50 pounds for Elsie's end-of-term present for her teacher.",
                "Teacher's present: 50 pounds.",
            ),
            (
                "fact",
                "My mum is allergic to penicillin.",
                "Noted: your mum is allergic to penicillin.",
            ),
            ("small", "ta-ra", "See you!"),
        ],
    ),
    (
        "2026-12-09",
        [
            ("small", "hello", "Hello! What's up?"),
            (
                "change",
                "Teodor's housewarming got pushed to Sunday the 13th.",
                "Updated: Teodor's housewarming on Sunday the 13th.",
            ),
            ("small", "nice one", "Glad to help."),
            (
                "fact",
                "The choir rehearsal is at St Aidan's church on Tuesday the 15th at 7:45pm.",
                "Choir rehearsal, St Aidan's, Tuesday the 15th at 7:45pm.",
            ),
            (
                "fact",
                "Our dentist Dr Anya Kowal's email is a.kowal@brightsmiles.co.uk.",
                "Saved Dr Kowal's email.",
            ),
            ("small", "sleep well", "Good night!"),
        ],
    ),
    (
        "2026-12-10",
        [
            ("small", "morning again", "Morning! What can I do for you?"),
            (
                "change",
                "The electrician came back with 540 pounds for the garage instead.",
                "Updated: the garage rewiring is 540 pounds.",
            ),
            ("small", "cool", "You're welcome."),
            (
                "change",
                "Actually, let's make the Christmas food budget 350 pounds.",
                "Updated: Christmas food budget is 350 pounds.",
            ),
            (
                "fact",
                "Elsie's school trips are paid at https://pay.ashbyprimary.org.uk/trips.",
                "Saved the school trips payment link.",
            ),
            (
                "fact",
                "Malik swapped Google Photos for iCloud last month.",
                "Noted: Malik moved to iCloud.",
            ),
            ("small", "bye for now", "Bye!"),
        ],
    ),
    (
        "2026-12-11",
        [
            ("small", "hi again", "Hello! How can I help today?"),
            (
                "change",
                "Gavin's new number is 07700 900811.",
                "Saved Gavin's new number, 07700 900811.",
            ),
            (
                "change",
                "Dr Kowal has a new email, anya@kowalsmiles.co.uk.",
                "Saved Dr Kowal's new email, anya@kowalsmiles.co.uk.",
            ),
            ("small", "ace", "Thanks!"),
            (
                "change",
                "Elsie's violin lessons moved to Fridays.",
                "Updated: Elsie's violin on Fridays.",
            ),
            (
                "change",
                "Let's go up to 80 pounds for Elsie's teacher's present.",
                "Updated: teacher's present up to 80 pounds.",
            ),
            (
                "fact",
                "The garage wifi password is heron42.",
                "Saved the garage wifi password.",
            ),
            ("small", "that's me, bye", "Bye! Have a good weekend."),
        ],
    ),
]

#: The questions of days 6 and 7: (question, gold, old value or None).
QUESTIONS_F: list[tuple[str, str, str | None]] = [
    ("When is Teodor's housewarming?", "Sunday the 13th", "Saturday the 12th"),
    ("Where is Teodor's housewarming?", "Leith", None),
    ("What's the plumber's number?", "07700 900811", "07700 900734"),
    ("What day is Elsie's violin?", "Fridays", "Thursday"),
    ("Where does Elsie have violin?", "Ashby", None),
    ("How much will the garage rewiring cost?", "540 pounds", "620 pounds"),
    ("What's the Christmas food budget?", "350 pounds", "300 pounds"),
    ("What's the dentist's email?", "kowalsmiles", "brightsmiles"),
    ("What time is the choir rehearsal?", "7:45pm", None),
    ("How much can I spend on the teacher's present?", "80 pounds", "50 pounds"),
    ("Where do I keep my photos?", "Google Photos", None),
    ("What is my mum allergic to?", "penicillin", None),
    ("Where do I pay for Elsie's school trips?", "pay.ashbyprimary.org.uk", None),
    ("What's the garage wifi password?", "heron42", None),
    # Another register.
    ("Is the housewarming still on Saturday?", "Sunday the 13th", "Saturday the 12th"),
    ("Is violin still on Thursdays?", "Fridays", "Thursday"),
    ("Is the electrician still asking 620 pounds?", "540 pounds", "620 pounds"),
    ("Can the doctor give mum penicillin?", "penicillin", None),
    ("Who do I call about a leak?", "Gavin", None),
    ("Are we still at 300 pounds for Christmas food?", "350 pounds", "300 pounds"),
]

#: Small talk between the questions, said after every third question.
BETWEEN_F: list[tuple[str, str]] = [
    ("sweet", "Great!"),
    ("nice one", "Glad to help."),
    ("brilliant", "Anytime!"),
    ("ace", "Thanks!"),
    ("cool", "You're welcome."),
    ("right", "Alright."),
]
