"""Round twenty-two of the new-user pass: a researcher's documents, written for this round
(none of the project's test or bench data).

Seven documents: three PDFs of several pages (a paper, a consulting contract, a product
manual), two Markdown notes, an HTML page (served on 127.0.0.1) and a long meeting
transcript in plain text; 36 questions, most in other words than the answer's sentence,
some about which document or page says something, and 7 that no document answers. Each
answered question names its gold: a phrase of the answer's sentence (a chunk holding it
is the gold chunk), the file, and the page of a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass

# The paper: four pages, one list of lines per page.
PAPER = [
    [
        "Evening Irrigation and Berry Splitting in Coastal Vineyards",
        "M. Okafor, L. Brandt and P. Ishikawa",
        "Working paper, Halden Institute for Viticulture, October 2026",
        "",
        "Abstract",
        "We followed 42 blocks of Albarino vines on three coastal estates over two",
        "seasons and compared drip irrigation scheduled in the evening with the",
        "usual morning schedule. Evening watering reduced berry splitting by 31 percent",
        "in the second season, at the cost of a small rise in powdery mildew on the",
        "lower canopy. Yield per vine did not change in a way we could detect.",
        "",
        "1. Introduction",
        "Berry splitting after late summer rain costs coastal growers a large share of",
        "their crop. Growers usually water at dawn because labour is available then and",
        "because the vines are thought to take up water best before the heat of the day.",
        "Our question was whether the hour of watering changes how the skin of the berry",
        "copes with sudden rises in soil moisture.",
    ],
    [
        "2. Methods",
        "The three estates lie within eleven kilometres of the sea near Porto Seguro.",
        "Each block held between 180 and 240 vines planted in 2011 on SO4 rootstock.",
        "Half of the blocks on each estate were watered between 19:00 and 21:00 and the",
        "other half between 05:00 and 07:00, with the same weekly volume of water.",
        "Soil moisture was logged every fifteen minutes by capacitance probes buried at",
        "thirty and sixty centimetres. We counted split berries on twenty bunches per",
        "block, chosen before veraison by a random number table, every four days.",
        "Mildew was scored on the Horsfall scale by two people who did not know which",
        "schedule a block followed. The statistics used a mixed model with the estate",
        "and the season as random effects.",
    ],
    [
        "3. Results",
        "In the first season the difference between schedules was small and not",
        "significant, because only two heavy rain events fell before harvest. In the",
        "second season there were seven such events, and blocks watered in the evening",
        "had 31 percent fewer split berries than blocks watered in the morning.",
        "Powdery mildew on the lower canopy rose from a mean score of 1.4 to 1.9 under",
        "evening watering; the upper canopy was unaffected. Sugar at harvest and yield",
        "per vine were the same under both schedules within the precision of our counts.",
        "The soil moisture logs show that evening watering keeps the upper thirty",
        "centimetres wetter overnight, so that rain adds less of a sudden jump.",
    ],
    [
        "4. Discussion and limits",
        "We think the smaller jump in soil moisture after rain explains the effect, but",
        "the study did not measure water potential in the berries themselves. Two",
        "seasons on one grape variety is a narrow base; a red variety with thinner skin",
        "may respond more strongly. Growers who switch to evening watering should thin",
        "the leaves around the bunch zone to limit mildew.",
        "",
        "Funding: the Coastal Growers Fund, grant CGF-2024-117.",
        "Correspondence: m.okafor@halden.example",
    ],
]

# The contract: four pages.
CONTRACT = [
    [
        "CONSULTING SERVICES AGREEMENT",
        "",
        "This agreement is made on 3 November 2026 between Northwind Analytics Ltd,",
        "a company registered in England under number 10482231 (the Client), and",
        "Dana Whitfield, trading as Whitfield Research (the Consultant).",
        "",
        "1. Services",
        "The Consultant will review the Client's customer churn models, interview up",
        "to twelve members of the Client's staff, and deliver a written report with",
        "recommendations. The work is described in more detail in Schedule A.",
        "",
        "2. Term",
        "The agreement starts on 9 November 2026 and ends on 26 February 2027 unless",
        "it is ended earlier under clause 8.",
    ],
    [
        "3. Fees",
        "The Client will pay the Consultant a day rate of GBP 850, excluding VAT, for",
        "each full day of work, capped at forty days without the Client's written",
        "approval. Half days are charged at half the day rate.",
        "",
        "4. Invoicing and payment",
        "The Consultant will invoice at the end of each calendar month for the days",
        "worked in that month. The Client will pay each invoice within thirty days of",
        "receiving it. Late payments carry interest at four percent above the Bank of",
        "England base rate.",
        "",
        "5. Expenses",
        "Travel outside London is reimbursed at cost when approved in advance by the",
        "Client's project lead, Priya Raman. Rail travel is standard class.",
    ],
    [
        "6. Confidentiality",
        "The Consultant will keep the Client's data and documents confidential during",
        "the agreement and for three years after it ends, and will delete personal data",
        "received from the Client within fourteen days of delivering the final report.",
        "",
        "7. Intellectual property",
        "The final report and its recommendations belong to the Client once paid for.",
        "The Consultant keeps the rights to her own methods, templates and code written",
        "before the agreement, and grants the Client a licence to use them in the report.",
    ],
    [
        "8. Termination",
        "Either party may end this agreement by giving fifteen working days' notice in",
        "writing. The Client will pay for work done up to the end of the notice period.",
        "",
        "9. Liability",
        "The Consultant's total liability under this agreement is limited to the fees",
        "paid to her in the twelve months before the claim.",
        "",
        "10. Governing law",
        "This agreement is governed by the law of England and Wales, and the courts of",
        "England have exclusive jurisdiction.",
        "",
        "Signed for Northwind Analytics Ltd: Tom Becker, Chief Operating Officer",
        "Signed by the Consultant: Dana Whitfield",
    ],
]

# The manual: three pages.
MANUAL = [
    [
        "AirPure 400 Air Purifier - User Manual",
        "",
        "Safety",
        "Keep the purifier at least thirty centimetres from walls and curtains so the",
        "air inlets on both sides are not blocked. Do not use it in a bathroom or",
        "anywhere it may get wet. Unplug it before you open the rear cover.",
        "",
        "Getting started",
        "Remove the plastic bag from the filter before the first use. Plug in the",
        "purifier and press the power button once. The ring around the display shows",
        "air quality: blue is good, yellow is moderate and red is poor.",
    ],
    [
        "Fan speeds and modes",
        "Press the fan button to step through speeds 1, 2 and 3 and turbo. Auto mode",
        "changes the speed by itself according to the particle sensor. Sleep mode dims",
        "the display and keeps the fan at speed 1, which is quieter than 24 decibels.",
        "Hold the timer button to set the purifier to switch off after 2, 4 or 8 hours.",
        "",
        "Filter care",
        "The pre-filter is washable: rinse it under cold running water every two weeks",
        "and let it dry fully before putting it back. Replace the HEPA filter every",
        "twelve months, or sooner when the filter light turns orange. After fitting a",
        "new filter, hold the filter button for five seconds to reset the reminder.",
    ],
    [
        "Troubleshooting",
        "If the display shows E2, the particle sensor is dusty: clean the sensor window",
        "on the left side with a dry cotton bud. If the purifier makes a rattling noise,",
        "check that the filter sits flat in its frame.",
        "",
        "Warranty",
        "The AirPure 400 has a two year warranty from the date of purchase. Filters are",
        "consumables and are not covered. To claim, contact support@airpure.example",
        "with your serial number, which is on the label under the base.",
    ],
]

FIELDWORK_MD = """# Fieldwork notes, autumn 2026

## Site visits

- **14 October, Quinta do Vale**: the soil probes in block 7 had been chewed by rabbits;
  Ines replaced them with probes in steel sleeves. Rain gauge overflowed on the 12th.
- **21 October, Herdade Alta**: the owner, Rui Calado, wants the evening schedule on all
  his blocks next year. He asked whether the mildew risk can be managed with sulphur.
- **28 October, Casal Novo**: harvest finished two days early; the pickers counted split
  berries by eye, which we cannot use.

## To do

1. Order twelve spare capacitance probes before the end of November; the supplier in
   Braga quotes a six week lead time.
2. Ask Lena for the weather station data from Porto Seguro airport for both seasons.
3. Send the mildew scores to Pedro so he can rerun the mixed model with block as a
   random effect.

## Ideas

The grapes in the corner blocks near the windbreak split less. Could shade from the
cypress hedge slow the drying of the skins? Worth a note in the discussion, not a claim.

A second variety next year: Loureiro is planted at Herdade Alta and has a thinner skin.
"""

READING_MD = """# Reading notes

## Keller, The Science of Grapevines (3rd edition)

Chapter 6 on water relations: berries take in most of their water through the xylem
before veraison and through the phloem after it, which is why late rain splits them.
Keller cites studies where cuticle cracks open within hours of a soil moisture spike.

## Considine and Knox (1979)

The classic paper on berry splitting: they floated berries in water and measured how
long the skin held. Thin-skinned varieties split in half the time of thick-skinned
ones. Good background for the introduction.

## Statistics

For repeated counts on the same bunches a mixed model with a random intercept per
bunch is better than averaging the counts first; averaging throws away the variance
between bunches. Bates et al. on lme4 explain the model syntax.

## Books to buy

- Jackson, Wine Science, 5th edition (library copy is always out)
- Gelman and Hill, Data Analysis Using Regression and Multilevel Models
"""

HTML_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><title>Coastal Growers Fund - Research Grants 2027</title>
<style>body { font-family: sans-serif; }</style>
<script>window.analytics = { id: "cgf-2027" };</script>
</head>
<body>
<nav><a href="/">Home</a> | <a href="/grants">Grants</a> | <a href="/contact">Contact</a></nav>
<h1>Research Grants 2027</h1>
<p>The Coastal Growers Fund supports applied research that helps vineyards near the
sea cope with a changing climate. Grants of up to &euro;60,000 are available for
projects lasting at most two years.</p>
<h2>Who can apply</h2>
<p>Researchers at a university or a public research institute in Portugal, Spain or
France may apply, in partnership with at least one working vineyard. Previous grant
holders may apply again once their final report has been accepted.</p>
<h2>Deadlines</h2>
<p>Applications open on 12 January 2027 and close at 17:00 Lisbon time on
15 March 2027. Decisions are sent by the end of June 2027.</p>
<h2>How to apply</h2>
<p>Submit a proposal of no more than eight pages, a budget table and a letter of
support from the partner vineyard through the online portal. Proposals in English or
Portuguese are accepted.</p>
<h2>Reporting</h2>
<p>Grant holders send a short progress report after twelve months and a final report
within three months of the end of the project.</p>
<footer>&copy; 2026 Coastal Growers Fund. Registered charity 1187765.</footer>
</body>
</html>
"""


def transcript() -> str:
    """The project meeting of 25 November 2026, as a transcription service writes it."""
    lines = [
        "Project meeting - evening irrigation study - 25 November 2026",
        "Present: Maria Okafor, Lukas Brandt, Pia Ishikawa, Ines Duarte, Pedro Saraiva",
        "",
    ]
    said = [
        ("Maria", "Okay, let's start. Thanks everyone for joining on a Wednesday."),
        ("Lukas", "Can everyone hear me? My connection is a bit patchy today."),
        ("Maria", "We can hear you fine. First item is the paper revision."),
        (
            "Pia",
            "The reviewers want the water potential question addressed. I think we "
            "should say plainly that we didn't measure it and propose it for next year.",
        ),
        (
            "Maria",
            "Agreed. Lukas, can you draft that paragraph for the discussion section by "
            "Friday the fourth of December?",
        ),
        ("Lukas", "Yes, I can do that by the fourth."),
        (
            "Pedro",
            "On the statistics, I reran the model with block as a random effect like "
            "Ines asked, and the evening effect is still there, thirty percent instead "
            "of thirty one. So the headline holds.",
        ),
        ("Maria", "Good, that's a relief."),
        (
            "Ines",
            "Second item, the probes. The rabbits got into block seven again. I've put "
            "steel sleeves on all the probes at Quinta do Vale now, and the twelve "
            "spare probes arrive on the eighth of January.",
        ),
        ("Pia", "Is that before or after pruning starts?"),
        (
            "Ines",
            "Pruning starts mid January, so we'll fit them while the crews are there.",
        ),
        (
            "Maria",
            "Third item, money. The Coastal Growers Fund call for 2027 is out. I'd "
            "like us to apply for the Loureiro extension. The cap is sixty thousand "
            "euros.",
        ),
        (
            "Lukas",
            "We'll need a letter from Rui at Herdade Alta then, since the Loureiro blocks are his.",
        ),
        (
            "Maria",
            "I'll ask Rui for the support letter this week. Pia, could you put the "
            "budget table together? Keep it under fifty-five thousand so there's room.",
        ),
        ("Pia", "Sure, I'll have a draft budget before Christmas."),
        ("Pedro", "Sorry, someone's at the door, back in a second."),
        ("Maria", "No problem."),
        (
            "Ines",
            "While Pedro's away: the weather station data from the airport came "
            "through from Lena. It covers both seasons, hourly.",
        ),
        ("Maria", "Great. Put it in the shared drive under raw data please."),
        ("Pedro", "I'm back. Did I miss anything?"),
        ("Maria", "Only the weather data, Ines has it."),
        (
            "Maria",
            "Last item, the consultancy. Dana Whitfield's churn work for Northwind "
            "started on the ninth. She'll be on two days a week, so I'll be less "
            "available on Tuesdays and Thursdays until the end of February.",
        ),
        ("Lukas", "Does that affect the paper timeline?"),
        (
            "Maria",
            "No, I mean Dana's contract is her own; I'm only the reference. I'm "
            "available as usual. Sorry, I mixed that up.",
        ),
        (
            "Pia",
            "One more thing: the mildew on the lower canopy. Rui wants to know if "
            "leaf thinning is enough or if he needs extra sulphur sprays.",
        ),
        (
            "Maria",
            "Tell him leaf thinning around the bunch zone is what we recommend; we "
            "have no data on extra sulphur, so we won't advise on it.",
        ),
        ("Pedro", "Next meeting the same time in two weeks?"),
        ("Maria", "Yes, the ninth of December at ten. Thanks all."),
    ]
    for n, (who, text) in enumerate(said):
        minute, second = divmod(n * 47 + 12, 60)
        lines.append(f"[00:{minute:02d}:{second:02d}] {who}: {text}")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Question:
    """One question: its gold (a phrase of the answer's sentence, the file, a PDF's
    page), or no gold when no document answers it."""

    text: str
    gold: str | None = None
    file: str | None = None
    page: int | None = None
    kind: str = "paraphrase"  # paraphrase | words | which | none


Q = Question
QUESTIONS: list[Question] = [
    # The paper.
    Q(
        "By how much did watering late in the day cut cracked grapes?",
        "31 percent fewer split",
        "paper.pdf",
        3,
    ),
    Q(
        "What was the downside of switching the watering to nightfall?",
        "at the cost of a small rise in powdery mildew",
        "paper.pdf",
        1,
    ),
    Q(
        "How far from the ocean are the estates in the study?",
        "eleven kilometres of the sea",
        "paper.pdf",
        2,
    ),
    Q("Which rootstock were the vines grafted onto?", "SO4 rootstock", "paper.pdf", 2),
    Q(
        "How often did the sensors record how wet the ground was?",
        "every fifteen minutes",
        "paper.pdf",
        2,
    ),
    Q(
        "Why was there no clear difference in the first year?",
        "only two heavy rain events",
        "paper.pdf",
        3,
    ),
    Q(
        "Who paid for the vineyard study?",
        "Coastal Growers Fund, grant CGF-2024-117",
        "paper.pdf",
        4,
    ),
    Q(
        "What should farmers do about fungus if they water in the evening?",
        "thin the leaves around the bunch zone",
        "paper.pdf",
        4,
    ),
    Q(
        "Which page of the irrigation paper describes how bunches were picked for counting?",
        "chosen before veraison by a random number table",
        "paper.pdf",
        2,
        "which",
    ),
    # The contract.
    Q("How much does Whitfield charge per day?", "day rate of GBP 850", "contract.pdf", 2),
    Q("How long does Northwind have to settle a bill?", "within thirty days of", "contract.pdf", 2),
    Q(
        "How much warning is needed to cancel the consulting deal?",
        "fifteen working days",
        "contract.pdf",
        4,
    ),
    Q(
        "When does the consultancy engagement finish?",
        "ends on 26 February 2027",
        "contract.pdf",
        1,
    ),
    Q(
        "How long must the consultant keep things secret after the job?",
        "for three years after it ends",
        "contract.pdf",
        3,
    ),
    Q(
        "Who approves train trips outside the capital?",
        "project lead, Priya Raman",
        "contract.pdf",
        2,
    ),
    Q(
        "What is the most the consultant could owe if something goes wrong?",
        "limited to the fees",
        "contract.pdf",
        4,
    ),
    Q(
        "Which document says who owns the final report, and on which page?",
        "belong to the Client once paid for",
        "contract.pdf",
        3,
        "which",
    ),
    # The manual.
    Q(
        "How often should I swap the main filter in the air cleaner?",
        "every\ntwelve months",
        "manual.pdf",
        2,
    ),
    Q(
        "What does error E2 mean on the purifier?",
        "the particle sensor is dusty",
        "manual.pdf",
        3,
        "words",
    ),
    Q(
        "How do I clear the filter warning after a replacement?",
        "hold the filter button for five seconds",
        "manual.pdf",
        2,
    ),
    Q("How long is the guarantee on the AirPure?", "two year warranty", "manual.pdf", 3),
    Q(
        "How much room should the machine have around it?",
        "thirty centimetres from walls",
        "manual.pdf",
        1,
    ),
    Q("What colour means the air is bad?", "red is poor", "manual.pdf", 1),
    # The Markdown notes.
    Q("What damaged the sensors at Quinta do Vale?", "chewed by rabbits", "fieldwork.md"),
    Q("How long does the Braga supplier take to deliver?", "six week lead time", "fieldwork.md"),
    Q(
        "Why might the grapes near the trees by the windbreak crack less?",
        "cypress hedge slow the drying",
        "fieldwork.md",
    ),
    Q(
        "Through which vessel do grapes take in water after veraison?",
        "through the phloem after it",
        "reading.md",
    ),
    Q(
        "Which old study soaked grapes to test their skins?",
        "floated berries in water",
        "reading.md",
    ),
    # The web page.
    Q("What is the maximum grant from the growers' fund?", "up to €60,000", "grants"),
    Q("When is the last day to submit a grant proposal?", "15 March 2027", "grants"),
    Q("How many pages may a funding application run to?", "no more than eight pages", "grants"),
    # The transcript.
    Q(
        "When is Lukas due to hand in his paragraph about water potential?",
        "by Friday the fourth of December",
        "transcript.txt",
    ),
    Q(
        "Did the result survive the reanalysis with block as a random effect?",
        "still there, thirty percent",
        "transcript.txt",
    ),
    Q(
        "When will the replacement probes turn up?",
        "arrive on the eighth of January",
        "transcript.txt",
    ),
    Q(
        "Who is going to get the letter from the Herdade Alta owner?",
        "I'll ask Rui for the support letter",
        "transcript.txt",
    ),
    Q("When does the team meet next?", "the ninth of December at ten", "transcript.txt"),
    # Nothing answers these.
    Q("What is the pH of the soil at Casal Novo?", kind="none"),
    Q("How many vines does the study's red variety have?", kind="none"),
    Q("What is the purifier's power consumption in watts?", kind="none"),
    Q("What is Dana Whitfield's phone number?", kind="none"),
    Q("Which journal accepted the irrigation paper?", kind="none"),
    Q("How much did the capacitance probes cost?", kind="none"),
    Q("What time does the Lisbon office of the fund open?", kind="none"),
]

#: Fold B: other questions about the same documents, written after the mechanism was
#: built and run once (nothing was tuned on either fold).
QUESTIONS_B: list[Question] = [
    Q("What grape variety was studied?", "42 blocks of Albarino vines", "paper.pdf", 1),
    Q("How deep were the moisture sensors placed?", "thirty and sixty centimetres", "paper.pdf", 2),
    Q("How was the fungus graded?", "scored on the Horsfall scale", "paper.pdf", 2),
    Q(
        "Did sweetness of the fruit differ between the schedules?",
        "Sugar at harvest",
        "paper.pdf",
        3,
    ),
    Q("Which company hired the consultant?", "Northwind Analytics Ltd", "contract.pdf", 1),
    Q("What happens if Northwind pays late?", "interest at four percent", "contract.pdf", 2),
    Q(
        "What must the consultant do with personal information at the end?",
        "delete personal data",
        "contract.pdf",
        3,
    ),
    Q(
        "Which country's law applies to the agreement?",
        "law of England and Wales",
        "contract.pdf",
        4,
    ),
    Q("How quiet is the purifier at night?", "quieter than 24 decibels", "manual.pdf", 2),
    Q(
        "How do I clean the reusable pre-filter?",
        "rinse it under cold running water",
        "manual.pdf",
        2,
    ),
    Q("Where do I find the serial number?", "on the label under the base", "manual.pdf", 3),
    Q(
        "What should I check if the machine rattles?",
        "filter sits flat in its frame",
        "manual.pdf",
        3,
    ),
    Q("Who runs Herdade Alta?", "the owner, Rui Calado", "fieldwork.md"),
    Q(
        "Which statistics reference explains the model syntax?",
        "Bates et al. on lme4",
        "reading.md",
    ),
    Q("Which countries' researchers are eligible for the grant?", "Portugal, Spain or", "grants"),
    Q("In which languages can a proposal be written?", "English or Portuguese", "grants"),
    Q("When are grant holders told the outcome?", "end of June 2027", "grants"),
    Q(
        "How much should the grant budget stay under?",
        "under fifty-five thousand",
        "transcript.txt",
    ),
    Q(
        "Where should the airport weather data be filed?",
        "shared drive under raw data",
        "transcript.txt",
    ),
    Q(
        "Should Rui spray more sulphur against mildew?",
        "no data on extra sulphur",
        "transcript.txt",
    ),
    Q("What is the grant's reference number at the funder's bank?", kind="none"),
    Q("How much does a replacement HEPA filter cost?", kind="none"),
    Q("Who peer-reviewed the consulting report?", kind="none"),
]
