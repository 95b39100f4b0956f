# ruff: noqa: E501  (a data table: one turn a line reads best)
"""Task x25: write the labelled proxy-turn set (src/engram/data/proxy_turns.json).

    python scripts/x25_write_set.py

Each row is one user turn as people type it to an assistant behind the chat proxy, with
the facts a careful reader keeps from it (each a list of words the fact must hold, lower
case) and the relations (subject, accepted types ``|``-separated, target). Most requests,
questions, greetings without a name, small talk and thanks keep none. Rows alternate
tune / check (even / odd). Written before any rule change of task x25.
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "proxy_turns.json"

# kind, text, facts ("w w|w w": two facts), relations ("s;t1/t2;o|..."; types split on "/")
ROWS: list[tuple[str, str, str, str]] = [
    # requests and commands: no fact
    ("request", "Suggest a dinner for me tonight.", "", ""),
    ("request", "Write me a short poem about autumn.", "", ""),
    ("request", "Can you summarise this article for me?", "", ""),
    ("request", "Draft an email to my landlord about the broken boiler.", "", ""),
    ("request", "give me three ideas for a team offsite", "", ""),
    ("request", "Translate 'good morning' into Japanese please.", "", ""),
    ("request", "Plan a 3-day itinerary for Lisbon for me.", "", ""),
    ("request", "Help me write a cover letter for a backend role.", "", ""),
    ("request", "Recommend a podcast for my commute.", "", ""),
    ("request", "Make me a grocery list for the week.", "", ""),
    ("request", "Tell me a joke.", "", ""),
    ("request", "Explain recursion like I'm five.", "", ""),
    ("request", "Find me a cheap flight to Rome next month.", "", ""),
    ("request", "Book a table for two at 8pm.", "", ""),
    ("request", "pls fix the grammar in this paragraph", "", ""),
    ("request", "Suggest a name for my new puppy.", "", ""),
    ("request", "Give me a workout plan for this week.", "", ""),
    ("request", "Write a birthday message for my mum.", "", ""),
    ("request", "Summarize our conversation so far.", "", ""),
    ("request", "Convert 70 kilograms to pounds for me.", "", ""),
    ("request", "Could you suggest a good book for my flight?", "", ""),
    ("request", "Please recommend a wine to go with salmon.", "", ""),
    ("request", "Generate a SQL query that counts orders per customer.", "", ""),
    ("request", "Help me plan my sister's baby shower.", "", ""),
    ("request", "Create a packing list for a ski trip.", "", ""),
    ("request", "Rewrite this sentence to sound more polite.", "", ""),
    ("request", "Suggest some gift ideas for my dad.", "", ""),
    ("request", "Check my code for bugs.", "", ""),
    ("request", "Set a timer for 10 minutes.", "", ""),
    ("request", "Play some relaxing music.", "", ""),
    ("request", "Outline a talk on climate policy for me.", "", ""),
    ("request", "Show me how to boil an egg.", "", ""),
    ("request", "Pick a movie for me and my kids tonight.", "", ""),
    ("request", "Compare the iPhone and the Pixel for me.", "", ""),
    ("request", "Let me know when the report is ready.", "", ""),
    ("request", "Help me budget for my wedding.", "", ""),
    # remind me that / note that: a fact
    ("remind", "Remind me that my passport expires in May.", "passport expires may", ""),
    ("remind", "Remember that my car insurance renews on 3 June.", "car insurance renews june", ""),
    (
        "remind",
        "Please note that my daughter is allergic to penicillin.",
        "daughter allergic penicillin",
        "daughter;allergic_to/allergy/has;penicillin",
    ),
    ("remind", "Keep in mind that I'm vegetarian.", "user vegetarian", ""),
    ("remind", "remind me my dentist is Dr. Okafor", "dentist okafor", "user;dentist/has;Okafor"),
    ("remind", "Remember that my flight to Oslo leaves on Friday.", "flight oslo friday", ""),
    # questions: no fact
    ("question", "What's the capital of Australia?", "", ""),
    ("question", "How do I reset my router?", "", ""),
    ("question", "What car do I drive?", "", ""),
    ("question", "Where do I live?", "", ""),
    ("question", "Which orchestrator runs the billing ETL now?", "", ""),
    ("question", "Is it going to rain tomorrow?", "", ""),
    ("question", "how many calories are in a banana", "", ""),
    ("question", "What should I cook for dinner tonight?", "", ""),
    ("question", "Do you know any good Thai places near me?", "", ""),
    ("question", "What's my wife's birthday again?", "", ""),
    ("question", "Why is the sky blue?", "", ""),
    ("question", "Can dogs eat grapes?", "", ""),
    ("question", "What time is it in Tokyo?", "", ""),
    ("question", "Who won the World Cup in 2018?", "", ""),
    ("question", "What's a good name for a cat?", "", ""),
    ("question", "Should I learn Rust or Go next?", "", ""),
    ("question", "how long should I boil pasta", "", ""),
    ("question", "What did I tell you about my job?", "", ""),
    ("question", "Is Python faster than Java?", "", ""),
    ("question", "Where should I go on holiday this summer?", "", ""),
    ("question", "What's the best way to learn Spanish?", "", ""),
    ("question", "Does my gym open on Sundays?", "", ""),
    ("question", "When is my next dentist appointment?", "", ""),
    ("question", "What do you think of my plan?", "", ""),
    ("question", "Which laptop would you buy for programming?", "", ""),
    ("question", "Could you tell me what my manager's name is?", "", ""),
    ("question", "Am I allergic to anything?", "", ""),
    ("question", "What's the difference between a latte and a flat white?", "", ""),
    ("question", "Have I mentioned where I work?", "", ""),
    ("question", "How far is it from Bergen to Trondheim?", "", ""),
    # greetings with a name: the user's name
    ("greeting", "Hi, I'm Priya.", "name priya", ""),
    ("greeting", "Hello! My name is Tomasz.", "name tomasz", ""),
    ("greeting", "hey, im Jake", "name jake", ""),
    ("greeting", "Hi there, I am Fatima.", "name fatima", ""),
    ("greeting", "Good morning, this is Lars.", "name lars", ""),
    ("greeting", "Hi! I'm Mei, nice to meet you.", "name mei", ""),
    ("greeting", "Hello, my name's Oliver.", "name oliver", ""),
    ("greeting", "Hey there! I'm Aisha.", "name aisha", ""),
    ("greeting", "Call me Ben.", "name ben", ""),
    ("greeting", "Hi, it's Sofia here.", "name sofia", ""),
    # greetings with no name, small talk, thanks: nothing
    ("small_talk", "Hi!", "", ""),
    ("small_talk", "Hello there.", "", ""),
    ("small_talk", "Good morning!", "", ""),
    ("small_talk", "hey how's it going", "", ""),
    ("small_talk", "I'm good, thanks for asking.", "", ""),
    ("small_talk", "I'm fine.", "", ""),
    ("small_talk", "I'm back.", "", ""),
    ("small_talk", "I'm here.", "", ""),
    ("small_talk", "I'm not sure.", "", ""),
    ("small_talk", "I'm just curious.", "", ""),
    ("small_talk", "I'm bored.", "", ""),
    ("small_talk", "I'm ready when you are.", "", ""),
    ("small_talk", "That's interesting.", "", ""),
    ("small_talk", "lol ok", "", ""),
    ("small_talk", "Sounds good.", "", ""),
    ("small_talk", "Never mind.", "", ""),
    ("small_talk", "Let's start.", "", ""),
    ("small_talk", "OK, let me think about it.", "", ""),
    ("small_talk", "Nice weather today, isn't it?", "", ""),
    ("small_talk", "Good night!", "", ""),
    ("small_talk", "I'm sorry, I meant the other one.", "", ""),
    ("small_talk", "I'm confused.", "", ""),
    ("thanks", "Thanks!", "", ""),
    ("thanks", "Thank you so much, that helps.", "", ""),
    ("thanks", "thx", "", ""),
    ("thanks", "Great, thanks for your help.", "", ""),
    ("thanks", "Perfect, cheers.", "", ""),
    ("thanks", "Thanks, I'll try that.", "", ""),
    ("thanks", "Thank you, that was really useful.", "", ""),
    ("thanks", "Much appreciated!", "", ""),
    # statements of fact
    ("statement", "I live in Bergen.", "user lives bergen", "user;lives_in/home/city;Bergen"),
    (
        "statement",
        "I work at Stripe as a data engineer.",
        "user works stripe",
        "user;works_at/employer/workplace;Stripe|user;is_a/has_role/role/job;data engineer",
    ),
    ("statement", "My wife's birthday is 14 March.", "wife birthday 14 march", ""),
    (
        "statement",
        "I drive a blue Toyota Corolla.",
        "user drives corolla",
        "user;drives/owns/has/car;Toyota Corolla",
    ),
    ("statement", "I run about 40 km a week.", "user runs 40 km", ""),
    ("statement", "My son Leo is 7.", "leo 7", "user;son/has_son/child/has_child/has;Leo"),
    (
        "statement",
        "I have two cats called Miso and Tofu.",
        "cats miso tofu",
        "user;owns/has/has_cat/pet;cats",
    ),
    ("statement", "My manager is Sam.", "manager sam", "user;manager/reports_to/has_manager;Sam"),
    ("statement", "We have a standup every day at 9.", "standup 9", ""),
    (
        "statement",
        "My daughter's school starts on 2 September.",
        "daughter school starts september",
        "",
    ),
    (
        "statement",
        "I'm a nurse at St Mary's hospital.",
        "user nurse",
        "user;is_a/has_role/role/job;nurse|user;works_at/employer/workplace;St Mary's hospital",
    ),
    ("statement", "My anniversary is on June 12.", "anniversary june 12", ""),
    ("statement", "I'm training for the Berlin marathon.", "user training berlin marathon", ""),
    (
        "statement",
        "My brother lives in Toronto.",
        "brother lives toronto",
        "brother;lives_in/home/city;Toronto",
    ),
    (
        "statement",
        "the billing ETL runs on Airflow",
        "billing etl airflow",
        "billing ETL;runs_on/uses;Airflow",
    ),
    ("statement", "I'm on the payments team.", "user payments team", ""),
    (
        "statement",
        "My husband's name is Carlos.",
        "husband carlos",
        "user;husband/married_to/married/partner/spouse/has;Carlos",
    ),
    (
        "statement",
        "I have a peanut allergy.",
        "user peanut allergy",
        "user;allergic_to/allergy/has;peanut",
    ),
    ("statement", "My rent is due on the 1st of every month.", "rent due 1st", ""),
    (
        "statement",
        "I studied physics at Edinburgh.",
        "user studied physics edinburgh",
        "user;studied/attended/studied_at;Edinburgh",
    ),
    ("statement", "my mom's birthday is next tuesday", "mom birthday tuesday", ""),
    ("statement", "I'm 34 years old.", "user 34", ""),
    (
        "statement",
        "Our team uses Kubernetes for everything.",
        "team kubernetes",
        "team;uses;Kubernetes",
    ),
    (
        "statement",
        "I have a dentist appointment on Thursday at 3pm.",
        "dentist appointment thursday",
        "",
    ),
    (
        "statement",
        "My dog Biscuit is a beagle.",
        "biscuit beagle",
        "user;owns/has/dog/pet/has_dog;Biscuit|Biscuit;is_a;beagle",
    ),
    (
        "statement",
        "I just started a new job at Spotify.",
        "user job spotify",
        "user;works_at/employer/workplace/joined/started;Spotify",
    ),
    ("statement", "My sister is getting married in October.", "sister married october", ""),
    (
        "statement",
        "I speak Spanish and a little German.",
        "user speaks spanish",
        "user;speaks/uses;Spanish",
    ),
    ("statement", "My partner's birthday is on 3 April.", "partner birthday 3 april", ""),
    ("statement", "I'm flying to Tokyo on the 15th.", "user flying tokyo", ""),
    ("statement", "I play tennis on Saturdays.", "user plays tennis", "user;plays/likes;tennis"),
    ("statement", "My kids are 5 and 8.", "kids 5 8", ""),
    (
        "statement",
        "I grew up in Nairobi.",
        "user grew nairobi",
        "user;grew_up_in/lives_in/from/born_in;Nairobi",
    ),
    ("statement", "My landlord is called Mr. Reyes.", "landlord reyes", "user;landlord/has;Reyes"),
    ("statement", "I've been vegan for three years.", "user vegan", ""),
    ("statement", "My daughter Ana started swimming lessons.", "ana swimming lessons", ""),
    ("statement", "Our wedding date is 21 August.", "wedding 21 august", ""),
    (
        "statement",
        "I'm moving to Lisbon in January.",
        "user moving lisbon january",
        "user;moving_to/moves_to/moved_to/lives_in;Lisbon",
    ),
    # preferences
    ("preference", "I prefer Go over Java.", "user prefers go java", "user;prefers/likes/uses;Go"),
    ("preference", "I hate cilantro.", "user hates cilantro", "user;hates/dislikes;cilantro"),
    (
        "preference",
        "I like my coffee black.",
        "user likes coffee black",
        "user;likes/prefers;coffee",
    ),
    ("preference", "I don't eat pork.", "user pork", ""),
    (
        "preference",
        "I love hiking in the mountains.",
        "user loves hiking",
        "user;loves/likes/enjoys;hiking",
    ),
    ("preference", "I prefer short answers.", "user prefers short answers", ""),
    (
        "preference",
        "i really dont like horror movies",
        "user horror movies",
        "user;dislikes/hates;horror movies",
    ),
    (
        "preference",
        "My favourite band is Radiohead.",
        "favourite band radiohead",
        "user;likes/loves/favourite_band/fan_of/has;Radiohead",
    ),
    ("preference", "I'd rather fly than take the train.", "user fly train", ""),
    (
        "preference",
        "I prefer window seats.",
        "user prefers window seats",
        "user;prefers/likes;window seats",
    ),
    (
        "preference",
        "I'm a big fan of Italian food.",
        "user italian food",
        "user;likes/loves/fan_of;Italian food",
    ),
    ("preference", "I like to work out in the morning.", "user work out morning", ""),
    ("preference", "Please always answer in British English.", "", ""),
    ("preference", "I can't stand loud restaurants.", "user loud restaurants", ""),
    ("preference", "I always take the stairs.", "user stairs", ""),
    ("preference", "I prefer tea to coffee.", "user prefers tea", "user;prefers/likes/drinks;tea"),
    # corrections
    (
        "correction",
        "Actually, I live in Trondheim now.",
        "user lives trondheim",
        "user;lives_in/home/city/moved_to;Trondheim",
    ),
    ("correction", "Sorry, my wife's birthday is 15 March, not 14.", "wife birthday 15 march", ""),
    (
        "correction",
        "No, I drive a Tesla now.",
        "user drives tesla",
        "user;drives/owns/has/car;Tesla",
    ),
    (
        "correction",
        "Correction: my manager is Priya, not Sam.",
        "manager priya",
        "user;manager/reports_to/has_manager;Priya",
    ),
    (
        "correction",
        "I sold the Corolla and bought a Tesla Model 3.",
        "user tesla model 3",
        "user;bought/owns/drives/has;Tesla Model 3",
    ),
    (
        "correction",
        "We migrated the billing ETL from Airflow to Dagster.",
        "billing etl dagster",
        "",
    ),
    ("correction", "Actually it's Tomás, with an accent.", "", ""),
    ("correction", "Not Bergen, I meant Trondheim.", "", ""),
    (
        "correction",
        "I don't work at Stripe anymore, I'm at Adyen now.",
        "user adyen",
        "user;works_at/employer/workplace;Adyen",
    ),
    (
        "correction",
        "I moved to Trondheim last week.",
        "user moved trondheim",
        "user;moved_to/lives_in/home/city;Trondheim",
    ),
    # mixed turns
    (
        "mixed",
        "Hi, I'm Priya. I'm on the payments team and I prefer Go over Java.",
        "name priya|user payments team|user prefers go",
        "user;prefers/likes/uses;Go",
    ),
    (
        "mixed",
        "I live in Bergen. What's the weather like there this weekend?",
        "user lives bergen",
        "user;lives_in/home/city;Bergen",
    ),
    (
        "mixed",
        "I'm vegetarian, so suggest a dinner for me tonight.",
        "user vegetarian",
        "user;diet/is_a/is;vegetarian",
    ),
    (
        "mixed",
        "My wife's birthday is 14 March. What should I get her?",
        "wife birthday 14 march",
        "",
    ),
    ("mixed", "Hey, my name is Dan and I run marathons.", "name dan|user runs marathons", ""),
    ("mixed", "I have a meeting with Sam at 3. Can you remind me at 2:45?", "meeting sam 3", ""),
    (
        "mixed",
        "Thanks! By the way, I moved to Oslo last month.",
        "user moved oslo",
        "user;moved_to/lives_in/home/city;Oslo",
    ),
    (
        "mixed",
        "I'm allergic to shellfish. Recommend a restaurant in Paris for me.",
        "user allergic shellfish",
        "user;allergic_to/allergy/has;shellfish",
    ),
    (
        "mixed",
        "I work at Monzo. How do I ask for a raise?",
        "user works monzo",
        "user;works_at/employer/workplace;Monzo",
    ),
    (
        "mixed",
        "Hi, I'm Kim, a data engineer at Snowflake. Help me tune a slow query.",
        "name kim|user data engineer snowflake",
        "user;works_at/employer/workplace;Snowflake|user;is_a/has_role/role/job;data engineer",
    ),
    (
        "mixed",
        "My son has football on Wednesdays, so plan my week around that.",
        "son football wednesdays",
        "",
    ),
    (
        "mixed",
        "I just got a new puppy! Any training tips?",
        "user new puppy",
        "user;owns/has/adopted/got;puppy",
    ),
    (
        "mixed",
        "I hate mornings lol. Anyway, what's a good breakfast?",
        "user hates mornings",
        "user;dislikes/hates;mornings",
    ),
    (
        "mixed",
        "Good morning! I'm Nora and I teach maths at a secondary school.",
        "name nora|user teaches maths",
        "user;teaches/is_a/has_role/role/job/works_at;maths",
    ),
    (
        "mixed",
        "I'm flying to Rome on Friday. Suggest some things to do there.",
        "user flying rome friday",
        "",
    ),
    ("mixed", "Ugh, my laptop died again. Which one should I buy?", "", ""),
    (
        "mixed",
        "I'm a Python developer. Explain Rust's borrow checker to me.",
        "user python developer",
        "user;is_a/has_role/role/job;Python developer",
    ),
    (
        "mixed",
        "Thanks. Also, my daughter is lactose intolerant.",
        "daughter lactose intolerant",
        "",
    ),
    (
        "mixed",
        "ok cool. i live in austin btw",
        "user lives austin",
        "user;lives_in/home/city;Austin",
    ),
    ("mixed", "Please remind me to call my mother on Sunday.", "", ""),
    ("mixed", "Remind me to buy milk.", "", ""),
    ("mixed", "Can you remember that I take my coffee with oat milk?", "user coffee oat milk", ""),
    ("mixed", "Don't forget I'm left-handed.", "user left-handed", ""),
    (
        "mixed",
        "Suggest a present for my wife, she loves gardening.",
        "wife loves gardening",
        "wife;loves/likes/enjoys;gardening",
    ),
    ("mixed", "I need a new phone. What do you recommend?", "", ""),
    ("mixed", "I want to learn to cook. Where should I start?", "", ""),
    ("mixed", "I think I'll go with the first option.", "", ""),
    ("mixed", "I was wondering if you could help me with my taxes.", "", ""),
    ("mixed", "I need you to rewrite this paragraph.", "", ""),
    ("mixed", "I'd like a recipe for banana bread.", "", ""),
]


def main() -> None:
    turns = []
    for i, (kind, text, facts, rels) in enumerate(ROWS):
        turns.append(
            {
                "id": f"p{i:03d}",
                "fold": "tune" if i % 2 == 0 else "check",
                "kind": kind,
                "text": text,
                "expect": [f.split() for f in facts.split("|") if f],
                "relations": [
                    dict(zip(("s", "r", "o"), (s, r.replace("/", "|"), o), strict=True))
                    for s, r, o in (x.split(";") for x in rels.split("|") if x)
                ],
            }
        )
    doc = {
        "about": (
            "Single user turns as people type them to an assistant behind the chat proxy "
            "(task x25), each labelled with the facts a careful reader keeps (each a list of "
            "lower-case words the fact must hold) and the relations (subject, accepted types "
            "|-separated, target). Requests, questions, greetings without a name, small talk "
            "and thanks keep none. fold: tune = even rows, check = odd rows."
        ),
        "turns": turns,
    }
    OUT.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    print(
        len(turns),
        "turns",
        sum(len(t["expect"]) for t in turns),
        "facts",
        sum(len(t["relations"]) for t in turns),
        "relations",
    )


if __name__ == "__main__":
    main()
