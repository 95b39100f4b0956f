"""The store's concerns written once, for SQLite and PostgreSQL alike.

Each module here holds one concern's SQL and logic (``palace``, ``jobs``, ``runs`` ...)
over :class:`~engram.store.sql.session.Sql`: the backend's database seen through its
:class:`~engram.store.sql.dialect.Dialect`. Shared SQL is written with ``?``
placeholders in the subset both engines speak (``ON CONFLICT``, ``RETURNING``,
``TRUE``/``FALSE``); what truly differs (parameter style, time and JSON codecs, the NUL
rule, row locking, error classes, a few JSON operators) is the dialect's. A fragment
that only one concern needs sits in that concern's module, keyed by ``d.name``.

What stays written natively per engine is listed, with its reason, in
``docs/architecture.md`` ("Store: one implementation, two dialects").
"""
