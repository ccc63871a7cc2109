"""``step``: the legal next decisions, one at a time, for agents that decide as 603.3 reads.

A walk goes block by block (603.3b). With no ability in hand, the next decision is ``put X`` (X
has a legal choice with what is on the stack now) or ``remove X`` (it has none, or may choose no
mode, or can never be put there). After ``put X``, X's choices are announced token by token:
``mode X:m`` for each chosen mode (in mode order; repeats repeated) and ``end modes`` for a modal
ability; then for each chosen mode and each of its requirements, ``target T`` for each target
(in scenario order) and ``end targets``, followed by ``divide N`` per target where the amount is
divided. Only decisions that still extend to a legal outcome are offered, so every walk ends in
an outcome that ``check`` accepts, and every outcome is reachable.

Decision ids are fixed per scenario (``Stepper.size`` of them), so an agent can keep a 0/1 mask:
they are the ids of the scenario's smallest :class:`ActionLayout` (:attr:`Stepper.needs`; the
table of ids is in its docstring), or of a layout given to the :class:`Stepper`, whose ids mean
the same in every scenario that fits it (a fixed action space). An id whose slot the scenario
leaves empty is never legal.

Who decides (:meth:`Stepper.decider`): the chooser of the ability in hand while its modes and
targets are announced (its controller unless the scenario names one, 700.2e); otherwise the player
whose block is being put on the stack (603.3b; a Two-Headed Giant team's block is decided by its
first player in turn order, 805.7). An illegal :meth:`~Stepper.apply` raises
:class:`~triggerstack.solver.IllegalDecision`, which says why.

States are values: :meth:`Stepper.apply` returns a new one and never changes its input.

The modules: ``_decision`` (a decision, its readable form and its parser), ``_layout`` (the
action layout), ``_pass`` (one pass, with its caches) and ``_walk`` (the walk across passes, and
replaying an outcome); only what this package exports is used outside it.
"""

from ._decision import Decision as Decision
from ._decision import DecisionKind as DecisionKind
from ._layout import ActionLayout as ActionLayout
from ._pass import PassStepper as PassStepper
from ._state import State as State
from ._walk import IllegalOutcome as IllegalOutcome
from ._walk import Stepper as Stepper
from ._walk import Walk as Walk
