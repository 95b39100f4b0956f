"""Task junk32: writes src/engram/data/junk32.json, a fresh held-out fold of mined chats.

Six chats of 30 messages between a user and an assistant, in domains and voices no
earlier set used (a nurse's shift swaps, a band's tour, a small deli's suppliers, a PhD
student's experiments, a landlord's repairs, a gamer's setup), with the assistant's
"Noted: ..." / "Got it, ..." / "Updated ..." replies, requests, questions, hedges,
reported speech ("Colette says ...", "callum reckons ..."), negations ("no longer",
"not ... anymore"), times and numbers with units, and a few real changes. Written and
labelled by hand for this task, before any rule changed; never tuned on.

Each chat carries, as x22's ``mined_chats.json`` does, the relations a careful reader
records (``relations``: s, r, o; r lists accepted types, ``|``-separated, and s may list
accepted subjects the same way; subject "user" is the chat's user) and the statements
that should give none (``no_relation``, each a piece of one turn); and beside them
``allowed`` (relations a reader accepts without asking for them: not junk, not counted
in recall), ``facts`` (each a list of words one pipeline fact must hold: counted in
recall), ``facts_ok`` (facts accepted, not asked for) and ``no_fact`` (requests,
questions and thanks, pieces of a turn that must give no fact). Scored by
``scripts/junk32_measure.py``.

    python scripts/junk32_write_set.py
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "data" / "junk32.json"


def rel(s: str, r: str, o: str) -> dict[str, str]:
    return {"s": s, "r": r, "o": o}


def chat(
    cid: str,
    topic: str,
    turns: list[str],
    relations: list[dict[str, str]],
    allowed: list[dict[str, str]],
    no_relation: list[str],
    facts: list[list[str]],
    facts_ok: list[list[str]],
    no_fact: list[str],
) -> dict[str, Any]:
    # turns alternate user, assistant, starting with the user
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": t} for i, t in enumerate(turns)
    ]
    text = " ".join(turns)
    for piece in no_relation + no_fact:
        assert piece in text, piece
    return {
        "id": cid,
        "fold": "held",
        "topic": topic,
        "messages": messages,
        "relations": relations,
        "allowed": allowed,
        "no_relation": no_relation,
        "facts": facts,
        "facts_ok": facts_ok,
        "no_fact": no_fact,
    }


USE = "uses|has|owns|bought|buys|buys_from|supplier|supplied_by"

CHATS = [
    chat(
        "nurse",
        "a ward nurse's shift swaps",
        [
            "hi, I'm a nurse on the cardiac ward at St Thomas' and I need to sort out my shift"
            " swaps for december",
            "Happy to help. How many shifts are you trying to swap?",
            "three. I'm on nights from the 8th to the 11th. My ward manager is Colette.",
            "Noted: nights from the 8th to the 11th, and Colette is your ward manager.",
            "Colette says I can swap if someone covers, but she wants it in writing by Friday.",
            "Got it, a written request to Colette by Friday.",
            "my friend Tunde works on the same ward. He lives in Peckham.",
            "That's handy. Would Tunde want a shift back in return?",
            "probably, he's saving for a holiday so he likes extra nights tbh",
            "Updated: Tunde may take the 9th.",
            "Could you draft the email to Colette for me?",
            "Sure: 'Hi Colette, I'd like to swap my night shift on the 9th with Tunde ...'",
            "I no longer work the weekend rota, that stopped in October.",
            "Noted, no weekend rota since October.",
            "I drive to work in a Toyota Yaris. Parking at the hospital is £12 a day which is mad.",
            "That adds up. Is there a staff permit?",
            "maybe? I think the permit is only for band 6 and above. I'm band 5.",
            "Got it, band 5.",
            "My sister Kemi is a midwife in Lewisham.",
            "Interesting. Is parking easier there?",
            "she says the permits there are way cheaper lol",
            "Worth asking HR about it.",
            "I start at 7:30 pm and finish at 8 am on nights.",
            "Noted: 7:30 pm to 8 am.",
            "What time should I sleep before the first night?",
            "Many nurses nap from about 1 pm to 5 pm before a first night.",
            "ok. I'm not on the sepsis working group anymore btw, too much with nights.",
            "Updated: off the sepsis working group.",
            "also my daughter Zara starts nursery on 5 January, so I need days from then."
            " Remind me to message Tunde tomorrow at 10 am.",
            "Noted: Zara starts nursery on 5 January. Reminder set for 10 am tomorrow.",
        ],
        [
            rel("user", "works_at|employer|workplace|works_on", "St Thomas'"),
            rel("user", "manager|reports_to|boss|ward_manager", "Colette"),
            rel("user", "friend|colleague|knows", "Tunde"),
            rel("Tunde", "lives_in|home|based_in", "Peckham"),
            rel("user", "drives|owns|has|uses|car", "Toyota Yaris"),
            rel("user", "sister|sibling", "Kemi"),
            rel("Kemi", "is_a|role|has_role|works_as|job", "midwife"),
            rel("user", "daughter|child|kid", "Zara"),
        ],
        [
            rel("user", "is_a|role|has_role|works_as|job", "nurse"),
            rel("Kemi", "works_in|works_at|lives_in|based_in", "Lewisham"),
            rel("user", "band|grade|is_a|is", "band 5"),
            rel("Zara", "attends|starts|goes_to|starts_at", "nursery"),
            rel("Tunde", "works_on|works_at", "same ward"),
            rel("Tunde", "likes|prefers", "extra nights"),
        ],
        [
            "Colette says I can swap if someone covers",
            "Could you draft the email to Colette for me?",
            "I no longer work the weekend rota",
            "maybe? I think the permit is only for band 6",
            "she says the permits there are way cheaper",
            "I start at 7:30 pm and finish at 8 am",
            "What time should I sleep before the first night?",
            "I'm not on the sepsis working group anymore",
        ],
        [
            ["nights", "8th", "11th"],
            ["manager", "colette"],
            ["tunde", "ward"],
            ["tunde", "peckham"],
            ["toyota yaris"],
            ["parking", "£12"],
            ["band 5"],
        ],
        [
            ["permit", "band 6"],
            ["zara", "nursery", "5 january"],
        ],
        ["Remind me to message Tunde"],
    ),
    chat(
        "band",
        "a band's UK tour, booked by its bass player",
        [
            "yo. our band Static Orchard is doing a UK tour in march and I'm the one doing the"
            " bookings",
            "Sounds fun! How many dates so far?",
            "six. The London show is at the Lexington on 21 March.",
            "Noted: six dates, London at the Lexington on 21 March.",
            "I play bass. Our drummer is Finn and he does all the van driving.",
            "Got it, Finn drives.",
            "we rent a Ford Transit from a place in Hackney, it's £95 a day",
            "Noted: a Transit at £95 a day.",
            "Finn reckons we should get a bigger van but honestly the Transit is fine",
            "Fair enough, it fits most small bands.",
            "our manager is no longer Dee, she left in the summer. we manage ourselves now.",
            "Updated: no manager since the summer.",
            "Can you work out the driving times between the cities?",
            "Glasgow to Leeds is about 4 hours, Leeds to Bristol about 3.5 hours.",
            "oof. Bristol to Brighton is like 3 hours too right?",
            "About 3 hours, yes.",
            "our singer Maya is vegan so the riders need vegan options. She also hates early"
            " load-ins.",
            "Noted: vegan options for Maya.",
            "merch is mostly t-shirts, we print them with Kiwi Screenprint in Sheffield",
            "Got it, Kiwi Screenprint.",
            "I use Ableton for the backing tracks, been on it full time since 2022",
            "Noted.",
            "we're not signed to Bella Union anymore, we went independent in August",
            "Updated: independent since August.",
            "is it worth getting tour insurance?",
            "Usually yes, for the gear especially.",
            "ok. the van holds 9 people max and we're 5 plus a sound guy. Our sound guy is"
            " called Ravi, he lives in Walthamstow.",
            "Plenty of room then. Noted: Ravi on sound.",
            "please remind me to pay the deposit for the Lexington by Monday",
            "I'll remind you on Monday.",
        ],
        [
            rel("user", "member_of|plays_in|band|in_band|has_band", "Static Orchard"),
            rel("user", "plays|instrument|plays_bass|uses", "bass"),
            rel("user|Static Orchard|band", "drummer|bandmate|member", "Finn"),
            rel("user", "rents|uses|hires|has|owns|van", "Ford Transit"),
            rel("user|Static Orchard|band", "singer|bandmate|member", "Maya"),
            rel("Maya", "is_a|diet|is", "vegan"),
            rel("user|Static Orchard|band|merch", USE + "|prints_with|printer", "Kiwi Screenprint"),
            rel("user", "uses|daw", "Ableton"),
            rel("user|Static Orchard|band", "sound_guy|engineer|sound|member|crew", "Ravi"),
            rel("Ravi", "lives_in|home|based_in", "Walthamstow"),
        ],
        [
            rel("Kiwi Screenprint", "based_in|located_in|lives_in|in", "Sheffield"),
            rel("London show|show|user|Static Orchard", "venue|at|plays_at|booked", "Lexington"),
            rel("Maya", "dislikes|hates", "early load-ins"),
            rel("Finn", "drives|does", "van driving"),
            rel("user", "is_a|role", "bass"),
        ],
        [
            "Finn reckons we should get a bigger van",
            "our manager is no longer Dee",
            "Can you work out the driving times",
            "Bristol to Brighton is like 3 hours too right?",
            "we're not signed to Bella Union anymore",
            "is it worth getting tour insurance?",
            "please remind me to pay the deposit",
        ],
        [
            ["lexington", "21 march"],
            ["bass"],
            ["drummer", "finn"],
            ["maya", "vegan"],
            ["maya", "load-ins"],
            ["van", "9 people"],
            ["sound guy", "ravi"],
        ],
        [
            ["ravi", "walthamstow"],
            ["static orchard", "tour"],
            ["manage", "ourselves"],
            ["team manages"],
            ["dee", "left"],
        ],
        [
            "Bristol to Brighton is like 3 hours too right?",
            "please remind me to pay the deposit",
            "is it worth getting tour insurance?",
        ],
    ),
    chat(
        "deli",
        "a small deli's suppliers, told by its owner",
        [
            "Hello. I run a small deli in Frome called Pantry & Crumb. I'd like help keeping"
            " track of my suppliers.",
            "Of course. Who are your main suppliers?",
            "Cheese comes from Westcombe Dairy. They deliver on Tuesdays.",
            "Noted: Westcombe Dairy, Tuesday deliveries.",
            "Bread is from Hartley's Bakery, but we no longer buy their sourdough, only the rye.",
            "Got it: Hartley's for rye.",
            "Our coffee beans are from Round Hill Roastery, 6 kg a fortnight.",
            "Noted: 6 kg every two weeks from Round Hill.",
            "The olive oil supplier changed. We switched from Belazu to Olive Branch Imports"
            " last month.",
            "Updated: Olive Branch Imports for olive oil.",
            "My business partner is Graham. He handles the accounts and uses Xero.",
            "Noted.",
            "Graham thinks we should drop the chutneys, they don't sell.",
            "Worth checking the sales figures first.",
            "Could you suggest a way to compare supplier prices each month?",
            "A simple spreadsheet with one row per product and a column per month works well.",
            "We close at 5:30 pm on weekdays and 3 pm on Saturdays.",
            "Noted: 5:30 pm weekdays, 3 pm Saturdays.",
            "The chiller is a Foster EcoPro. It was serviced in September.",
            "Got it.",
            "I'm not sure whether to keep the Sunday opening. Maybe for the summer only.",
            "It depends on footfall.",
            "Our part-time assistant Lucy works Thursdays to Saturdays.",
            "Noted: Lucy, Thursday to Saturday.",
            "The card machine is from SumUp, the fees are 1.69% per transaction.",
            "Updated: SumUp at 1.69%.",
            "What should I say to Hartley's about the late deliveries?",
            "Be specific: the dates, the times, and what you need from them.",
            "Thank you. That's all for today.",
            "You're welcome.",
        ],
        [
            rel("user", "runs|owns|has|has_deli|deli", "Pantry & Crumb"),
            rel("user|Pantry & Crumb|cheese|deli", USE + "|comes_from|from", "Westcombe Dairy"),
            rel("user|Pantry & Crumb|bread|deli", USE + "|comes_from|from", "Hartley's Bakery"),
            rel("user|Pantry & Crumb|coffee beans|deli", USE + "|from", "Round Hill Roastery"),
            rel("user|Pantry & Crumb|deli", USE + "|switched_to", "Olive Branch Imports"),
            rel("user", "partner|business_partner|co_owner", "Graham"),
            rel("Graham", "uses", "Xero"),
            rel("user|Pantry & Crumb|deli", "assistant|employee|staff|employs", "Lucy"),
            rel("user|Pantry & Crumb|deli|card machine", USE, "SumUp"),
        ],
        [
            rel("Pantry & Crumb|deli", "located_in|based_in|in|lives_in", "Frome"),
            rel("user", "lives_in|based_in|works_in|works_at", "Frome"),
            rel("user|chiller|Pantry & Crumb|deli", "is_a|uses|has|owns|chiller", "Foster EcoPro"),
            rel("user", "buys|uses", "rye"),
            rel("Lucy", "works|works_on", "Thursdays to Saturdays"),
        ],
        [
            "Graham thinks we should drop the chutneys",
            "Could you suggest a way to compare supplier prices",
            "We close at 5:30 pm on weekdays",
            "I'm not sure whether to keep the Sunday opening",
            "What should I say to Hartley's about the late deliveries?",
            "Thank you. That's all for today.",
        ],
        [
            ["deli", "frome"],
            ["westcombe dairy"],
            ["tuesdays"],
            ["olive branch imports"],
            ["partner", "graham"],
            ["graham", "xero"],
            ["foster ecopro"],
            ["serviced", "september"],
        ],
        [
            ["olive oil supplier", "changed"],
            ["not sure", "sunday opening"],
            ["help", "suppliers"],
            ["graham", "accounts"],
        ],
        ["Thank you. That's all for today."],
    ),
    chat(
        "phd",
        "a PhD student's experiments",
        [
            "I'm a second-year PhD student in materials science at Imperial, working on"
            " perovskite solar cells.",
            "That's a busy field! What are you working on right now?",
            "My supervisor is Prof. Lindqvist. We meet every other Wednesday at 2 pm.",
            "Noted: Prof. Lindqvist, alternate Wednesdays at 2 pm.",
            "I anneal the films at 150 °C for 10 minutes, but I think 120 °C might be better.",
            "Got it, 150 °C for 10 minutes for now.",
            "We use a Keithley 2400 for the J-V curves. The glovebox is shared with the Haque"
            " group.",
            "Noted.",
            "My labmate Oskar says the humidity in the lab ruins everything in summer.",
            "Humidity is a known problem for perovskites.",
            "I no longer use chlorobenzene as the antisolvent; I moved to ethyl acetate in"
            " October.",
            "Updated: ethyl acetate since October.",
            "Can you help me plan a 3x3 factorial design for annealing time and temperature?",
            "Sure: three levels of each, nine runs, with repeats of the centre point.",
            "I write everything in LaTeX with Overleaf, and I analyse data in Python with pandas.",
            "Noted: Overleaf and pandas.",
            "The best cell so far hit 19.2% efficiency. My target for the thesis is 21%.",
            "That's a solid result.",
            "Oskar is from Malmö and he's a postdoc, not a student.",
            "Got it.",
            "I'm not presenting at MRS Spring anymore, the abstract got rejected.",
            "Sorry to hear that. There are other meetings.",
            "Should I submit to the nanoGe fall meeting instead?",
            "It's a good venue for perovskite work.",
            "My funding is from an EPSRC DTP and it ends in September 2027.",
            "Noted: EPSRC DTP until September 2027.",
            "I'd rather not work weekends but the deadlines probably mean I will.",
            "Try to keep at least one day off.",
            "Remind me to book the XRD slot for Thursday morning.",
            "Reminder set.",
        ],
        [
            rel("user", "studies_at|attends|works_at|student_at|studies|phd_at", "Imperial"),
            rel("user", "supervisor|advisor|supervised_by", "Lindqvist"),
            rel("user", "uses|has", "Keithley 2400"),
            rel("user", "labmate|colleague|knows|friend", "Oskar"),
            rel("user", "uses|switched_to|moved_to|antisolvent", "ethyl acetate"),
            rel("user", "uses|writes_in|editor", "Overleaf"),
            rel("user", "uses", "pandas"),
            rel("Oskar", "from|lives_in|born_in|nationality|home", "Malmö"),
            rel("Oskar", "is_a|role|has_role|works_as|job", "postdoc"),
            rel("user", "funded_by|funding|funder|has", "EPSRC DTP"),
        ],
        [
            rel("user", "is_a|role|has_role|studies", "PhD student"),
            rel("user", "studies|works_on|researches|studied", "materials science"),
            rel("user", "works_on|researches|studies", "perovskite solar cells"),
            rel("user", "uses|writes_in", "LaTeX"),
            rel("user", "uses", "Python"),
            rel("glovebox", "shared_with", "Haque group"),
        ],
        [
            "My labmate Oskar says the humidity",
            "I anneal the films at 150 °C",
            "Can you help me plan a 3x3 factorial design",
            "The best cell so far hit 19.2% efficiency",
            "I'm not presenting at MRS Spring anymore",
            "Should I submit to the nanoGe fall meeting instead?",
            "I'd rather not work weekends",
            "Remind me to book the XRD slot",
        ],
        [
            ["supervisor", "lindqvist"],
            ["wednesday", "2 pm"],
            ["keithley 2400"],
            ["glovebox", "haque"],
            ["19.2%"],
            ["target", "21%"],
        ],
        [
            ["ethyl acetate"],
            ["chlorobenzene"],
            ["overleaf"],
            ["pandas"],
            ["oskar", "malmö"],
            ["oskar", "postdoc"],
            ["epsrc"],
            ["150 °c"],
        ],
        ["Remind me to book the XRD slot", "Should I submit to the nanoGe"],
    ),
    chat(
        "landlord",
        "a landlord's repairs on two flats",
        [
            "I'm a landlord with two flats in Cardiff, one on Clive Road and one in Splott.",
            "How can I help with them?",
            "The Clive Road tenant is Mrs Aziz. Her boiler broke again on Sunday.",
            "Noted: a boiler fault at Clive Road.",
            "My plumber is Gethin Price. He charges £60 an hour plus parts.",
            "Got it, Gethin at £60 an hour.",
            "Gethin says the boiler is a Baxi from 2009 and should be replaced.",
            "A 2009 boiler is near the end of its life.",
            "Get me three quotes for a new combi boiler please.",
            "I can't contact installers, but here is how to ask for comparable quotes.",
            "The Splott flat has been empty since the tenants left in November. I use OpenRent"
            " to advertise.",
            "Noted: Splott vacant, advertised on OpenRent.",
            "The rent there is £825 a month.",
            "Updated.",
            "I no longer use Hafod Lettings, their fees were 12%.",
            "Noted.",
            "Damp in the Splott bathroom again. I think it's the extractor fan, not sure.",
            "A weak fan is a common cause.",
            "My son Rhodri helps with the gardens. He lives in Penarth.",
            "Got it.",
            "The gas safety certificate for Clive Road expires on 3 February.",
            "Noted: gas safety expiry 3 February.",
            "What's the notice period for a section 21 these days?",
            "Wales has its own rules now, under the Renting Homes Act.",
            "Mrs Aziz has a cat, which is fine by me.",
            "Noted.",
            "I bank with Nationwide and the rent goes into a separate account.",
            "Sensible.",
            "Don't let me forget the smoke alarm checks on the 1st.",
            "I'll remind you on the 1st.",
        ],
        [
            rel("user|Clive Road", "tenant|has_tenant|landlord_of", "Aziz"),
            rel("user", "plumber|uses|has", "Gethin Price"),
            rel("user", "uses|advertises_on", "OpenRent"),
            rel("user", "son|child|kid", "Rhodri"),
            rel("Rhodri", "lives_in|home|based_in", "Penarth"),
            rel("Aziz|Mrs Aziz", "owns|has|pet|has_pet", "cat"),
            rel("user", "banks_with|uses|bank", "Nationwide"),
        ],
        [
            rel("user", "owns|has|landlord_of", "flats"),
            rel("user", "owns|has|lives_in|based_in", "Cardiff"),
            rel("boiler", "is_a|is|brand", "Baxi"),
            rel("Rhodri", "helps_with|helps", "gardens"),
            rel("user", "is_a|role", "landlord"),
        ],
        [
            "Gethin says the boiler is a Baxi",
            "Get me three quotes",
            "The rent there is £825 a month.",
            "I no longer use Hafod Lettings",
            "Damp in the Splott bathroom again",
            "The gas safety certificate for Clive Road expires",
            "What's the notice period for a section 21",
            "Don't let me forget the smoke alarm checks",
        ],
        [
            ["tenant", "aziz"],
            ["boiler", "broke"],
            ["plumber", "gethin"],
            ["£60"],
            ["splott", "empty"],
            ["openrent"],
            ["rhodri", "gardens"],
            ["rhodri", "penarth"],
        ],
        [
            ["extractor fan"],
            ["damp"],
            ["nationwide"],
        ],
        ["Get me three quotes", "Don't let me forget"],
    ),
    chat(
        "gamer",
        "a gamer's new PC and stream setup",
        [
            "ok so i finally built my new pc. ryzen 7 7800x3d and a 4070 super",
            "Nice build! What are you playing on it?",
            "mostly valorant and baldur's gate 3. my monitor is a 27 inch 1440p at 165hz",
            "Noted: a 27-inch 1440p 165 Hz monitor.",
            "i stream on twitch as nightjar_tv, like 3 nights a week",
            "Got it, nightjar_tv on Twitch.",
            "my mate Callum plays valorant with me, he's plat 2. he lives in dundee",
            "Noted.",
            "im not using the razer headset anymore, switched to a hyperx cloud ii",
            "Updated: HyperX Cloud II.",
            "can u recommend a good mic arm?",
            "The Elgato Wave Mic Arm LP is popular and low profile.",
            "my keyboard is a keychron q1 with brown switches",
            "Noted.",
            "callum reckons i should get a stream deck but idk",
            "It helps with scene switching and sound effects.",
            "i use obs for streaming and discord for voice",
            "Got it: OBS and Discord.",
            "my internet is virgin media 500 mbps, upload is only 50 tho",
            "50 Mbps up is enough for 1080p60.",
            "my sens is 0.35 at 800 dpi lol",
            "That's a common Valorant setting.",
            "whats a good bitrate for 1080p on twitch?",
            "About 6000 kbps.",
            "i work as a barista during the week so i only stream evenings. i'm in Edinburgh.",
            "Noted: evenings only, Edinburgh.",
            "gf is called Hana, she hates valorant lmao",
            "Ha, noted.",
            "set a reminder for the tourney on saturday at 6pm",
            "Reminder set for Saturday at 6pm.",
        ],
        [
            rel("user", "owns|has|uses|built|cpu", "7800x3d"),
            rel("user", "owns|has|uses|built|gpu", "4070 super"),
            rel("user", "plays|likes|plays_game", "valorant"),
            rel("user", "streams_on|uses|streams", "twitch"),
            rel("user", "friend|mate|knows", "Callum"),
            rel("Callum", "lives_in|home|based_in", "dundee"),
            rel("user", "uses|owns|has|headset|switched_to", "hyperx cloud ii"),
            rel("user", "uses|owns|has|keyboard", "keychron q1"),
            rel("user", "uses", "obs"),
            rel("user", "uses", "discord"),
            rel("user", "works_as|is_a|role|job|has_role", "barista"),
            rel("user", "lives_in|home|based_in", "Edinburgh"),
            rel("user", "girlfriend|partner|gf", "Hana"),
        ],
        [
            rel("user", "plays|likes|plays_game", "baldur's gate 3"),
            rel("user", "owns|has|uses|monitor", "27 inch"),
            rel("user", "username|handle|known_as|streams_as", "nightjar_tv"),
            rel("Callum", "plays|likes", "valorant"),
            rel("Callum", "rank|is", "plat 2"),
            rel("Hana", "dislikes|hates", "valorant"),
            rel("user", "uses|internet|isp|has", "virgin media"),
            rel("user", "owns|has|built", "pc"),
        ],
        [
            "can u recommend a good mic arm?",
            "callum reckons i should get a stream deck",
            "my sens is 0.35 at 800 dpi lol",
            "whats a good bitrate for 1080p on twitch?",
            "set a reminder for the tourney",
        ],
        [
            ["monitor", "1440p"],
            ["callum", "valorant"],
            ["callum", "dundee"],
            ["barista"],
            ["edinburgh"],
        ],
        [
            ["built", "pc"],
            ["valorant", "baldur"],
            ["callum", "plat 2"],
            ["stream", "evenings"],
        ],
        ["whats a good bitrate", "set a reminder for the tourney"],
    ),
]


def main() -> None:
    data = {
        "about": (
            "Task junk32: a fresh held-out fold of six mined chats (30 messages each) in new"
            " domains and voices, labelled by hand before any rule changed: relations a"
            " careful reader records (s, r, o; r and s list accepted values, '|'-separated;"
            " 'user' is the chat's user), relations accepted but not asked for (allowed),"
            " statements that give no relation, facts (each a list of words one fact holds),"
            " facts accepted but not asked for (facts_ok) and pieces that give no fact"
            " (no_fact: requests, questions, thanks). Scored by scripts/junk32_measure.py."
        ),
        "chats": CHATS,
    }
    OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    turns = sum(len(c["messages"]) for c in CHATS)
    labels = sum(len(c["relations"]) for c in CHATS)
    facts = sum(len(c["facts"]) for c in CHATS)
    print(f"wrote {OUT}: {len(CHATS)} chats, {turns} messages, {labels} relations, {facts} facts")


if __name__ == "__main__":
    main()
