"""Round twenty-three of the new-user pass: fold D of the personal-assistant week
(``scripts/dogfood21_week.py DIR d``), written and committed before any rule of the round
was changed, and read once at the end. The shape of folds A to C (scripts/dogfood21_cases.py,
scripts/week22_cases.py): days 1 to 5 tell plans and facts, change some in passing and make
small talk; days 6 and 7 ask about them. Other people, other events, other wordings of
rescheduling and moving ("the salon moved my ... to", "they bumped", "got moved to",
"switched from ... to", "has been brought forward to") and facts holding an e-mail address,
a URL and phone numbers. Written for this round; none of the project's test or bench data.
"""

from __future__ import annotations

#: The week: a date and its turns, ``(kind, user, reply)`` as in dogfood21_cases.
DAYS_D: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "2026-12-07",
        [
            ("small", "morning!", "Morning! What can I do for you?"),
            (
                "fact",
                "My haircut appointment with Carla is on Thursday the 10th at 3pm.",
                "Noted: haircut with Carla, Thursday the 10th at 3pm.",
            ),
            ("small", "ta", "You're welcome!"),
            (
                "fact",
                "My daughter Mia has ballet class every Tuesday at 4pm at the Rivergate studio.",
                "Mia's ballet: Tuesdays at 4pm at Rivergate.",
            ),
            (
                "fact",
                "The plumber Dave's number is 07700 900318.",
                "Saved Dave the plumber's number.",
            ),
            ("small", "brilliant", "Anything else?"),
            (
                "fact",
                "Our book club meets at The Crown on the 17th at 8pm.",
                "Book club at The Crown, the 17th at 8pm.",
            ),
            ("small", "that's it for now", "Bye for now!"),
        ],
    ),
    (
        "2026-12-08",
        [
            ("small", "hiya", "Hi! How can I help?"),
            (
                "fact",
                "My GP appointment at Parkside Surgery is on the 11th at 9am.",
                "GP at Parkside Surgery, the 11th at 9am.",
            ),
            (
                "fact",
                "Our accountant Priya Shah's email is priya.shah@ledgerwise.co.uk.",
                "Saved Priya Shah's email.",
            ),
            ("small", "cool, thanks", "Anytime!"),
            (
                "fact",
                "Mia's school clubs are booked at https://clubs.oakwood-primary.org.uk/book.",
                "Saved the clubs booking page.",
            ),
            (
                "fact",
                "My brother Tomas is vegetarian, so no meat at the barbecue.",
                "Tomas is vegetarian, noted.",
            ),
            ("small", "see you", "See you!"),
        ],
    ),
    (
        "2026-12-09",
        [
            ("small", "hey there", "Hey! What's up?"),
            (
                "change",
                "The salon moved my haircut to Saturday the 12th, same time.",
                "Updated: haircut on Saturday the 12th at 3pm.",
            ),
            ("small", "thanks!", "No problem!"),
            (
                "fact",
                "Oakline quoted 900 pounds for the new garden fence.",
                "Fence quote from Oakline: 900 pounds.",
            ),
            (
                "fact",
                "My mum's flight lands at Gatwick on December 19 at 6am.",
                "Mum lands at Gatwick, December 19, 6am.",
            ),
            ("small", "sweet", "Great!"),
            (
                "fact",
                "The cabin's booking reference is HX-4471 and check-in is from 4pm.",
                "Cabin booking HX-4471, check-in from 4pm.",
            ),
            ("small", "night", "Good night!"),
        ],
    ),
    (
        "2026-12-10",
        [
            ("small", "hello", "Hello! What can I do for you?"),
            (
                "change",
                "Book club switched from The Crown to The Lamb this month.",
                "Updated: book club is at The Lamb.",
            ),
            ("small", "cheers", "You're very welcome."),
            (
                "change",
                "They bumped my GP appointment to the 14th.",
                "Updated: GP appointment on the 14th.",
            ),
            (
                "fact",
                "The vet's out-of-hours line is 0161 496 0733.",
                "Saved the vet's out-of-hours number.",
            ),
            ("small", "ok", "Alright."),
            (
                "fact",
                "Tomas's birthday meal is at Casa Lupo on the 20th.",
                "Tomas's birthday meal, Casa Lupo, the 20th.",
            ),
            ("small", "all done, thanks", "Talk soon!"),
        ],
    ),
    (
        "2026-12-11",
        [
            ("small", "hi again", "Hi! How can I help today?"),
            (
                "change",
                "Mia's ballet class got moved to Thursdays.",
                "Updated: Mia's ballet is on Thursdays.",
            ),
            (
                "change",
                "Priya has a new email, priya@shahaccounts.co.uk, the ledgerwise one is closing.",
                "Saved Priya's new email, priya@shahaccounts.co.uk.",
            ),
            ("small", "nice", "Thanks!"),
            (
                "change",
                "Oakline came back with 780 pounds for the fence instead.",
                "Updated: the fence quote is 780 pounds.",
            ),
            (
                "change",
                "Tomas's birthday meal has been brought forward to the 19th.",
                "Updated: Tomas's birthday meal is on the 19th.",
            ),
            ("small", "lovely", "Glad to help!"),
            (
                "fact",
                "The cabin wifi password is pinecone-42.",
                "Saved the cabin wifi password.",
            ),
            ("small", "thanks, bye", "Bye! Have a good weekend."),
        ],
    ),
]

#: The questions of days 6 and 7: (question, gold, old value or None).
QUESTIONS_D: list[tuple[str, str, str | None]] = [
    ("When is my haircut?", "Saturday the 12th", "Thursday the 10th"),
    ("Who cuts my hair?", "Carla", None),
    ("Where is book club this month?", "The Lamb", "The Crown"),
    ("What time is book club?", "8pm", None),
    ("What day is Mia's ballet?", "Thursdays", "Tuesday"),
    ("Where does Mia do ballet?", "Rivergate", None),
    ("What's the plumber's number?", "07700 900318", None),
    ("When is my GP appointment?", "14th", "the 11th"),
    ("Which surgery is my GP at?", "Parkside", None),
    ("What's Priya's email?", "shahaccounts", "ledgerwise.co.uk"),
    ("Where do I book Mia's clubs?", "clubs.oakwood-primary.org.uk", None),
    ("What does Tomas not eat?", "vegetarian", None),
    ("How much is the fence going to cost?", "780 pounds", "900 pounds"),
    ("When does mum land?", "December 19", None),
    ("Which airport is mum flying into?", "Gatwick", None),
    ("What's the cabin booking reference?", "HX-4471", None),
    ("What's the vet's emergency number?", "0161 496 0733", None),
    ("When is Tomas's birthday meal?", "19th", "the 20th"),
    ("Where is Tomas's birthday meal?", "Casa Lupo", None),
    ("What's the wifi password at the cabin?", "pinecone-42", None),
    # Another register.
    ("Is my haircut still on Thursday?", "Saturday the 12th", "Thursday the 10th"),
    ("Are we meeting at The Crown for book club?", "The Lamb", "The Crown"),
    ("Do I still see the GP on the 11th?", "14th", "the 11th"),
    ("Is ballet still on Tuesdays?", "Thursdays", "Tuesday"),
    ("Can I do a meat platter for Tomas?", "vegetarian", None),
    ("Who do I call about a leaking tap?", "07700 900318", None),
]

#: Small talk between the questions, said after every third question.
BETWEEN_D: list[tuple[str, str]] = [
    ("ta", "You're welcome!"),
    ("brilliant", "Anything else?"),
    ("sweet", "Glad to help!"),
    ("cool, thanks", "Sure thing."),
    ("cheers", "No problem!"),
    ("nice", "Great!"),
]
