"""The scenario and outcome types, and the rules' facts (no solver here).

``from triggerstack.model import Scenario, Outcome``
"""

from .errors import ProposalError, ScenarioError
from .facts import AbilityFacts, Facts, ModeFacts, RequirementFacts, compile, facts_of
from .outcome import Entry, ModeChoice, Outcome, Score, canonical, outcome_dict, outcome_json
from .rules import CODE_RULE, Code, Rule
from .scenario import Scenario

__all__ = [
    "CODE_RULE",
    "AbilityFacts",
    "Code",
    "Entry",
    "Facts",
    "ModeChoice",
    "ModeFacts",
    "Outcome",
    "ProposalError",
    "RequirementFacts",
    "Rule",
    "Scenario",
    "ScenarioError",
    "Score",
    "canonical",
    "compile",
    "facts_of",
    "outcome_dict",
    "outcome_json",
]
