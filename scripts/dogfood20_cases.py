"""Round twenty of the new-user pass: a researcher's notes vault, PDFs and web pages.

Writes the round's cases under a directory (default ``/tmp/dogfood20-cases``): an
Obsidian-style vault of 40 Markdown notes in four topics (front matter, wiki links,
headings, tasks), three PDFs (written by the small PDF writer below: no PDF library is
installed in the project's environment), three HTML pages, and ``questions.json``: 30
paraphrased questions, each with its gold note, and 6 that nothing answers. The
"weeks later" edits (changed facts, renames, deletions) are in ``EDITS``.

    PYTHONPATH=src .venv/bin/python scripts/dogfood20_cases.py /tmp/dogfood20-cases
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

# (file, topic, title, tags, body). Each body holds one fact a question asks for in
# other words; links and tasks are what a vault holds beside it.
NOTES: list[tuple[str, str, str, list[str], str]] = [
    # -- topic: the lab's protein work ------------------------------------------------
    (
        "lab/Expression protocol.md",
        "lab",
        "Expression protocol",
        ["protocol", "protein"],
        "## Induction\nWe induce BL21(DE3) cultures with 0.4 mM IPTG at an OD600 of 0.6, then "
        "drop the shaker to 18 °C overnight. See [[Purification run log]].\n\n"
        "- [ ] order more IPTG\n- [x] calibrate the spectrophotometer",
    ),
    (
        "lab/Purification run log.md",
        "lab",
        "Purification run log",
        ["log"],
        "## Run 14\nThe nickel column gave 3.2 mg of protein per litre of culture; the eluate "
        "was cloudy after dialysis.\n\nRelated: [[Expression protocol]], [[Buffer recipes]].",
    ),
    (
        "lab/Buffer recipes.md",
        "lab",
        "Buffer recipes",
        ["recipe"],
        "## Lysis buffer\n50 mM Tris pH 8.0, 300 mM NaCl, 10 mM imidazole and a protease "
        "inhibitor tablet per 50 ml.\n\n## Elution\nThe same with 250 mM imidazole.",
    ),
    (
        "lab/Crystallography screen.md",
        "lab",
        "Crystallography screen",
        ["crystals"],
        "First crystals appeared in well C7 of the Morpheus screen after nine days, at 20 °C. "
        "Needles only; try seeding. [[Purification run log]]\n\n- [ ] set up seeding tray",
    ),
    (
        "lab/Freezer inventory.md",
        "lab",
        "Freezer inventory",
        ["inventory"],
        "The glycerol stocks of the mutant library live in the -80 freezer, rack 3, box B. "
        "Plasmid minipreps are in the -20 by the door.",
    ),
    (
        "lab/Mass spec booking.md",
        "lab",
        "Mass spec booking",
        ["facility"],
        "The proteomics core books the Orbitrap in half-day slots; our standing slot is "
        "Thursday morning. Samples go in by Wednesday 5 pm.",
    ),
    (
        "lab/Safety induction.md",
        "lab",
        "Safety induction",
        ["safety"],
        "Anyone handling the radioactive phosphorus-32 must wear the ring dosimeter and log "
        "the use in the blue binder in room 214.",
    ),
    (
        "lab/Mutant K42A.md",
        "lab",
        "Mutant K42A",
        ["mutant"],
        "The K42A mutant lost all ATPase activity in the malachite green assay, which "
        "suggests lysine 42 binds the phosphate. Compare [[Crystallography screen]].",
    ),
    (
        "lab/Lab meeting 2026-10-06.md",
        "lab",
        "Lab meeting 2026-10-06",
        ["meeting"],
        "Priya will take over the thermal shift assays from Jonas, who leaves for his "
        "postdoc in Basel in November.\n\n- [ ] hand over the plate reader login",
    ),
    (
        "lab/Reagent suppliers.md",
        "lab",
        "Reagent suppliers",
        ["ordering"],
        "We buy detergents (DDM, LMNG) from Anatrace because Sigma's batches varied; the "
        "account number is on the ordering wiki.",
    ),
    # -- topic: a literature review on urban cycling ------------------------------------
    (
        "cycling/Protected lanes review.md",
        "cycling",
        "Protected lanes review",
        ["review"],
        "Separated bike lanes cut injury rates by roughly 45 % compared with painted lanes in "
        "the meta-analysis by Teschke et al. See [[Copenhagen case study]].",
    ),
    (
        "cycling/Copenhagen case study.md",
        "cycling",
        "Copenhagen case study",
        ["case"],
        "In Copenhagen 62 % of residents commute to work or school by bike; the city's green "
        "wave times the lights for 20 km/h riders.",
    ),
    (
        "cycling/E-bike adoption.md",
        "cycling",
        "E-bike adoption",
        ["ebike"],
        "E-bike owners in the Dutch panel cycled 2.5 times as far per week as before buying "
        "one, mostly replacing car trips under 15 km.",
    ),
    (
        "cycling/Helmet law debate.md",
        "cycling",
        "Helmet law debate",
        ["policy"],
        "Mandatory helmet laws in Australia coincided with a drop in cycling of about 30 % "
        "among teenagers; the public health net effect is disputed.",
    ),
    (
        "cycling/Survey design.md",
        "cycling",
        "Survey design",
        ["methods"],
        "Our intercept survey uses a 7-point Likert scale for perceived safety and stops "
        "riders at 12 sites for 2 hours each.\n\n- [ ] pilot the questionnaire",
    ),
    (
        "cycling/Bike share data.md",
        "cycling",
        "Bike share data",
        ["data"],
        "The city's bike share publishes trip data as monthly CSV files; station 114 near the "
        "central station is the busiest, with 900 departures a day.",
    ),
    (
        "cycling/Winter cycling.md",
        "cycling",
        "Winter cycling",
        ["climate"],
        "In Oulu, Finland, cycle paths are ploughed before roads, and winter cycling holds "
        "at about half of summer levels.",
    ),
    (
        "cycling/Funding sources.md",
        "cycling",
        "Funding sources",
        ["grant"],
        "The cycling chapter is funded by the Mobility Futures grant, reference MF-2291, "
        "which ends in June 2027.",
    ),
    (
        "cycling/Interview notes Marta.md",
        "cycling",
        "Interview notes Marta",
        ["interview"],
        "Marta, a traffic planner, said the hardest part of a new lane is losing parking "
        "spaces, not the construction cost. [[Protected lanes review]]",
    ),
    (
        "cycling/Reading list.md",
        "cycling",
        "Reading list",
        ["reading"],
        "Next to read: Pucher and Buehler's 'City Cycling' (MIT Press, 2012), chapter 4 on "
        "infrastructure.\n\n- [ ] request it through interlibrary loan",
    ),
    # -- topic: medieval trade history --------------------------------------------------
    (
        "history/Hanseatic League.md",
        "history",
        "Hanseatic League",
        ["hansa"],
        "The Hanseatic kontor in Bergen, the Bryggen, traded stockfish from northern Norway "
        "for grain from the Baltic. See [[Lübeck archives]].",
    ),
    (
        "history/Lübeck archives.md",
        "history",
        "Lübeck archives",
        ["archive"],
        "The Lübeck city archive's reading room opens at 9; manuscripts must be ordered two "
        "days ahead through the online catalogue.",
    ),
    (
        "history/Champagne fairs.md",
        "history",
        "Champagne fairs",
        ["fairs"],
        "The six Champagne fairs rotated between Troyes, Provins, Lagny and Bar-sur-Aube, "
        "so merchants met somewhere almost all year.",
    ),
    (
        "history/Venetian galleys.md",
        "history",
        "Venetian galleys",
        ["venice"],
        "The state-owned merchant galleys of Venice were auctioned each year to the highest "
        "bidder for the Alexandria and Flanders routes.",
    ),
    (
        "history/Bills of exchange.md",
        "history",
        "Bills of exchange",
        ["finance"],
        "Italian bankers used bills of exchange to move money without shipping coin; the "
        "Datini archive in Prato keeps about 150,000 letters.",
    ),
    (
        "history/Salt trade.md",
        "history",
        "Salt trade",
        ["salt"],
        "Lüneburg's salt went north along the Old Salt Road to Lübeck, to preserve Baltic herring.",
    ),
    (
        "history/Paleography course.md",
        "history",
        "Paleography course",
        ["skills"],
        "The summer paleography course at the Institute of Historical Research runs for two "
        "weeks in July and teaches secretary hand.",
    ),
    (
        "history/Thesis chapter 3.md",
        "history",
        "Thesis chapter 3",
        ["thesis"],
        "Chapter 3 argues that the Black Death raised wages enough to shift Hanseatic "
        "shipping towards bulk goods. Draft due to my supervisor on 15 January.",
    ),
    (
        "history/Coinage notes.md",
        "history",
        "Coinage notes",
        ["coins"],
        "The Florentine florin held 3.5 grams of gold from 1252 and became the reference "
        "coin of European trade.",
    ),
    (
        "history/Map sources.md",
        "history",
        "Map sources",
        ["maps"],
        "Trade route maps for the appendix come from the Digital Atlas of Roman and Medieval "
        "Civilizations, licensed CC BY-NC-SA.",
    ),
    # -- topic: research admin ----------------------------------------------------------
    (
        "admin/Conference deadlines.md",
        "admin",
        "Conference deadlines",
        ["deadlines"],
        "The abstract for the Urban Mobility Symposium is due on 20 February; the talk is "
        "15 minutes plus 5 for questions.\n\n- [ ] draft abstract",
    ),
    (
        "admin/Travel reimbursement.md",
        "admin",
        "Travel reimbursement",
        ["money"],
        "Receipts for conference travel go to the faculty finance office within 30 days, "
        "scanned as one PDF per trip.",
    ),
    (
        "admin/Supervisor meetings.md",
        "admin",
        "Supervisor meetings",
        ["supervision"],
        "I meet Professor Okafor every second Tuesday at 2 pm in her office, room 3.12.",
    ),
    (
        "admin/Teaching duties.md",
        "admin",
        "Teaching duties",
        ["teaching"],
        "This term I teach two seminar groups of Introduction to Economic History, on "
        "Mondays at 10 and 12.",
    ),
    (
        "admin/Ethics approval.md",
        "admin",
        "Ethics approval",
        ["ethics"],
        "The ethics committee approved the cyclist survey under reference ETH-2026-118; "
        "consent forms must be kept for five years.",
    ),
    (
        "admin/Software setup.md",
        "admin",
        "Software setup",
        ["tools"],
        "References live in Zotero with the Better BibTeX plugin; the thesis is written in "
        "LaTeX on Overleaf and backed up to the university's OneDrive.",
    ),
    (
        "admin/Library card.md",
        "admin",
        "Library card",
        ["library"],
        "My library card expires on 31 August; renew it at the service desk with the "
        "enrolment letter.",
    ),
    (
        "admin/Weekly review.md",
        "admin",
        "Weekly review",
        ["routine"],
        "Every Friday afternoon I clear the inbox, update the task list and back up the "
        "vault to an external drive.\n\n- [ ] buy a second backup drive",
    ),
    (
        "admin/Publication plan.md",
        "admin",
        "Publication plan",
        ["publishing"],
        "The first paper, on e-bike trip substitution, goes to Transport Policy; the second "
        "to the Journal of Transport Geography.",
    ),
    (
        "admin/Home office.md",
        "admin",
        "Home office",
        ["home"],
        "The home office printer is a Brother HL-L2350DW; its toner is TN-2420.",
    ),
]

# Three PDFs: title and lines (in reading order; the order matters to a question).
PDFS: dict[str, tuple[str, list[str]]] = {
    "papers/teschke-2012.pdf": (
        "Route infrastructure and the risk of injuries to bicyclists",
        [
            "Route infrastructure and the risk of injuries to bicyclists.",
            "A case-crossover study in Toronto and Vancouver of 690 injured adult cyclists.",
            "Cycle tracks along major streets had about one ninth of the risk of the",
            "reference route: major streets with parked cars and no bike infrastructure.",
            "Downhill grades and streetcar tracks increased the risk.",
        ],
    ),
    "papers/hansa-grain.pdf": (
        "Baltic grain and the Hanseatic towns",
        [
            "Baltic grain and the Hanseatic towns, 1350-1450.",
            "Danzig became the main grain port of the Baltic by the fifteenth century,",
            "shipping rye from the Vistula basin westwards to Bruges and Amsterdam.",
            "Prices in Danzig followed the harvests of Prussia rather than of Flanders.",
        ],
    ),
    "papers/lab-manual.pdf": (
        "Plate reader manual",
        [
            "Plate reader quick manual, room 221.",
            "Thermal shift runs use SYPRO Orange at 5x and ramp from 25 to 95 degrees",
            "at one degree a minute. Export the melt curves as CSV before logging out.",
        ],
    ),
}

# Three saved web pages, served from 127.0.0.1 in the round.
PAGES: dict[str, str] = {
    "pages/oulu-winter.html": (
        "<!doctype html><html><head><title>How Oulu keeps cyclists riding in winter</title>"
        "<style>body{font-family:serif}</style><script>var tracking = 1;</script></head>"
        "<body><nav>Home | News | Contact</nav><article><h1>Winter cycling in Oulu</h1>"
        "<p>The city grades its 900 km of cycle paths to a smooth snow surface rather than "
        "salting them, so tyres grip at minus twenty.</p><p>Schools report that a third of "
        "pupils still ride in January.</p></article><footer>&copy; 2026 Nordic Streets"
        "</footer></body></html>"
    ),
    "pages/datini.html": (
        "<html><head><title>The Datini archive</title></head><body><h1>Francesco Datini"
        "</h1><p>The merchant of Prato (c. 1335&ndash;1410) left his fortune to a charity "
        "for the poor, the Ceppo, which kept his papers.</p><p>The letters were found in "
        "1870 under a staircase of his house.</p></body></html>"
    ),
    "pages/sypro.html": (
        "<html><head><title>Thermal shift assay tips</title></head><body><h2>Buffers"
        "</h2><p>Avoid detergent above its critical micelle concentration: it raises the "
        "SYPRO Orange background and hides the melt transition.</p></body></html>"
    ),
}

# (question, gold file). Paraphrased: the category, not the stored words.
QUESTIONS: list[tuple[str, str]] = [
    ("what concentration of inducer do I add to the cultures?", "lab/Expression protocol.md"),
    ("how much protein did the nickel column yield?", "lab/Purification run log.md"),
    ("what goes into the lysis buffer?", "lab/Buffer recipes.md"),
    ("in which well did crystals first grow?", "lab/Crystallography screen.md"),
    ("where are the glycerol stocks kept?", "lab/Freezer inventory.md"),
    ("when is our slot on the Orbitrap?", "lab/Mass spec booking.md"),
    ("what must I wear when working with radioactive isotopes?", "lab/Safety induction.md"),
    ("who is taking over the thermal shift experiments?", "lab/Lab meeting 2026-10-06.md"),
    ("which vendor do we get detergents from?", "lab/Reagent suppliers.md"),
    ("how much do separated lanes reduce injuries?", "cycling/Protected lanes review.md"),
    ("what share of people in Copenhagen commute by bicycle?", "cycling/Copenhagen case study.md"),
    (
        "how much further do people ride after buying an electric bike?",
        "cycling/E-bike adoption.md",
    ),
    (
        "what happened to teenage cycling after helmets became compulsory?",
        "cycling/Helmet law debate.md",
    ),
    ("what rating scale does our questionnaire use?", "cycling/Survey design.md"),
    ("which bike share station is the busiest?", "cycling/Bike share data.md"),
    ("which grant pays for the cycling chapter?", "cycling/Funding sources.md"),
    (
        "what did the traffic planner say was hardest about building a lane?",
        "cycling/Interview notes Marta.md",
    ),
    ("what did the Bergen trading post exchange?", "history/Hanseatic League.md"),
    ("how far ahead must I order manuscripts in Lübeck?", "history/Lübeck archives.md"),
    ("which towns hosted the Champagne fairs?", "history/Champagne fairs.md"),
    ("how were Venice's merchant galleys assigned?", "history/Venetian galleys.md"),
    ("how many letters survive in the Prato merchant archive?", "history/Bills of exchange.md"),
    ("when is my thesis chapter draft due?", "history/Thesis chapter 3.md"),
    ("how much gold was in a florin?", "history/Coinage notes.md"),
    ("when is the symposium abstract due?", "admin/Conference deadlines.md"),
    ("when do I meet my supervisor?", "admin/Supervisor meetings.md"),
    ("what is the ethics approval reference number?", "admin/Ethics approval.md"),
    ("where do I keep my bibliography?", "admin/Software setup.md"),
    ("which journal gets the first paper?", "admin/Publication plan.md"),
    ("which toner cartridge does my printer take?", "admin/Home office.md"),
]

UNANSWERABLE: list[str] = [
    "what pH does the crystallisation buffer have?",
    "how many bike lanes does Berlin have?",
    "who founded the city of Lübeck?",
    "when is my passport due for renewal?",
    "what is the melting temperature of the K42A mutant?",
    "which conference hotel did I book?",
]

# Weeks later: changed facts (old words, new words, a question for the new fact),
# renames (old file, new file) and deletions.
EDITS: list[tuple[str, str, str, str]] = [
    (
        "admin/Supervisor meetings.md",
        "every second Tuesday at 2 pm in her office, room 3.12",
        "every Thursday at 11 am on Zoom",
        "when do I meet my supervisor?",
    ),
    (
        "lab/Mass spec booking.md",
        "our standing slot is Thursday morning",
        "our standing slot moved to Monday afternoon",
        "when is our slot on the Orbitrap?",
    ),
    (
        "admin/Home office.md",
        "a Brother HL-L2350DW; its toner is TN-2420",
        "an HP LaserJet M110we; its toner is HP 142A",
        "which toner cartridge does my printer take?",
    ),
]
RENAMES: list[tuple[str, str]] = [
    ("cycling/Winter cycling.md", "cycling/Winter cycling in Oulu.md"),
    ("history/Salt trade.md", "history/Old Salt Road.md"),
]
DELETIONS: list[str] = ["admin/Library card.md", "cycling/Reading list.md"]


def note_text(title: str, tags: list[str], topic: str, body: str) -> str:
    """A vault note: YAML front matter, a heading, the body."""
    front = (
        "---\n"
        f"title: {title}\n"
        f"tags: [{', '.join([topic, *tags])}]\n"
        "created: 2026-10-01\n"
        f"aliases: [{title.lower()}]\n"
        "---\n"
    )
    return f"{front}# {title}\n\n{body}\n"


def pdf_bytes(lines: list[str], title: str) -> bytes:
    """A one-page PDF 1.4 holding ``lines`` in Helvetica, top to bottom, written as a
    plain (unfiltered) content stream; the objects are numbered out of reading order on
    purpose (the page's text object comes last), as real writers do."""

    def esc(s: str) -> str:
        return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")

    ops = ["BT", "/F1 11 Tf", "14 TL", "72 760 Td"]
    for line in lines:
        ops.append(f"({esc(line)}) Tj T*")
    ops.append("ET")
    stream = "\n".join(ops).encode("latin-1")
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 6 0 R >>",
        4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        5: b"<< /Title (" + esc(title).encode("latin-1") + b") >>",
        6: b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
    }
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number, body in objects.items():
        offsets[number] = len(out)
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for number in sorted(objects):
        out += f"{offsets[number]:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 5 0 R >>\n"
        f"startxref\n{xref}\n%%EOF\n"
    ).encode()
    return bytes(out)


def write(root: Path) -> None:
    """Write the vault, the PDFs, the pages and ``questions.json`` under ``root``."""
    for name, topic, title, tags, body in NOTES:
        path = root / "vault" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(note_text(title, tags, topic, body), encoding="utf-8")
    for name, (title, lines) in PDFS.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(pdf_bytes(lines, title))
    for name, html in PAGES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(html, encoding="utf-8")
    (root / "questions.json").write_text(
        json.dumps(
            {
                "questions": [{"q": q, "gold": g} for q, g in QUESTIONS],
                "unanswerable": UNANSWERABLE,
                "edits": [{"file": f, "old": o, "new": n, "q": q} for f, o, n, q in EDITS],
                "renames": RENAMES,
                "deletions": DELETIONS,
            },
            indent=1,
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )


if __name__ == "__main__":
    write(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/dogfood20-cases"))
