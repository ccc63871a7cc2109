"""The scenario and outcome types, and the rules' facts (no solver here).

``from triggerstack.model import Scenario, Outcome``

Modules, bottom up (each imports only those above it in this list):

* ``types``, ``rules``, ``errors``, ``io``, ``lazy`` — ids, rule numbers and codes, the exception tree,
  reading files, lazy exports (this package's and the solver's);
* ``shapes`` — the pydantic shapes of docs/formats.md (Scenario); ``controllers`` (603.3a), ``references``
  (cross-reference checks), ``things``, ``filters``, ``targeting`` (115, 702), ``apnap`` (101.4,
  603.3b blocks), ``modes`` (700.2);
* ``scenario`` — :class:`Scenario` and its validation;
* ``facts`` — ``compile_facts(scenario) -> Facts``, the frozen facts every engine reads, including
  the stack-dependent ones;
* ``limits`` — the documented size caps; ``outcome`` — the outcome of docs/formats.md, canonical form, score;
* ``passes`` — 603.3b's loop: the scenario of each further pass.
"""

from typing import TYPE_CHECKING

from .lazy import lazy_exports

if TYPE_CHECKING:
    from .errors import EndlessLoop, ProposalError, ScenarioError
    from .facts import AbilityFacts, Facts, ModeFacts, RequirementFacts, compile_facts, facts_of
    from .limits import DEFAULT_LIMITS, Limits
    from .outcome import Entry, ModeChoice, Outcome, Score, canonical, outcome_dict, outcome_json
    from .passes import NextPass, Passes, by_reactions
    from .rules import CODE_RULE, Code, Rule
    from .scenario import Scenario

_HOMES = {
    "EndlessLoop": ".errors",
    "ProposalError": ".errors",
    "ScenarioError": ".errors",
    "AbilityFacts": ".facts",
    "Facts": ".facts",
    "ModeFacts": ".facts",
    "RequirementFacts": ".facts",
    "compile_facts": ".facts",
    "facts_of": ".facts",
    "DEFAULT_LIMITS": ".limits",
    "Limits": ".limits",
    "Entry": ".outcome",
    "ModeChoice": ".outcome",
    "Outcome": ".outcome",
    "Score": ".outcome",
    "canonical": ".outcome",
    "outcome_dict": ".outcome",
    "outcome_json": ".outcome",
    "NextPass": ".passes",
    "Passes": ".passes",
    "by_reactions": ".passes",
    "CODE_RULE": ".rules",
    "Code": ".rules",
    "Rule": ".rules",
    "Scenario": ".scenario",
}



__all__ = [
    "CODE_RULE",
    "DEFAULT_LIMITS",
    "AbilityFacts",
    "Code",
    "EndlessLoop",
    "Entry",
    "Facts",
    "Limits",
    "ModeChoice",
    "ModeFacts",
    "NextPass",
    "Outcome",
    "Passes",
    "ProposalError",
    "RequirementFacts",
    "Rule",
    "Scenario",
    "ScenarioError",
    "Score",
    "by_reactions",
    "canonical",
    "compile_facts",
    "facts_of",
    "outcome_dict",
    "outcome_json",
]

__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals(), __all__)
