"""Round twenty-one of the new-user pass: a week with a personal assistant through the
chat proxy, the cases (written for this round; none of the project's test or bench
data). Sam talks to an assistant app that points the ``openai`` client at engram's
proxy: days 1 to 5 tell plans and facts, change some of them in passing ("actually the
dentist moved to Thursday") and make small talk ("thanks!", "hi again", "ok cool");
days 6 and 7 ask about them, with small talk between the questions.

Each turn of days 1 to 5 is ``(kind, user, reply)``: ``fact``, ``change`` (a fact said
again with a new value) or ``small`` (small talk), and the scripted upstream's reply.
Each question is ``(question, gold, old)``: ``gold`` a string the answering memory holds,
``old`` one the replaced value's memory holds (or None). Run by
``scripts/dogfood21_week.py``.
"""

from __future__ import annotations

#: The week: a date (the fake clock's day) and its turns, one conversation a day.
DAYS: list[tuple[str, list[tuple[str, str, str]]]] = [
    (
        "2026-12-07",
        [
            ("small", "hi", "Hi! What can I do for you?"),
            (
                "fact",
                "My dentist appointment is on Tuesday the 15th at 9am with Dr. Okafor.",
                "Got it: the dentist on Tuesday the 15th at 9am, with Dr. Okafor.",
            ),
            ("small", "Thanks!", "You're welcome!"),
            (
                "fact",
                "My daughter Lena has swimming lessons every Wednesday at 5pm at the Westbad pool.",
                "Noted: Lena swims on Wednesdays at 5pm at Westbad.",
            ),
            ("small", "ok cool", "Anything else?"),
            (
                "fact",
                "The wifi password at home is maple-7731.",
                "Saved the home wifi password.",
            ),
            ("small", "great, talk tomorrow", "Talk tomorrow!"),
        ],
    ),
    (
        "2026-12-08",
        [
            ("small", "hi again", "Hello again! How can I help?"),
            (
                "fact",
                "I'm flying to Lisbon on January 14 for my brother Tomas's wedding.",
                "Lisbon on January 14 for Tomas's wedding, noted.",
            ),
            (
                "fact",
                "The wedding is at Quinta da Regaleira in Sintra, starting at 4pm.",
                "Quinta da Regaleira, 4pm. Got it.",
            ),
            ("small", "thanks", "Anytime!"),
            (
                "fact",
                "My car is due for its MOT on December 18 at the Halfords garage on Mill Road.",
                "The MOT is on December 18 at Halfords on Mill Road.",
            ),
            (
                "fact",
                "Remind me that Lena's teacher is called Mrs Adeyemi.",
                "Lena's teacher is Mrs Adeyemi, noted.",
            ),
            (
                "fact",
                "thanks, the gate code for Mum's building is 4471",
                "Saved: the gate code for your mum's building is 4471.",
            ),
            ("small", "ok", "Sure."),
            ("small", "bye!", "Bye! Have a good evening."),
        ],
    ),
    (
        "2026-12-09",
        [
            ("small", "good morning", "Good morning! What's up?"),
            (
                "change",
                "Actually the dentist moved to Thursday the 17th, same time.",
                "Updated: the dentist is now on Thursday the 17th at 9am.",
            ),
            ("small", "cool thanks", "No problem!"),
            (
                "fact",
                "I've decided to stop eating meat, so I'm vegetarian from now on.",
                "Noted, you're vegetarian now.",
            ),
            (
                "fact",
                "For Tomas's wedding gift we're getting them an espresso machine, "
                "budget 300 euros.",
                "An espresso machine for Tomas, up to 300 euros.",
            ),
            ("small", "sounds good", "Great!"),
            (
                "fact",
                "My gym is PureGym on Castle Street; I go Monday, Wednesday and Friday at 7am.",
                "PureGym on Castle Street, Monday, Wednesday and Friday at 7am.",
            ),
            ("small", "night!", "Good night!"),
        ],
    ),
    (
        "2026-12-10",
        [
            ("small", "hey", "Hey! What's on your mind?"),
            (
                "change",
                "Change of plan: I'm flying to Lisbon on January 13 instead, a day earlier.",
                "Updated: you fly to Lisbon on January 13.",
            ),
            ("small", "perfect, thank you so much", "You're very welcome."),
            (
                "fact",
                "My mother's birthday is on December 22; she wants a cookbook by Ottolenghi.",
                "Your mum's birthday is December 22, an Ottolenghi cookbook.",
            ),
            ("small", "ok great", "Glad to help!"),
            (
                "fact",
                "The plumber, Dave Hughes, is coming on Saturday at 10 to fix the kitchen tap.",
                "Dave Hughes on Saturday at 10 for the kitchen tap.",
            ),
            (
                "change",
                "Lena's swimming moved to Thursdays now, same time.",
                "Updated: Lena swims on Thursdays at 5pm.",
            ),
            ("small", "thanks, that's all for today", "Talk soon!"),
        ],
    ),
    (
        "2026-12-11",
        [
            ("small", "hello", "Hello! How can I help you today?"),
            (
                "change",
                "My new phone number is 07700 900462; the old one is gone.",
                "Your new number 07700 900462 is saved.",
            ),
            (
                "change",
                "I switched electricity supplier from British Gas to Octopus Energy this week.",
                "Noted: Octopus Energy now.",
            ),
            ("small", "nice", "Thanks!"),
            (
                "fact",
                "Book club meets at Priya's flat next Tuesday at 7:30pm; we're reading Piranesi.",
                "Book club at Priya's, Tuesday at 7:30pm, Piranesi.",
            ),
            ("small", "awesome, cheers", "Cheers!"),
            (
                "fact",
                "The dress code for Tomas's wedding is smart casual, no ties.",
                "Smart casual, no ties.",
            ),
            (
                "change",
                "Actually make the gift budget 400 euros, Ana said the machine we want costs more.",
                "Updated: the gift budget is 400 euros.",
            ),
            ("small", "got it, thanks", "You're welcome!"),
            ("small", "have a good weekend", "You too!"),
        ],
    ),
]

#: The questions of days 6 and 7: (question, gold, old value or None).
QUESTIONS: list[tuple[str, str, str | None]] = [
    ("When is my dentist appointment?", "Thursday the 17th", "Tuesday the 15th"),
    ("Which dentist am I seeing?", "Okafor", None),
    ("What time is the dentist?", "9am", None),
    ("When does Lena have swimming now?", "Thursdays", "Wednesday"),
    ("Where does Lena swim?", "Westbad", None),
    ("What's the wifi password at home?", "maple-7731", None),
    ("When am I flying to Lisbon?", "January 13", "January 14"),
    ("Whose wedding is it in Lisbon?", "brother Tomas", None),
    ("Where is the wedding venue?", "Regaleira", None),
    ("What time does the wedding start?", "4pm", None),
    ("When is my car's MOT?", "December 18", None),
    ("Which garage is doing the MOT?", "Halfords", None),
    ("What's Lena's teacher called?", "Adeyemi", None),
    ("What's the code for Mum's building?", "4471", None),
    ("What diet am I on?", "vegetarian", None),
    ("What are we giving Tomas for the wedding?", "espresso machine", None),
    ("What's our budget for the wedding gift?", "400 euros", "300 euros"),
    ("Which gym do I go to?", "PureGym", None),
    ("Which days do I go to the gym?", "Monday, Wednesday and Friday", None),
    ("When is Mum's birthday?", "December 22", None),
    ("What does my mother want for her birthday?", "Ottolenghi", None),
    ("When is the plumber coming?", "Saturday at 10", None),
    ("What's the plumber's name?", "Dave Hughes", None),
    ("What is the plumber fixing?", "kitchen tap", None),
    ("What's my phone number now?", "07700 900462", None),
    ("Who is my electricity supplier?", "Octopus", None),
    ("Where does book club meet?", "Priya", None),
    ("Which book are we reading for book club?", "Piranesi", None),
    ("What time is book club?", "7:30pm", None),
    ("What's the dress code for the wedding?", "smart casual", None),
    # The same facts asked in another register.
    ("Remind me what's happening with the kitchen tap.", "kitchen tap", None),
    ("Is there anything I need to do for the car this month?", "MOT", None),
    ("What should I get my mum?", "Ottolenghi", None),
    ("How do I get onto the home network?", "maple-7731", None),
    ("Am I still going to the dentist on Tuesday?", "Thursday the 17th", "Tuesday the 15th"),
    ("What's happening on January 13?", "January 13", "January 14"),
    ("Do I have any food restrictions?", "vegetarian", None),
    ("Who's getting married?", "brother Tomas", None),
    ("What time do I work out?", "7am", None),
    ("What should I wear to the wedding?", "smart casual", None),
]

#: Small talk between the questions, said after every ``SMALL_EVERY``-th question.
BETWEEN: list[tuple[str, str]] = [
    ("thanks!", "You're welcome!"),
    ("ok cool", "Anything else?"),
    ("perfect", "Glad to help!"),
    ("great, thanks", "Anytime!"),
    ("hi again", "Hello again! How can I help?"),
    ("cheers", "Cheers!"),
    ("ok", "Sure."),
    ("talk later", "Talk soon!"),
]
SMALL_EVERY = 3

#: The question days: half the questions on each, one conversation a day.
QUESTION_DAYS = ("2026-12-12", "2026-12-13")

#: Fold B: the same week with other people's small talk in place of every small-talk
#: turn (in order, cycled), written after the rule was fixed on fold A's (the turns
#: above): does the rule hold on phrasing it was not written from?
SMALL_B: list[tuple[str, str]] = [
    ("hiya", "Hey! What do you need?"),
    ("ta!", "No worries!"),
    ("brill", "Happy to help."),
    ("speak soon", "See you later!"),
    ("evening!", "Evening! What can I help with?"),
    ("much appreciated", "Any time."),
    ("k", "Of course!"),
    ("ttyl", "Bye for now!"),
    ("morning :)", "Morning! Good to hear from you."),
    ("nice one, thanks", "My pleasure."),
    ("sure thing", "Great."),
    ("g'night", "Sleep well!"),
    ("hey there", "Hi there! What's new?"),
    ("thank you!", "You're welcome."),
    ("cool cool", "Anything else I can do?"),
    ("thanks, that's everything", "Have a nice evening!"),
    ("yo", "Hey!"),
    ("haha ok", "Let me know if you need anything."),
    ("sweet, cheers", "Cheers!"),
    ("see ya", "Take care!"),
    ("thx!", "No problem at all."),
    ("gotcha", "Alright."),
]


def week(fold: str) -> tuple[list[tuple[str, list[tuple[str, str, str]]]], list[tuple[str, str]]]:
    """The days and the small talk between questions of ``fold`` (``a`` or ``b``)."""
    if fold == "a":
        return DAYS, BETWEEN
    if fold != "b":
        raise ValueError(f"fold must be a or b, got {fold!r}")
    n = 0

    def swap(kind: str, user: str, reply: str) -> tuple[str, str, str]:
        nonlocal n
        if kind != "small":
            return kind, user, reply
        n += 1
        return (kind, *SMALL_B[(n - 1) % len(SMALL_B)])

    days = [(day, [swap(*t) for t in turns]) for day, turns in DAYS]
    between = [SMALL_B[(n + k) % len(SMALL_B)] for k in range(len(BETWEEN))]
    return days, between
