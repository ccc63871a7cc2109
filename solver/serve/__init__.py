"""The server: the verbs as JSON-RPC 2.0 methods for engines in any language.

``rpc`` holds the methods, transport-free (params and results are pydantic models, published by
``rpc.discover``); ``stdio`` serves them one request per line on standard input and output
(``triggerstack serve --stdio``); ``http`` over HTTP. Beside them: ``cache``, the scenarios sent as
documents compiled once; ``batch``, ``check --batch`` and the process pool; ``jobs``, ``batch``.
"""

from typing import TYPE_CHECKING

from triggerstack.model._lazy import lazy_exports

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from ._http import app as app
    from ._rpc import Service as Service
    from ._stdio import serve as serve

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
