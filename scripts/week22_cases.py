"""Round twenty-two of the new-user pass: fold C of the personal-assistant week
(``scripts/dogfood21_week.py DIR c``), written before any rule of the round was changed
and not tuned on. The same shape as round twenty-one's week (scripts/dogfood21_cases.py):
days 1 to 5 tell plans and facts, change some in passing and make small talk; days 6
and 7 ask about them. Other people, other facts, other wordings of a change ("pushed
to", "scratch that", "rather than", "upped", "rescheduled") and of the questions.
Written for this round; none of the project's test or bench data.
"""

from __future__ import annotations

#: The week: a date and its turns, ``(kind, user, reply)`` as in dogfood21_cases.
DAYS_C: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "2026-12-07",
        [
            ("small", "morning", "Good morning! How can I help?"),
            (
                "fact",
                "Biscuit's check-up at the vet is on Monday the 14th at 4pm with Dr. Moreau.",
                "Noted: Biscuit's vet check-up, Monday the 14th at 4pm, Dr. Moreau.",
            ),
            ("small", "thank you", "You're welcome!"),
            (
                "fact",
                "My son Noah has football practice every Sunday at 10am at Ashfield Park.",
                "Noah's football: Sundays at 10am at Ashfield Park.",
            ),
            (
                "fact",
                "The alarm code for the office is 2580.",
                "Saved the office alarm code.",
            ),
            ("small", "great", "Anything else?"),
            (
                "fact",
                "The team Christmas dinner is at Bellini on Friday the 18th at 7pm.",
                "Team dinner at Bellini, Friday the 18th at 7pm.",
            ),
            ("small", "bye for now", "Bye!"),
        ],
    ),
    (
        "2026-12-08",
        [
            ("small", "hello again", "Hello! What can I do for you?"),
            (
                "fact",
                "My partner Jonas is allergic to peanuts, so no satay at the dinner.",
                "Jonas is allergic to peanuts, noted.",
            ),
            (
                "fact",
                "Noah's parents' evening at Hillcrest Primary is on the 15th at 6pm.",
                "Parents' evening at Hillcrest, the 15th at 6pm.",
            ),
            ("small", "thanks a lot", "Anytime!"),
            (
                "fact",
                "My physio appointment with Ingrid is on Wednesday at 11am.",
                "Physio with Ingrid, Wednesday at 11am.",
            ),
            (
                "fact",
                "Our landlord Kieran Brennan's email is kieran.brennan@gmail.com.",
                "Saved Kieran Brennan's email.",
            ),
            ("small", "ok thanks", "Sure thing."),
            ("small", "talk later", "Talk later!"),
        ],
    ),
    (
        "2026-12-09",
        [
            ("small", "hi", "Hi! What's up?"),
            (
                "change",
                "Oh, the vet pushed Biscuit's check-up to Friday the 18th, same time.",
                "Updated: Biscuit's check-up is on Friday the 18th at 4pm.",
            ),
            ("small", "cheers", "No problem!"),
            (
                "fact",
                "We're throwing Noah a birthday party at the trampoline park, budget 150 pounds.",
                "Noah's party at the trampoline park, up to 150 pounds.",
            ),
            (
                "fact",
                "The bins go out on Tuesday nights; recycling is every other week.",
                "Bins on Tuesday nights, recycling every other week.",
            ),
            ("small", "lovely", "Great!"),
            (
                "fact",
                "My car insurance with Admiral renews on January 3.",
                "Admiral car insurance renews January 3.",
            ),
            ("small", "good night", "Good night!"),
        ],
    ),
    (
        "2026-12-10",
        [
            ("small", "hey", "Hey! What can I do for you?"),
            (
                "change",
                "Scratch that, the team dinner is at Rosa's Kitchen now, not Bellini.",
                "Updated: the team dinner is at Rosa's Kitchen.",
            ),
            ("small", "thanks so much", "You're very welcome."),
            (
                "fact",
                "The boiler service is booked with HeatWise for December 21 in the morning.",
                "Boiler service with HeatWise, December 21, morning.",
            ),
            (
                "change",
                "Small update: parents' evening is on the 16th rather than the 15th.",
                "Updated: parents' evening is on the 16th.",
            ),
            ("small", "ok", "Alright."),
            (
                "fact",
                "Our neighbour Mrs Patel is feeding the cat while we're in Edinburgh.",
                "Mrs Patel feeds the cat while you're in Edinburgh.",
            ),
            ("small", "that's all, thanks", "Talk soon!"),
        ],
    ),
    (
        "2026-12-11",
        [
            ("small", "hi there", "Hi! How can I help today?"),
            (
                "change",
                "They rescheduled my physio to 2pm on Wednesday.",
                "Updated: physio is on Wednesday at 2pm.",
            ),
            (
                "change",
                "Kieran's new email is k.brennan@fastmail.com, the gmail one bounces now.",
                "Saved Kieran's new email, k.brennan@fastmail.com.",
            ),
            ("small", "nice one", "Thanks!"),
            (
                "fact",
                "We're driving to Edinburgh on December 27 and staying with Jonas's sister Freya.",
                "Edinburgh on December 27, staying with Freya.",
            ),
            (
                "change",
                "We upped Noah's party budget to 250 pounds.",
                "Updated: the party budget is 250 pounds.",
            ),
            ("small", "perfect", "Glad to help!"),
            (
                "change",
                "Noah's football practice is on Saturdays now instead of Sundays.",
                "Updated: Noah's football is on Saturdays.",
            ),
            ("small", "thanks, bye", "Bye! Have a good weekend."),
        ],
    ),
]

#: The questions of days 6 and 7: (question, gold, old value or None).
QUESTIONS_C: list[tuple[str, str, str | None]] = [
    ("What day is Biscuit's check-up?", "Friday the 18th", "Monday the 14th"),
    ("Which vet is Biscuit seeing?", "Moreau", None),
    ("Where is the team dinner?", "Rosa's Kitchen", "Bellini"),
    ("What time is the team dinner?", "7pm", None),
    ("When is Noah's football practice?", "Saturdays", "Sunday"),
    ("Where does Noah play football?", "Ashfield Park", None),
    ("What's the office alarm code?", "2580", None),
    ("What is Jonas allergic to?", "peanuts", None),
    ("When is parents' evening?", "16th", "the 15th"),
    ("Which school is parents' evening at?", "Hillcrest", None),
    ("What time is my physio?", "2pm", "11am"),
    ("Who is my physio?", "Ingrid", None),
    ("What's the landlord's email address?", "fastmail", "gmail"),
    ("How much can we spend on Noah's party?", "250 pounds", "150 pounds"),
    ("Where is Noah's party?", "trampoline park", None),
    ("When do the bins go out?", "Tuesday nights", None),
    ("Who is my car insured with?", "Admiral", None),
    ("When does the car insurance renew?", "January 3", None),
    ("Who is servicing the boiler?", "HeatWise", None),
    ("When is the boiler service?", "December 21", None),
    ("Who is feeding the cat?", "Mrs Patel", None),
    ("When are we driving to Edinburgh?", "December 27", None),
    ("Who are we staying with in Edinburgh?", "Freya", None),
    # Another register.
    ("Is Biscuit still seeing the vet on Monday?", "Friday the 18th", "Monday the 14th"),
    ("Are we still eating at Bellini?", "Rosa's Kitchen", "Bellini"),
    ("Can I order satay for everyone?", "peanuts", None),
    ("How do I switch off the office alarm?", "2580", None),
    ("Anything to remember for Tuesday evening?", "Tuesday nights", None),
]

#: Small talk between the questions, said after every third question.
BETWEEN_C: list[tuple[str, str]] = [
    ("thank you", "You're welcome!"),
    ("great", "Anything else?"),
    ("lovely", "Glad to help!"),
    ("ok thanks", "Sure thing."),
    ("cheers", "No problem!"),
    ("perfect", "Great!"),
]
