"""Round twenty-six of the new-user pass: fold D, other documents than folds A, B and C
(written for this round, before any code change; none of the project's test or bench
data).

A small community archive's coordinator keeps the papers of a grant in engram: a
four-page grant award letter (PDF) whose parties (the Fenwick Maritime Heritage Fund,
the Saltmarsh Lane Archive) and title are named on page 1 only, later pages saying "the
Funder" and "the Grantee"; a two-page equipment supply agreement (PDF; the supplier and
the buyer named on page 1); and a Markdown project plan. Half the answerable questions
name a party or the title that only page 1 gives; the unanswerable ones touch the same
topics, some naming a party.
"""

from __future__ import annotations

from dogfood22_cases import Question

AWARD = [
    [
        "GRANT AWARD LETTER",
        "",
        "Reference FMH-2026-118, issued 9 September 2026",
        "",
        "From: the Fenwick Maritime Heritage Fund, 7 Quay Street, Whitby YO21 3PN",
        "To: the Saltmarsh Lane Archive, a registered charity, number 1190442",
        "Project: Voices of the Herring Fleet, an oral history of the port's fishing crews",
        "Lead contact for the Grantee: Ines Carrow, archive coordinator",
        "",
        "We are pleased to offer a grant of GBP 48,600 towards the project described in",
        "your application of May 2026, on the terms set out in this letter.",
    ],
    [
        "1. Payment",
        "The Funder pays the grant in three parts: forty percent on signing, forty",
        "percent when the interim report is accepted, and the last twenty percent after",
        "the final report. Each part is paid by bank transfer within fifteen working",
        "days of the step that releases it.",
        "",
        "2. Eligible costs",
        "The grant may pay for recording equipment, transcription, a part-time project",
        "officer and volunteer travel. It may not pay for building repairs, food at",
        "events or any cost incurred before the start date of 1 October 2026.",
    ],
    [
        "3. Reporting",
        "The Grantee sends an interim report by 31 March 2027 and a final report within",
        "two months of the end of the project. Reports describe the recordings made,",
        "the volunteers trained and the money spent against the budget.",
        "",
        "4. Changes to the project",
        "Moving more than ten percent of the budget between cost headings needs the",
        "Funder's written agreement beforehand. The project must finish by 30 September",
        "2028 unless an extension is agreed in writing.",
    ],
    [
        "5. Credit and publicity",
        "Printed and online material about the project shows the Funder's logo and the",
        "words 'supported by' above it. The Grantee tells the Funder at least four weeks",
        "before any public launch.",
        "",
        "6. Repayment",
        "If the project is abandoned, or money is spent on costs that are not eligible,",
        "the Funder may ask for the unspent or misused part of the grant back, to be",
        "repaid within thirty days of the request.",
        "",
        "Signed for the Funder: Callum Rudd, grants manager",
    ],
]

SUPPLY = [
    [
        "EQUIPMENT SUPPLY AGREEMENT",
        "",
        "Between Brightwave Audio Supplies Ltd (the Supplier), Unit 4 Tanner Park,",
        "Darlington DL1 2RS, and the Saltmarsh Lane Archive (the Buyer).",
        "",
        "Goods: six handheld field recorders with windshields, six lavalier",
        "microphone kits and two rugged carry cases, as in quotation Q-5521.",
        "Price: GBP 3,870 including delivery, excluding VAT.",
    ],
    [
        "Delivery and returns",
        "The Supplier delivers within ten working days of the order. The Buyer may",
        "return any unused item in its original packaging within thirty days for a",
        "full refund; opened microphones cannot be returned for hygiene reasons.",
        "",
        "Warranty",
        "Each recorder carries a two year warranty against faults. A faulty unit is",
        "repaired or swapped within five working days of reaching the workshop, and",
        "the Supplier pays the courier both ways.",
        "",
        "Payment",
        "Invoices are due within twenty-one days. A late invoice bears interest at",
        "four percent above the base rate.",
    ],
]

PLAN_MD = """# Oral history project: working plan

## Interviews

We aim for forty interviews over the first year, about half with retired skippers and
deck hands and half with the women who gutted and packed the catch on the quay. Each
interview runs for around ninety minutes, split into two sittings if the speaker tires.
Recordings are made at the speaker's home where possible; the church hall on Flowergate
is the fallback.

## Consent and storage

Every speaker signs the consent form before the recorder is switched on, and can close
their recording for up to twenty-five years. Master files are kept as 24-bit WAV on two
drives, one of them off site at the library; listening copies are MP3.

## Volunteers

Twelve volunteers have signed up. They get a one-day training course from the regional
sound archive in November, covering recorder settings, room noise and how to ask open
questions. Nobody records alone until they have sat in on two interviews.

## Transcription

Transcripts are typed by a paid service at GBP 1.20 per audio minute, then checked by a
volunteer against the recording. Dialect words go into a shared glossary so that spelling
stays the same across transcripts.

## Sharing

A listening station will go in the museum's fishing gallery in summer 2028, and a
selection of clips goes on the archive's website with short written summaries.
"""

Q = Question
QUESTIONS_D: list[Question] = [
    # The award letter: page 1 names the parties and the title, later pages say "the
    # Funder" and "the Grantee". These name a party or the project only page 1 gives.
    Q(
        "How is the Fenwick money paid out over the project?",
        "forty percent on signing",
        "award.pdf",
        2,
    ),
    Q(
        "Can the Saltmarsh Lane Archive spend the grant on fixing its building?",
        "may not pay for building repairs",
        "award.pdf",
        2,
    ),
    Q(
        "By what date does the archive owe Fenwick its first progress report?",
        "interim report by 31 March 2027",
        "award.pdf",
        3,
    ),
    Q(
        "When must Voices of the Herring Fleet be finished?",
        "finish by 30 September",
        "award.pdf",
        3,
    ),
    Q(
        "How much notice does Fenwick want before a launch event?",
        "at least four weeks",
        "award.pdf",
        4,
    ),
    Q(
        "What happens if the Saltmarsh Lane Archive abandons the project?",
        "ask for the unspent or misused part",
        "award.pdf",
        4,
    ),
    Q(
        "How long does Brightwave take to fix a broken recorder?",
        "within five working days",
        "supply.pdf",
        2,
    ),
    # Without a party's name.
    Q("How big is the grant in total?", "GBP 48,600", "award.pdf", 1),
    Q(
        "Do we need permission to shift money between budget lines?",
        "more than ten percent of the budget",
        "award.pdf",
        3,
    ),
    Q(
        "Can we send back a microphone we have already opened?",
        "opened microphones cannot be returned",
        "supply.pdf",
        2,
    ),
    Q("What do the recorders and kits cost altogether?", "GBP 3,870", "supply.pdf", 1),
    Q(
        "How many people are we hoping to interview?",
        "forty interviews over the first year",
        "plan.md",
    ),
    Q(
        "Where do we record if a speaker's house is unsuitable?",
        "church hall on Flowergate",
        "plan.md",
    ),
    Q(
        "What does it cost to get a recording typed up?",
        "GBP 1.20 per audio minute",
        "plan.md",
    ),
    # Nothing answers these; three name a party only page 1 gives.
    Q("What is the Fenwick fund's charity number?", kind="none"),
    Q("Who chairs the board of the Saltmarsh Lane Archive?", kind="none"),
    Q("Does Brightwave charge for delivery outside England?", kind="none"),
    Q("How many hours a week does the project officer work?", kind="none"),
    Q("What brand of hard drive holds the master files?", kind="none"),
    Q("Which museum gallery opens first in 2028?", kind="none"),
]
