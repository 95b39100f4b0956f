"""Round twenty-five of the new-user pass: fold C, other documents than folds A and B
(written for this round, before any code change; none of the project's test or bench
data).

A small bakery's owner keeps her papers in engram: a five-page shop lease (PDF) whose
parties are named on page 1 only (later pages say "the Landlord" and "the Tenant"), a
three-page food-safety inspection report (PDF; the inspector and the business named on
page 1), a long Markdown note of supplier and recipe decisions (several chunks) and a
plain-text call transcript with the accountant. Questions in other words than the
answer's sentence, some naming a party that only page 1 names, and questions no
document answers (about the same topics, so they meet a near chunk).
"""

from __future__ import annotations

from dogfood22_cases import Question

LEASE = [
    [
        "COMMERCIAL LEASE",
        "",
        "Dated 14 August 2026",
        "",
        "Parties",
        "Landlord: Harrowgate Estates Limited, 2 Mill Yard, Leeds LS1 4BT.",
        "Tenant: Juniper Loaf Bakery Ltd, trading as Juniper Loaf, company 13377420.",
        "Guarantor: Olwen Pryce, director of the Tenant.",
        "",
        "Premises",
        "The ground floor shop and rear kitchen at 41 Calder Row, Leeds, shown edged red",
        "on the attached plan, with the right to use the shared yard for deliveries.",
    ],
    [
        "1. Term and rent",
        "The term is ten years from 1 September 2026. The rent is GBP 23,400 a year,",
        "paid in equal instalments on the usual quarter days in advance. The first",
        "four months of the term are rent free while the Tenant fits out the kitchen.",
        "",
        "2. Rent review",
        "The rent is reviewed on the fifth anniversary of the start of the term to the",
        "higher of the rent then payable and the open market rent. If the parties do",
        "not agree the new rent within three months, an independent surveyor appointed",
        "by the president of the RICS decides it.",
    ],
    [
        "3. Deposit",
        "The Tenant pays a deposit equal to six months' rent on signing. The Landlord",
        "keeps it in a separate account and returns it, less any sums owed, within",
        "sixty days after the end of the term.",
        "",
        "4. Repairs",
        "The Tenant keeps the inside of the premises in good repair, including the shop",
        "front glass. The Landlord repairs the roof, the outside walls and the drains",
        "shared with the neighbouring unit.",
    ],
    [
        "5. Use",
        "The premises may be used as a bakery and cafe only. Baking ovens may run",
        "between 04:00 and 22:00. Any change of use needs the Landlord's written consent,",
        "which will not be unreasonably withheld.",
        "",
        "6. Alterations and signs",
        "The Tenant may put up a sign above the shop front of a design first approved",
        "in writing. An extraction flue through the rear wall is permitted if it meets",
        "the council's odour guidance.",
    ],
    [
        "7. Break clause",
        "The Tenant may end this lease on the fourth anniversary of the term by giving",
        "at least nine months' written notice, provided the rent is paid up to date.",
        "",
        "8. Insurance",
        "The Landlord insures the building and recovers the premium from the Tenant",
        "in proportion to the floor area it occupies.",
        "",
        "Signed for the Landlord: Gareth Imrie, director",
        "Signed for the Tenant: Olwen Pryce, director",
    ],
]

INSPECTION = [
    [
        "Food Hygiene Inspection Report",
        "",
        "Business: Juniper Loaf, 41 Calder Row, Leeds",
        "Food business operator: Olwen Pryce",
        "Inspecting officer: Samir Haddad, Leeds City Council Environmental Health",
        "Date of visit: 3 November 2026 (unannounced)",
        "",
        "Summary",
        "Rating awarded: 4 (good). The kitchen was clean and well organised. Two matters",
        "need attention before the next visit; they are set out on the following pages.",
    ],
    [
        "Findings",
        "Cooling: custard for the fruit tarts was left to cool on the bench for about",
        "three hours. Cooked fillings must be brought below 8 C within ninety minutes,",
        "for example in a blast chiller or shallow trays in the walk-in fridge.",
        "",
        "Allergens: the allergen matrix did not list sesame for the seeded rye loaf.",
        "The matrix must be updated and staff shown the change.",
        "",
        "Pest control: no sign of activity. The contractor's last visit was on",
        "12 October and bait stations were mapped.",
    ],
    [
        "Actions required",
        "1. Buy or arrange rapid cooling equipment and record cooling times daily.",
        "2. Correct the allergen matrix within seven days and keep the old copy.",
        "",
        "Revisit",
        "A rescore visit may be requested once both actions are done; the fee is",
        "GBP 190. Otherwise the next routine inspection is due within eighteen months.",
        "",
        "Right of appeal: within twenty-one days to the council's food team manager.",
    ],
]

SUPPLIERS_MD = """# Suppliers and recipes: decisions log

## Flour

We moved the bread flour to Aire Valley Mill in September. Their stoneground strong
white comes in 16 kg sacks and costs a little more than the wholesaler's, but the dough
takes water better: the sourdough now runs at 78 percent hydration instead of 72. The
rye still comes from the wholesaler because the mill only grinds wheat and spelt.
Delivery is every Tuesday; the order has to be in by Friday noon or it slips a week.

## Butter and dairy

The croissant butter is an 82 percent fat sheet butter from Dalesford Creamery. We
tried a cheaper block butter for two weeks in October and the lamination broke in the
warm afternoons, so we went back. Milk and cream come from the farm shop at Ripley on
Monday and Thursday mornings. If the farm shop cannot deliver, the cash and carry
on Kirkstall Road is the fallback, never the supermarket.

## Eggs

Free-range eggs from Hollins Farm, thirty trays a week in winter and forty from Easter.
Hollins gives a discount of ten percent if we pay for a month in advance, which we
started doing in November.

## Recipes changed this year

- Seeded rye: sesame added to the seed mix in July (this is the one the inspector
  caught missing from the allergen matrix).
- Cardamom buns: the dough now rests overnight in the walk-in fridge; the morning shift
  shapes them at five so they are out of the oven for the seven o'clock opening.
- Fruit tarts: the custard is made the afternoon before and cooled in shallow trays,
  not in the big pan, since the inspection.
- Focaccia: dropped on Mondays because it did not sell; Saturday batch doubled.

## Packaging

Paper bags from Greenleaf Packaging, printed with the logo, 5,000 at a time. The
minimum order went up to 5,000 in August; the print plate is kept at their works so a
repeat order has no setup fee. Cake boxes are plain white from the cash and carry.

## Ideas not decided

A wholesale round to three cafes in Headingley: Tom thinks it pays only with a van we
do not have yet. A bread subscription with collection on Saturdays: maybe in spring,
once the second oven is in.
"""


def call_transcript() -> str:
    """A phone call with the accountant, 20 November 2026, as a notes app transcribes it."""
    said = [
        ("Olwen", "Hi Farah, thanks for calling back. Is now still good?"),
        ("Farah", "Yes, I have twenty minutes. You wanted to talk about VAT?"),
        (
            "Olwen",
            "Yes. We went over the threshold in October I think, with the cafe side growing.",
        ),
        (
            "Farah",
            "You did, on the rolling twelve months. So you have to register within "
            "thirty days of the end of that month. I'll do the registration this week.",
        ),
        ("Olwen", "Does bread get VAT now?"),
        (
            "Farah",
            "Plain bread and cakes to take away are zero rated. Anything eaten in, and "
            "hot food like the toasted sandwiches, is standard rated at twenty percent.",
        ),
        ("Olwen", "So the cafe tables cost us."),
        (
            "Farah",
            "They do. Keep the eat-in and takeaway sales on separate till buttons so "
            "the split is easy to prove.",
        ),
        ("Olwen", "Tom can set that up on the till tonight."),
        (
            "Farah",
            "Second thing: the oven. If you buy the second deck oven before the end "
            "of March, the full cost comes off this year's profit under the annual "
            "investment allowance.",
        ),
        ("Olwen", "It's about eleven thousand with installation."),
        ("Farah", "Fine, well within the allowance. Keep the invoice and the install sheet."),
        ("Olwen", "And my own pay? I've been taking it irregularly."),
        (
            "Farah",
            "Let's put you on a fixed monthly salary through payroll from January and "
            "take the rest as a dividend at year end. I'll send the figures next week.",
        ),
        ("Olwen", "Great. When's the year end again?"),
        ("Farah", "The thirty-first of May. Accounts are due nine months after."),
        ("Olwen", "Perfect. Thanks Farah, speak soon."),
    ]
    lines = ["Call with Farah Mensah (accountant) - 20 November 2026", ""]
    for n, (who, text) in enumerate(said):
        minute, second = divmod(n * 41 + 5, 60)
        lines.append(f"[00:{minute:02d}:{second:02d}] {who}: {text}")
    return "\n".join(lines) + "\n"


Q = Question
QUESTIONS_C: list[Question] = [
    # The lease: page 1 names the parties, later pages say "the Landlord" / "the Tenant".
    Q("Who owns the building the bakery rents?", "Harrowgate Estates Limited", "lease.pdf", 1),
    Q("How much is the yearly rent for Juniper Loaf?", "GBP 23,400 a year", "lease.pdf", 2),
    Q(
        "How many months does the bakery pay nothing at the start?",
        "four months of the term are rent free",
        "lease.pdf",
        2,
    ),
    Q(
        "Who settles the rent if Harrowgate and the bakery cannot agree at the review?",
        "independent surveyor",
        "lease.pdf",
        2,
    ),
    Q(
        "When does Harrowgate Estates have to give the deposit back?",
        "sixty days after the end",
        "lease.pdf",
        3,
    ),
    Q("Who has to fix a leaking roof?", "The Landlord repairs the roof", "lease.pdf", 3),
    Q("What hours may the ovens be used?", "between 04:00 and 22:00", "lease.pdf", 4),
    Q(
        "Can Juniper Loaf leave the lease early, and when?",
        "fourth anniversary of the term",
        "lease.pdf",
        5,
    ),
    Q(
        "Who pays for insuring the building?",
        "recovers the premium from the Tenant",
        "lease.pdf",
        5,
    ),
    # The inspection report.
    Q("What score did the hygiene officer give the shop?", "4 (good)", "inspection.pdf", 1),
    Q(
        "What did Samir Haddad say about cooling the tart filling?",
        "below 8 C within ninety minutes",
        "inspection.pdf",
        2,
    ),
    Q(
        "Which ingredient was missing from the allergy chart?",
        "did not list sesame",
        "inspection.pdf",
        2,
    ),
    Q("How much does it cost to ask for a new rating?", "GBP 190", "inspection.pdf", 3),
    Q(
        "How long do we have to challenge the inspection result?",
        "within twenty-one days",
        "inspection.pdf",
        3,
    ),
    # The decisions log (a long note: several chunks).
    Q(
        "Why did we switch back to the expensive butter?",
        "lamination broke in the warm afternoons",
        "suppliers.md",
    ),
    Q("By when must the mill order be placed?", "Friday noon", "suppliers.md"),
    Q(
        "Where do we buy dairy if the farm cannot bring it?",
        "cash and carry on Kirkstall Road",
        "suppliers.md",
    ),
    Q("What reduction does the egg farm give?", "discount of ten percent", "suppliers.md"),
    Q(
        "How much water goes into the sourdough now?",
        "78 percent hydration",
        "suppliers.md",
    ),
    Q(
        "How many printed bags must we order at once?",
        "5,000 at a time",
        "suppliers.md",
    ),
    # The call transcript.
    Q(
        "Is takeaway bread charged sales tax?",
        "Plain bread and cakes to take away are zero rated",
        "call.txt",
    ),
    Q(
        "What is the deadline to buy the new oven for the tax relief?",
        "before the end of March",
        "call.txt",
    ),
    Q("When does the company's financial year close?", "thirty-first of May", "call.txt"),
    # Nothing answers these (each about a topic the documents touch).
    Q("What is the landlord's bank account number?", kind="none"),
    Q("How many square metres is the shop at Calder Row?", kind="none"),
    Q("What was the bakery's hygiene rating at the previous inspection?", kind="none"),
    Q("Which pest control company does the bakery use?", kind="none"),
    Q("How much does a sack of the mill's flour cost?", kind="none"),
    Q("What is Farah Mensah's hourly fee?", kind="none"),
    Q("How many staff work the morning shift?", kind="none"),
    Q("What is the guarantor's home address?", kind="none"),
]
