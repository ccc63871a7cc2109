"""Random boards, each a valid scenario (docs/rl.md, "Boards from real cards"): real cards drawn
from the Oracle data whose triggered abilities the reader reads whole, around one event that makes
them trigger — or, without the extra ``[cards]``, generated stand-ins of the same shapes.

The modules: ``_assemble`` (one board around its event, as a scenario document), ``_generated``
(the stand-ins), ``_draw`` (the seeded stream, validated and counted: ``rl.boards``) and ``_cli``
(``triggerstack boards``, whose parser is built at every start of the command line: this package
imports nothing itself)."""
