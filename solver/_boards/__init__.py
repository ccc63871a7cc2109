"""Random boards, each a valid scenario (docs/rl.md, "Boards from real cards"): real cards drawn
from the Oracle data whose triggered abilities the reader reads whole, around one event that makes
them trigger — or, without the extra ``[cards]``, generated stand-ins of the same shapes.

The modules: ``_assemble`` (one board around its event, as a scenario document), ``_generated``
(the stand-ins), ``_built`` (its scenario, from the pool's readings validated once a piece),
``_board`` (one board of a stream: drawn, compiled, laid out and counted), ``_draw`` (the seeded
streams and their worker processes: ``rl.boards``) and ``_cli``
(``triggerstack boards``, whose parser is built at every start of the command line: this package
imports nothing itself)."""
