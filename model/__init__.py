"""The scenario and outcome types, and the rules' facts (no solver here).

``from triggerstack.model import Scenario, Outcome``. Its modules, their layers and which rule each
decides: docs/architecture.md, "The rooms"; the public names: docs/python.md.
"""

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from ._errors import EndlessLoop as EndlessLoop
    from ._errors import LayoutOverflow as LayoutOverflow
    from ._errors import MissingExtra as MissingExtra
    from ._errors import PastCompiled as PastCompiled
    from ._errors import ProposalError as ProposalError
    from ._errors import ScenarioError as ScenarioError
    from ._errors import UsageError as UsageError
    from ._errors import WalkStateError as WalkStateError
    from ._facts import AbilityFacts as AbilityFacts
    from ._facts import Facts as Facts
    from ._facts import ModeFacts as ModeFacts
    from ._facts import RequirementFacts as RequirementFacts
    from ._facts import compile_facts as compile_facts
    from ._facts import facts_of as facts_of
    from ._limits import DEFAULT_LIMITS as DEFAULT_LIMITS
    from ._limits import Limits as Limits
    from ._outcome import Entry as Entry
    from ._outcome import ModeChoice as ModeChoice
    from ._outcome import Outcome as Outcome
    from ._outcome import Score as Score
    from ._outcome import canonical as canonical
    from ._outcome import outcome_dict as outcome_dict
    from ._outcome import outcome_json as outcome_json
    from ._passes import NextPass as NextPass
    from ._passes import Passes as Passes
    from ._passes import by_reactions as by_reactions
    from ._rules import CODE_RULE as CODE_RULE
    from ._rules import Code as Code
    from ._rules import Rule as Rule
    from ._scenario import Scenario as Scenario

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
