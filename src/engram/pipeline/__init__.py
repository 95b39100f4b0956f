"""The write pipeline (seed 004): what happens to a memory after it is stored.

Jobs queued with the memory (``memory_jobs``) are run by :mod:`engram.pipeline.worker`,
which finds each kind's handler in :mod:`engram.pipeline.handlers`: extraction,
decisions and their application, hints, document ingest, classification.
"""
