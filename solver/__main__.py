"""``python -m triggerstack.solver`` runs the command line."""

from ._cli import run

run()
