"""``python -m triggerstack.solver`` runs the command line."""

from .cli import run

run()
