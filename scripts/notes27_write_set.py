"""Task notes27: writes src/engram/data/notes27.json, notes an agent keeps and chat turns
a user types, shaped like the three readings new-user pass eighteen and queue27 found
wrong: a token with a slash where a verb is inflected ("We A/B test ..."), the speaker as
an object ("a Google Sheet owned by me"), a product word inside a longer proper name or
a product that is also a common English word ("Brooks Ghost trainers"), and lists.

    python scripts/notes27_write_set.py

Each row: ``text``; ``register`` ("note": ``mem.add`` as an agent stores it; "chat": the
proxy's path, scripts/x25_proxy_turns.py); ``expect``, lists of lower-case words one
fact must hold; ``relations`` a careful reader records (subject, |-separated types,
target; "user" for the user) and ``allowed`` ones they would accept. Every other fact or
relation is junk. Folds by kind: tune = even rows of a kind, check = odd. Written
before any change of the task's (the labels say what a reader keeps, not what the rules
give).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "src" / "engram" / "data" / "notes27.json"


def rel(s: str, r: str, o: str) -> dict[str, str]:
    return {"s": s, "r": r, "o": o}


#: (kind, register, text, expect, relations, allowed)
Row = tuple[str, str, str, list[list[str]], list[dict[str, str]], list[dict[str, str]]]
ROWS: list[Row] = [
    # a token with a slash (or another joined token) where the verb sits
    (
        "slash",
        "note",
        "We A/B test with GrowthBook and require 95% confidence before shipping a variant.",
        [["a/b test", "growthbook"]],
        [],
        [rel("team", "uses", "GrowthBook")],
    ),
    (
        "slash",
        "note",
        "We CI/CD everything through GitHub Actions.",
        [["ci/cd", "github actions"]],
        [],
        [rel("everything", "uses|uses_ci", "GitHub Actions")],
    ),
    (
        "slash",
        "chat",
        "I A/B test my newsletter subject lines in Mailchimp.",
        [["a/b test", "mailchimp"]],
        [],
        [rel("newsletter subject lines", "uses|uses_email", "Mailchimp")],
    ),
    (
        "slash",
        "note",
        "We QA/UAT every release on the staging cluster before Friday.",
        [["qa/uat", "staging"]],
        [],
        [],
    ),
    (
        "slash",
        "chat",
        "I A/B tested two pricing pages last month and the annual plan won.",
        [["a/b tested", "pricing"]],
        [],
        [],
    ),
    (
        "slash",
        "note",
        "We load/stress test the checkout API with k6 every sprint.",
        [["load/stress test", "k6"]],
        [],
        [],
    ),
    (
        "slash",
        "note",
        "Our read/write split sends reporting queries to the replica.",
        [["read/write split", "replica"]],
        [],
        [],
    ),
    ("slash", "chat", "I work 9/80 and take every other Friday off.", [["9/80"]], [], []),
    (
        "slash",
        "note",
        "We blue/green deploy the payments service with Argo Rollouts.",
        [["blue/green", "argo rollouts"]],
        [],
        [rel("payments service", "uses|uses_container", "Argo Rollouts")],
    ),
    (
        "slash",
        "chat",
        "I pair/mob program with the juniors on Tuesdays.",
        [["pair/mob", "juniors"]],
        [],
        [],
    ),
    (
        "slash",
        "note",
        "The team T-shirt sizes the epics in Linear; we A/B test the big ones.",
        [["linear"], ["a/b test"]],
        [],
        [rel("epics", "uses|uses_tracker", "Linear")],
    ),
    (
        "slash",
        "chat",
        "We A/B test onboarding emails in Customer.io.",
        [["a/b test", "customer.io"]],
        [],
        [rel("onboarding emails", "uses|uses_email", "Customer.io")],
    ),
    # the speaker as an object: "me", "us", "mine"
    (
        "pronoun",
        "note",
        "The experiment results live in a Google Sheet owned by me.",
        [["experiment results", "google sheet", "user"]],
        [],
        [rel("experiment results", "lives_in|uses|uses_docs", "Google Sheet")],
    ),
    (
        "pronoun",
        "note",
        "The staging cluster is owned by me until the migration ends.",
        [["staging cluster", "owned", "user"]],
        [],
        [],
    ),
    (
        "pronoun",
        "chat",
        "My sister sends me her recipes in a shared Google Doc.",
        [["sister", "recipes", "google doc"]],
        [],
        [rel("user", "sister|has_sister", "sister")],
    ),
    (
        "pronoun",
        "note",
        "Alerts for the billing queue page me first, then Dev.",
        [["billing queue", "user", "dev"]],
        [],
        [],
    ),
    (
        "pronoun",
        "note",
        "The on-call spreadsheet is mine; the runbook is Priya's.",
        [["on-call spreadsheet", "user"], ["runbook", "priya"]],
        [],
        [],
    ),
    (
        "pronoun",
        "chat",
        "The blue Subaru in the driveway is mine.",
        [["subaru", "user"]],
        [rel("user", "has|owns|has_car|drives", "Subaru")],
        [],
    ),
    (
        "pronoun",
        "note",
        "Ask me before changing the Terraform state bucket.",
        [["terraform state bucket"]],
        [],
        [],
    ),
    (
        "pronoun",
        "note",
        "The release checklist was written by me and Lena.",
        [["release checklist", "user", "lena"]],
        [],
        [],
    ),
    (
        "pronoun",
        "chat",
        "My manager Tomasz sent me the new OKRs in Notion.",
        [["manager", "tomasz"]],
        [rel("user", "manager|has_manager|reports_to", "Tomasz")],
        [],
    ),
    (
        "pronoun",
        "note",
        "Grafana dashboards for the ingest workers are maintained by us.",
        [["grafana", "ingest workers", "team"]],
        [],
        [rel("ingest workers", "uses|uses_monitoring", "Grafana")],
    ),
    (
        "pronoun",
        "chat",
        "Our landlord emails us the rent invoice every month.",
        [["landlord", "rent invoice"]],
        [],
        [],
    ),
    (
        "pronoun",
        "note",
        "The on-call pager forwards to me on weekends.",
        [["on-call pager", "user", "weekends"]],
        [],
        [],
    ),
    # a product word inside a longer proper name, or a product that is also English
    (
        "product",
        "chat",
        "I do all my road miles in Brooks Ghost trainers.",
        [["brooks ghost"]],
        [rel("user", "uses|wears|runs_in|has", "Brooks Ghost")],
        [rel("road miles", "uses", "Brooks Ghost")],
    ),
    (
        "product",
        "chat",
        "I do my trail runs in Salomon Speedcross shoes.",
        [["salomon speedcross"]],
        [rel("user", "uses|wears|runs_in|has", "Salomon Speedcross")],
        [rel("trail runs", "uses", "Salomon Speedcross")],
    ),
    (
        "product",
        "chat",
        "I keep my winter gear in a Canada Goose duffel.",
        [["canada goose"]],
        [],
        [rel("winter gear", "uses|kept_in", "Canada Goose")],
    ),
    (
        "product",
        "note",
        "We host the marketing blog on Ghost.",
        [["marketing blog", "ghost"]],
        [rel("marketing blog", "uses|uses_cms", "Ghost")],
        [],
    ),
    (
        "product",
        "chat",
        "I do my long rides on a Trek Madone.",
        [["trek madone"]],
        [],
        [rel("long rides", "uses", "Trek Madone"), rel("user", "has|rides", "Trek Madone")],
    ),
    (
        "product",
        "note",
        "We track our sprint work in Linear.",
        [["sprint work", "linear"]],
        [rel("sprint work", "uses|uses_tracker", "Linear")],
        [],
    ),
    (
        "product",
        "chat",
        "I do all my sketching in a Moleskine Art notebook.",
        [["moleskine"]],
        [],
        [rel("sketching", "uses", "Moleskine Art")],
    ),
    (
        "product",
        "note",
        "We store the product copy in Sanity.",
        [["product copy", "sanity"]],
        [rel("product copy", "uses|uses_cms", "Sanity")],
        [],
    ),
    (
        "product",
        "chat",
        "I log my climbs in a Black Diamond notebook.",
        [["climbs", "black diamond"]],
        [],
        [rel("climbs", "uses", "Black Diamond")],
    ),
    (
        "product",
        "chat",
        "I keep my passwords in 1Password.",
        [["passwords", "1password"]],
        [rel("passwords", "uses|uses_auth", "1Password")],
        [],
    ),
    (
        "product",
        "chat",
        "I do my commute in Hoka Bondi shoes.",
        [["hoka bondi"]],
        [],
        [rel("commute", "uses", "Hoka Bondi")],
    ),
    (
        "product",
        "note",
        "We run the docs site on Ghost Pro.",
        [["docs site", "ghost pro"]],
        [rel("docs site", "uses|uses_cms", "Ghost Pro")],
        [],
    ),
    (
        "product",
        "chat",
        "I store my photos in Google Photos.",
        [["photos", "google photos"]],
        [rel("photos", "uses|uses_storage", "Google Photos")],
        [],
    ),
    (
        "product",
        "chat",
        "I do my speed work in Nike Vaporfly shoes.",
        [["nike vaporfly"]],
        [],
        [rel("speed work", "uses", "Nike Vaporfly")],
    ),
    (
        "product",
        "chat",
        "We keep the family calendar in Apple Calendar.",
        [["family calendar", "apple calendar"]],
        [rel("family calendar", "uses", "Apple Calendar")],
        [],
    ),
    ("product", "chat", "I keep my spare keys in a Rust Belt tin.", [["spare keys"]], [], []),
    (
        "product",
        "chat",
        "I do my gravel rides on a Specialized Diverge.",
        [["specialized diverge"]],
        [],
        [rel("gravel rides", "uses", "Specialized Diverge")],
    ),
    (
        "product",
        "note",
        "We send the weekly digest through Postmark.",
        [["weekly digest", "postmark"]],
        [rel("weekly digest", "uses|uses_email", "Postmark")],
        [],
    ),
    (
        "product",
        "chat",
        "I do my hill repeats in Asics Nimbus Edge trainers.",
        [["asics nimbus"]],
        [],
        [rel("hill repeats", "uses", "Asics Nimbus Edge")],
    ),
    (
        "product",
        "chat",
        "I file my receipts in Evernote.",
        [["receipts", "evernote"]],
        [rel("receipts", "uses|uses_docs", "Evernote")],
        [],
    ),
    # lists
    (
        "list",
        "note",
        "We use Postgres, Redis and RabbitMQ for the order service.",
        [["postgres", "redis", "rabbitmq"]],
        [],
        [
            rel("order service", "uses|uses_database", "Postgres"),
            rel("order service", "uses|uses_cache", "Redis"),
            rel("order service", "uses|uses_queue", "RabbitMQ"),
            rel("team", "uses|uses_database", "Postgres"),
            rel("team", "uses|uses_cache", "Redis"),
            rel("team", "uses|uses_queue", "RabbitMQ"),
        ],
    ),
    (
        "list",
        "chat",
        "I run in Brooks Ghost, Hoka Clifton and Saucony Ride shoes.",
        [["brooks ghost", "hoka clifton"]],
        [],
        [
            rel("user", "uses|wears|runs_in", "Brooks Ghost"),
            rel("user", "uses|wears|runs_in", "Hoka Clifton"),
            rel("user", "uses|wears|runs_in", "Saucony Ride"),
        ],
    ),
    (
        "list",
        "note",
        "We deploy with Terraform, Helm and Argo CD.",
        [["terraform", "helm"]],
        [],
        [],
    ),
    (
        "list",
        "chat",
        "My kids are Maya, Leo and Sam.",
        [["maya", "leo", "sam"]],
        [
            rel("user", "child|has_child|kid", "Maya"),
            rel("user", "child|has_child|kid", "Leo"),
            rel("user", "child|has_child|kid", "Sam"),
        ],
        [],
    ),
    (
        "list",
        "note",
        "Owners: billing is mine, search is Dev's, auth is Priya's.",
        [["billing", "user"]],
        [],
        [],
    ),
    (
        "list",
        "chat",
        "I use Obsidian for notes, Things for tasks and Fantastical for my calendar.",
        [["obsidian"]],
        [],
        [
            rel("notes", "uses|uses_docs", "Obsidian"),
            rel("user", "uses|uses_docs", "Obsidian"),
            rel("tasks", "uses", "Things"),
            rel("user", "uses", "Things"),
            rel("calendar", "uses", "Fantastical"),
            rel("user", "uses", "Fantastical"),
        ],
    ),
    ("list", "note", "Reviewers for the SDK: me, Lena and Omar.", [["reviewers", "sdk"]], [], []),
    (
        "list",
        "chat",
        "I own a Kindle, a Kobo and a reMarkable.",
        [["kindle", "kobo"]],
        [rel("user", "has|owns", "Kindle")],
        [rel("user", "has|owns", "Kobo"), rel("user", "has|owns", "reMarkable")],
    ),
    # plain notes and turns of the same registers (no slash, pronoun or product trap)
    (
        "plain",
        "note",
        "We test the mobile app on BrowserStack before each release.",
        [["mobile app", "browserstack"]],
        [],
        [rel("mobile app", "uses|uses_testing", "BrowserStack")],
    ),
    (
        "plain",
        "chat",
        "I do my taxes with TurboTax.",
        [["taxes", "turbotax"]],
        [rel("taxes", "uses", "TurboTax")],
        [],
    ),
    (
        "plain",
        "note",
        "Decided to keep the runbooks in Notion.",
        [["runbooks", "notion"]],
        [rel("runbooks", "uses|uses_docs", "Notion")],
        [],
    ),
    ("plain", "chat", "I keep my bike in the hallway.", [["bike", "hallway"]], [], []),
    (
        "plain",
        "note",
        "We store build artifacts in S3.",
        [["build artifacts", "s3"]],
        [rel("build artifacts", "uses|uses_storage|uses_cloud", "S3")],
        [],
    ),
    ("plain", "chat", "I do my homework with Sam after school.", [["homework", "sam"]], [], []),
    (
        "plain",
        "note",
        "The billing ETL is orchestrated with Airflow.",
        [["billing etl", "airflow"]],
        [rel("billing ETL", "uses", "Airflow")],
        [rel("ETL", "uses", "Airflow")],
    ),
    (
        "plain",
        "chat",
        "I track my runs with a Garmin Forerunner.",
        [["runs", "garmin"]],
        [],
        [rel("runs", "uses", "Garmin Forerunner")],
    ),
    (
        "plain",
        "note",
        "We require two approvals before merging to main.",
        [["two approvals", "main"]],
        [],
        [],
    ),
    (
        "plain",
        "chat",
        "I send my invoices through FreshBooks.",
        [["invoices", "freshbooks"]],
        [rel("invoices", "uses", "FreshBooks")],
        [],
    ),
    (
        "plain",
        "note",
        "Our docs site is built with Docusaurus.",
        [["docs site", "docusaurus"]],
        [],
        [rel("docs site", "uses|uses_docs", "Docusaurus")],
    ),
    (
        "plain",
        "chat",
        "I keep my notes in Bear.",
        [["notes", "bear"]],
        [],
        [rel("notes", "uses|uses_docs", "Bear")],
    ),
]


def build(
    labelled: list[Row] | None = None, prefix: str = "n27", doc: str | None = __doc__
) -> dict[str, Any]:
    """The set's JSON: ``labelled`` (this set's ``ROWS`` when None), ids ``prefix-NNN``,
    folds alternating within each kind, the first paragraph of ``doc`` as its "about"
    (scripts/mend28_write_set.py writes its own set through it)."""
    seen: dict[str, int] = {}
    rows = []
    for number, (kind, register, text, expect, relations, allowed) in enumerate(
        ROWS if labelled is None else labelled
    ):
        index = seen.get(kind, 0)
        seen[kind] = index + 1
        rows.append(
            {
                "id": f"{prefix}-{number:03d}",
                "fold": "tune" if index % 2 == 0 else "check",
                "kind": kind,
                "register": register,
                "text": text,
                "expect": expect,
                "relations": relations,
                "allowed": allowed,
            }
        )
    return {"about": (doc or "").split("\n\n")[0].replace("\n", " "), "turns": rows}


def main() -> None:
    OUT.write_text(json.dumps(build(), indent=1) + "\n")
    data = json.loads(OUT.read_text())
    print(
        len(data["turns"]),
        "rows",
        {k: sum(r["kind"] == k for r in data["turns"]) for k in {r["kind"] for r in data["turns"]}},
    )


if __name__ == "__main__":
    main()
