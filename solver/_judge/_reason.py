"""The one vocabulary every judgment speaks: a :class:`Reason` is a violation code, the rule it
breaks and one sentence."""

from __future__ import annotations

from dataclasses import dataclass

from triggerstack.model._rules import CODE_RULE, Code, Rule


@dataclass(frozen=True, slots=True)
class Reason:
    """Why something is not legal. ``code`` is the violation code of docs/formats.md (None where a
    decision breaks no rule of a proposal: out of turn, or after the walk is over); ``rule`` the rule
    it breaks (None where none does). ``later``: the decision breaks no rule — a legal outcome takes
    it further on, and ``text`` says how to get there (a walk decides one thing at a time)."""

    code: Code | None
    rule: Rule | None
    text: str
    later: bool = False

    @classmethod
    def of(cls, code: Code, text: str, rule: Rule | None = None) -> Reason:
        """A reason with ``code``'s own rule (:data:`~triggerstack.model._rules.CODE_RULE`) unless ``rule`` names a
        more specific one."""
        return cls(code, rule or CODE_RULE[code], text)

    def at(self, where: str) -> Reason:
        """The same reason said of a place (``"E's mode counter, target ability"``)."""
        return Reason(self.code, self.rule, f"{where}: {self.text}", self.later)


def cite(first: Rule, last: Rule | None = None, dash: str = "-") -> str:
    """How a sentence cites ``first``, or the rules from ``first`` to ``last`` of one paragraph
    (``603.3c-d``): from the :class:`~triggerstack.model._rules.Rule` values, never written by hand."""
    if last is None:
        return first.value
    stem = first.value[:-1]
    assert last.value.startswith(stem) and last.value > first.value, (first, last)
    return f"{first.value}{dash}{last.value.removeprefix(stem)}"
