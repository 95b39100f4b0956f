"""Framework adapters (issue 14, FEATURES E3): engram behind the memory interfaces of
agent frameworks.

Each module imports its framework, an optional extra, so ``import engram`` never does:
``engram.adapters.langgraph`` (a LangGraph ``BaseStore``), ``engram.adapters.langchain``
(a retriever and a chat message history), ``engram.adapters.llamaindex`` (a memory
block) and ``engram.adapters.openai_agents`` (memory tools and a session). Like the
surfaces, adapters only call the library (``Memory`` and its parts).
"""
