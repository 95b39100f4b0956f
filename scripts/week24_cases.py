"""Round twenty-four of the new-user pass: fold E of the personal-assistant week
(``scripts/dogfood21_week.py DIR e``), written and committed before any rule of the round
was changed, and read once at the end. The shape of folds C and D (scripts/week22_cases.py,
scripts/week23_cases.py): days 1 to 5 tell plans and facts, change some in passing and make
small talk; days 6 and 7 ask about them. Other people and events (leaving drinks, a pottery
workshop, a football match, a quiz night), a description before a name ("Our babysitter
Hannah Okafor's ..."), a quote that "came back" lower, a budget changed by an imperative
("let's make ...", "up to ..."). Written for this round; none of the project's test or
bench data.
"""

from __future__ import annotations

#: The week: a date and its turns, ``(kind, user, reply)`` as in dogfood21_cases.
DAYS_E: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "2026-12-07",
        [
            ("small", "good morning", "Good morning! What can I do for you?"),
            (
                "fact",
                "My colleague Ines's leaving drinks are at The Anchor on Friday the 11th at 6pm.",
                "Noted: Ines's leaving drinks, The Anchor, Friday the 11th at 6pm.",
            ),
            ("small", "perfect", "Great!"),
            (
                "fact",
                "Our babysitter Hannah Okafor's number is 07700 900512.",
                "Saved Hannah's number.",
            ),
            (
                "fact",
                "My son Leo has football training every Monday at 5pm at Hollins Park.",
                "Leo's football: Mondays at 5pm, Hollins Park.",
            ),
            ("small", "that's all", "Talk later!"),
        ],
    ),
    (
        "2026-12-08",
        [
            ("small", "hey", "Hey! How can I help?"),
            (
                "fact",
                "The pottery workshop is on Saturday the 12th at 10am at Clayhouse.",
                "Pottery workshop at Clayhouse, Saturday the 12th at 10am.",
            ),
            (
                "fact",
                "The roofer quoted 1450 pounds for the chimney repair.",
                "Chimney repair quote: 1450 pounds.",
            ),
            ("small", "thanks a lot", "Anytime!"),
            (
                "fact",
                "The holiday budget for Porto is 1800 euros.",
                "Porto holiday budget: 1800 euros.",
            ),
            (
                "fact",
                "My sister Noor is allergic to shellfish.",
                "Noor: shellfish allergy, noted.",
            ),
            ("small", "later", "See you!"),
        ],
    ),
    (
        "2026-12-09",
        [
            ("small", "hi", "Hi! What's up?"),
            (
                "change",
                "Ines's leaving drinks got moved to Thursday the 10th.",
                "Updated: Ines's leaving drinks on Thursday the 10th.",
            ),
            ("small", "ace", "Glad to help."),
            (
                "fact",
                "Our vet Dr Rowan Pike's email is rowan.pike@willowvets.co.uk.",
                "Saved Dr Pike's email.",
            ),
            (
                "fact",
                "The quiz night at the village hall starts at 7:30pm on the 16th.",
                "Quiz night, village hall, the 16th at 7:30pm.",
            ),
            ("small", "night night", "Good night!"),
        ],
    ),
    (
        "2026-12-10",
        [
            ("small", "morning", "Morning! What can I do for you?"),
            (
                "change",
                "The roofer's quote came back at 1200 pounds instead.",
                "Updated: chimney repair quote is 1200 pounds.",
            ),
            ("small", "great stuff", "You're welcome."),
            (
                "change",
                "Let's make the Porto holiday budget 2000 euros.",
                "Updated: Porto budget is 2000 euros.",
            ),
            (
                "fact",
                "Leo's school office number is 0113 496 0281.",
                "Saved the school office number.",
            ),
            ("small", "ok bye", "Bye!"),
        ],
    ),
    (
        "2026-12-11",
        [
            ("small", "hello again", "Hello! How can I help today?"),
            (
                "change",
                "They moved the pottery workshop to Sunday the 13th.",
                "Updated: pottery workshop on Sunday the 13th.",
            ),
            (
                "change",
                "Dr Pike has a new email, rowan@pikevets.co.uk.",
                "Saved Dr Pike's new email, rowan@pikevets.co.uk.",
            ),
            ("small", "lovely", "Thanks!"),
            (
                "change",
                "Leo's football training switched to Wednesdays.",
                "Updated: Leo's football on Wednesdays.",
            ),
            (
                "fact",
                "The Porto apartment door code is 5190.",
                "Saved the apartment door code.",
            ),
            ("small", "cheers, bye", "Bye! Have a good weekend."),
        ],
    ),
]

#: The questions of days 6 and 7: (question, gold, old value or None).
QUESTIONS_E: list[tuple[str, str, str | None]] = [
    ("When are Ines's leaving drinks?", "Thursday the 10th", "Friday the 11th"),
    ("Where are Ines's leaving drinks?", "The Anchor", None),
    ("What's the babysitter's number?", "07700 900512", None),
    ("What day is Leo's football?", "Wednesdays", "Monday"),
    ("Where does Leo play football?", "Hollins Park", None),
    ("When is the pottery workshop?", "Sunday the 13th", "Saturday the 12th"),
    ("What time is the pottery workshop?", "10am", None),
    ("How much is the chimney repair?", "1200 pounds", "1450 pounds"),
    ("What's our budget for Porto?", "2000 euros", "1800 euros"),
    ("What is Noor allergic to?", "shellfish", None),
    ("What's the vet's email?", "pikevets", "willowvets"),
    ("When is quiz night?", "the 16th", None),
    ("What's the school office number?", "0113 496 0281", None),
    ("What's the door code in Porto?", "5190", None),
    # Another register.
    ("Are Ines's drinks still on Friday?", "Thursday the 10th", "Friday the 11th"),
    ("Is pottery still on Saturday?", "Sunday the 13th", "Saturday the 12th"),
    ("Is Leo's football still on Mondays?", "Wednesdays", "Monday"),
    ("Can I order prawns for Noor?", "shellfish", None),
    ("Who looks after the kids when we go out?", "Hannah", None),
    ("Is the roofer still charging 1450 pounds?", "1200 pounds", "1450 pounds"),
]

#: Small talk between the questions, said after every third question.
BETWEEN_E: list[tuple[str, str]] = [
    ("perfect", "Great!"),
    ("ace", "Glad to help."),
    ("thanks a lot", "Anytime!"),
    ("lovely", "Thanks!"),
    ("great stuff", "You're welcome."),
    ("ok", "Alright."),
]
