"""Documented size caps, so that machine-made input is refused with a clear message instead of
stalling. Every cap has a command-line flag to raise it.

=================  =======  ==============================================================
cap                default  what it bounds (flag)
=================  =======  ==============================================================
abilities          1,000    waiting abilities in one scenario (``--max-abilities``)
objects            10,000   objects in one scenario (``--max-objects``)
candidates         10,000   things one requirement may choose among (``--max-candidates``)
outcomes           2·10⁶    outcomes the solver engines (cpsat, constraint) may enumerate, and
                            whole outcomes listed across passes (``--max-outcomes``); the
                            product engine counts, samples and streams one pass at any size
passes             8        passes of 603.3b's loop when abilities keep triggering
                            (``--max-passes``)
=================  =======  ==============================================================
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import ScenarioError
from .facts import Facts

__all__ = ["DEFAULT_LIMITS", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    abilities: int = 1_000
    objects: int = 10_000
    candidates: int = 10_000
    outcomes: int = 2_000_000
    passes: int = 8

    def check(self, facts: Facts) -> None:
        """Raise :class:`ScenarioError` naming the first cap ``facts`` exceeds."""
        s = facts.scenario
        if len(s.triggers) > self.abilities:
            raise ScenarioError(
                f"{len(s.triggers)} waiting abilities is more than the limit of {self.abilities} "
                "(raise it with --max-abilities)",
                ("triggers",),
            )
        if len(s.objects) > self.objects:
            raise ScenarioError(
                f"{len(s.objects)} objects is more than the limit of {self.objects} (raise it with --max-objects)",
                ("objects",),
            )
        for i, a in enumerate(facts.abilities):
            for m in a.modes:
                for r in m.requirements:
                    if len(r.candidates) > self.candidates:
                        where: tuple[str | int, ...] = ("triggers", i)
                        where += ("modes", m.index, "targets", r.index) if a.modal else ("targets", r.index)
                        raise ScenarioError(
                            f"{len(r.candidates)} candidates is more than the limit of {self.candidates} "
                            "(raise it with --max-candidates)",
                            where,
                        )


DEFAULT_LIMITS = Limits()
