"""The server: the verbs as JSON-RPC 2.0 methods for engines in any language.

``rpc`` holds the methods, transport-free (params and results are pydantic models, published by
``rpc.discover``); ``stdio`` serves them one request per line on standard input and output
(``triggerstack serve --stdio``); ``http`` over HTTP. Beside them: ``cache``, the scenarios sent as
documents compiled once; ``batch``, ``check --batch`` and the process pool; ``jobs``, ``batch``.
"""
