"""New-user pass, round twenty-five: an agent developer wiring engram into agent frameworks.

Cases written for this round (none of the project's test or bench data): a developer
builds two agents over several sessions, following only the README, getting-started,
docs/adapters/*.md, docs/mcp.md, docs/library.md and docs/client.md:

- **a coding assistant** ("coder") for Priya: its chat history kept by LangChain's
  ``EngramChatMessageHistory`` (three sessions), notes it stores itself through MCP
  (``engram mcp --user priya --agent coder`` over stdio, JSON-RPC as a host speaks it),
  and questions answered through ``EngramRetriever`` and MCP's ``search_memory``;
- **a travel concierge** ("concierge") for Tom: his profile in LangGraph's
  ``EngramStore`` (a key updated when a fact changes), chat turns flushed by LlamaIndex's
  ``Memory`` into ``EngramMemoryBlock``, and OpenAI Agents SDK runs with
  ``EngramSession`` and ``memory_tools`` (the SDK's ``ScriptedModel`` stands in for the
  model, as the doc's example does).

A few facts change in later sessions, a few inputs are bad, and 18 questions have known
answers. ``scripts/dogfood25_pass.py`` runs them; this module only holds the cases.
"""

from __future__ import annotations

from typing import Final

PRIYA: Final = "priya"
TOM: Final = "tom"

#: The coding assistant's conversations, through LangChain's chat history (user_id=priya).
#: Session ids are the developer's own; the third session changes two facts.
CODER_SESSIONS: Final[list[tuple[str, list[tuple[str, str]]]]] = [
    (
        "coder-2026-11-20",
        [
            (
                "The billing service is written in Go 1.22 and lives in the repo acme/billing.",
                "Got it: billing is Go 1.22, repo acme/billing.",
            ),
            (
                "We deploy billing with Argo CD; the staging cluster is called kestrel.",
                "Noted, Argo CD deploys billing and staging is the kestrel cluster.",
            ),
            (
                "Please always run golangci-lint before you propose a commit.",
                "Understood, I will run golangci-lint before every commit I propose.",
            ),
        ],
    ),
    (
        "coder-2026-11-24",
        [
            (
                "The flaky test TestInvoiceRounding fails because of time zones; pin TZ=UTC in CI.",
                "I will pin TZ=UTC in the CI job for TestInvoiceRounding.",
            ),
            (
                "My code reviewer for billing is Marek, he wants small PRs under 300 lines.",
                "Marek reviews billing and prefers PRs under 300 lines; I will keep them small.",
            ),
        ],
    ),
    (
        "coder-2026-11-30",
        [
            (
                "Change of plan: we moved billing deploys from Argo CD to Flux last week.",
                "Noted: billing deploys with Flux now, not Argo CD.",
            ),
            (
                "Also Marek left the team; Ines reviews billing PRs from now on.",
                "Understood, Ines is the billing reviewer now.",
            ),
        ],
    ),
]

#: Notes the coding assistant stores itself over MCP (remember), as an agent does.
CODER_MCP_NOTES: Final[list[dict[str, object]]] = [
    {
        "content": "The billing database is PostgreSQL 16 on host pg-billing-2; "
        "migrations use goose.",
        "tags": ["billing", "db"],
    },
    {
        "content": "Decision: invoice PDFs are rendered with wkhtmltopdf because "
        "the Go PDF library broke on Arabic text.",
        "type": "fact",
        "tags": ["billing", "decision"],
    },
    {"content": "Priya prefers table-driven tests in Go.", "tags": ["preference"]},
]

#: Tom's profile in LangGraph's store: (namespace, key, value). Puts run in order, so a
#: later put of the same key is the changed fact.
CONCIERGE_PROFILE: Final[list[tuple[tuple[str, ...], str, dict[str, str]]]] = [
    (("users", TOM), "seat", {"text": "Tom always wants an aisle seat on flights."}),
    (("users", TOM), "loyalty", {"text": "Tom's frequent flyer programme is Flying Blue."}),
    (("users", TOM), "diet", {"text": "Tom eats halal meals only."}),
    (("users", TOM), "home", {"text": "Tom lives in Rotterdam and flies from Amsterdam."}),
    # Changed later in the week: he moved.
    (("users", TOM), "home", {"text": "Tom moved to Utrecht; he still flies from Amsterdam."}),
]

#: Chat turns the concierge's LlamaIndex memory flushes into engram (session concierge-1).
CONCIERGE_TURNS: Final[list[tuple[str, str]]] = [
    (
        "I'm going to Kyoto from 14 to 21 March for a conference at Kyoto University.",
        "Noted: Kyoto, 14 to 21 March, conference at Kyoto University.",
    ),
    (
        "Book me a ryokan near Gion, my budget is 180 euros a night.",
        "I will look for ryokans near Gion under 180 euros a night.",
    ),
    (
        "My wife Sofia joins me on the 18th; she is vegetarian.",
        "Sofia arrives on the 18th and eats vegetarian, noted.",
    ),
    ("Thanks, that's all for today.", "You're welcome, Tom."),
]

#: What the concierge's OpenAI Agents runs store with the ``remember`` tool.
CONCIERGE_REMEMBERED: Final[list[str]] = [
    "Tom's passport expires on 2 August 2027.",
    "Tom's travel insurance is with Allianz, policy number AZ-448812.",
    # A changed fact: the trip's end date moved.
    "Tom extended the Kyoto trip: he now flies home on 23 March instead of 21 March.",
]

#: (user, question, words the right memory holds, where it was written).
QUESTIONS: Final[list[tuple[str, str, str, str]]] = [
    (PRIYA, "Which language is the billing service written in?", "Go 1.22", "langchain"),
    (PRIYA, "What is the name of the staging cluster?", "kestrel", "langchain"),
    (PRIYA, "Which linter should run before a commit?", "golangci-lint", "langchain"),
    (PRIYA, "How do we fix TestInvoiceRounding?", "TZ=UTC", "langchain"),
    (PRIYA, "What tool deploys billing now?", "Flux", "langchain"),
    (PRIYA, "Who reviews billing pull requests now?", "Ines", "langchain"),
    (PRIYA, "Which database does billing use?", "PostgreSQL 16", "mcp"),
    (PRIYA, "How are invoice PDFs rendered?", "wkhtmltopdf", "mcp"),
    (PRIYA, "How does Priya like her Go tests written?", "table-driven", "mcp"),
    (TOM, "Does Tom prefer a window or an aisle seat?", "aisle", "langgraph"),
    (TOM, "Which frequent flyer programme does Tom use?", "Flying Blue", "langgraph"),
    (TOM, "What meals does Tom eat?", "halal", "langgraph"),
    (TOM, "Which city does Tom live in?", "Utrecht", "langgraph"),
    (TOM, "When is the Kyoto conference?", "14 to 21 March", "llamaindex"),
    (TOM, "What is the hotel budget per night?", "180 euros", "llamaindex"),
    (TOM, "What does Sofia eat?", "vegetarian", "llamaindex"),
    (TOM, "When does Tom's passport expire?", "2 August 2027", "openai-agents"),
    (TOM, "Who is Tom's travel insurer?", "Allianz", "openai-agents"),
]

#: Questions whose answer must not come from the other user's memories (isolation):
#: (asking user, question, words only the other user's memories hold).
CROSS: Final[list[tuple[str, str, str]]] = [
    (TOM, "Which database does billing use?", "pg-billing-2"),
    (PRIYA, "When does the passport expire?", "2 August 2027"),
    (PRIYA, "Which frequent flyer programme?", "Flying Blue"),
]

#: Bad inputs per surface: (surface, call, what a user expects).
BAD_INPUTS: Final[list[tuple[str, str, str]]] = [
    ("mcp", "remember {'content': ''}", "a tool error naming content"),
    ("mcp", "forget {'id': 'not-an-id'}", "a tool error saying the id is unknown"),
    ("mcp", "search_memory {'query': 'x', 'limit': 100000}", "limit 1-50 refused"),
    ("mcp", "recall_memory {'ids': [<tom's id>]}", "not_found: another namespace"),
    ("mcp", "tools/call of an unknown tool", "a clear error, session goes on"),
    ("langchain", "EngramRetriever(k=0) / k=10**6", "an error, or all there is"),
    ("langchain", "EngramRetriever(user_id='nobody').invoke(...)", "[]"),
    ("langchain", "EngramChatMessageHistory(mem, '', ...)", "an error"),
    ("langgraph", "store.search(prefix, query=..., limit=10**6)", "what there is"),
    ("langgraph", "store.put(ns, 'k', {'text': ''})", "stored or a clear error"),
    ("langgraph", "store.get(('users', 'nobody'), 'seat')", "None"),
    ("openai-agents", "remember('') through the tool", "'The memory tool failed: ...'"),
    ("openai-agents", "forget('0000') through the tool", "'The memory tool failed: ...'"),
    ("openai-agents", "forget(<priya's id>) from tom's tools", "not found: isolation"),
    ("openai-agents", "EngramSession('', mem)", "InvalidInputError"),
    ("llamaindex", "EngramMemoryBlock(memory=mem, user_id='')", "an error"),
    ("library", "mem.recall(q, user_id='ghost')", "empty, with a reason"),
]
