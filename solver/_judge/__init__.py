"""The judge room: whether a proposal, one decision of a walk, or one candidate is legal, and if not
which rule it breaks and why, in one vocabulary (:class:`Reason`: a violation code, a rule, a
sentence). ``check`` (:func:`judge`), ``step`` (its ``why_illegal``) and ``explain`` (its statuses)
ask here, one module per rule; CP-SAT and python-constraint2 state the same rules again on purpose,
as independent cross-checks (docs/architecture.md, the rule map). Each name is listed once: its import."""

from __future__ import annotations

from ._division import divide_first as divide_first
from ._division import divided_wrongly as divided_wrongly
from ._division import nothing_to_divide as nothing_to_divide
from ._division import part_refused as part_refused
from ._modes import instances_in_order as instances_in_order
from ._modes import legal_only_if_below as legal_only_if_below
from ._modes import mode_count as mode_count
from ._modes import mode_illegal as mode_illegal
from ._modes import mode_not_its_own as mode_not_its_own
from ._modes import mode_repeat as mode_repeat
from ._modes import mode_unavailable as mode_unavailable
from ._modes import modes_miscounted as modes_miscounted
from ._modes import modes_of_unmodal as modes_of_unmodal
from ._modes import no_such_mode as no_such_mode
from ._modes import shared_target as shared_target
from ._modes import targets_outside_modes as targets_outside_modes
from ._never import broken_for_good as broken_for_good
from ._never import mode_broken_for_good as mode_broken_for_good
from ._never import mode_never_chosen as mode_never_chosen
from ._never import never_chosen as never_chosen
from ._order import already_done as already_done
from ._order import announce_first as announce_first
from ._order import announce_then as announce_then
from ._order import block_order as block_order
from ._order import first_then as first_then
from ._order import later_block as later_block
from ._order import longest_in_order as longest_in_order
from ._order import missing as missing
from ._order import modes_first as modes_first
from ._order import next_requirement as next_requirement
from ._order import not_triggered as not_triggered
from ._order import not_yet as not_yet
from ._order import offered as offered
from ._order import pass_order as pass_order
from ._order import passes_mismatch as passes_mismatch
from ._order import placed_and_removed as placed_and_removed
from ._order import placed_twice as placed_twice
from ._order import put_first as put_first
from ._order import removed_twice as removed_twice
from ._order import triggered_earlier as triggered_earlier
from ._order import undecided as undecided
from ._order import walk_over as walk_over
from ._proposal import Verdict as Verdict
from ._proposal import Violation as Violation
from ._proposal import judge as judge
from ._reason import Reason as Reason
from ._reason import cite as cite
from ._relinked import refits as refits
from ._removal import cannot_be_removed as cannot_be_removed
from ._removal import may_be_removed as may_be_removed
from ._removal import must_be_put as must_be_put
from ._removal import must_be_removed as must_be_removed
from ._removal import never_put as never_put
from ._removal import removal_depends as removal_depends
from ._removal import removed_always as removed_always
from ._removal import removed_but_legal as removed_but_legal
from ._targets import barred as barred
from ._targets import cannot_choose as cannot_choose
from ._targets import chosen_twice as chosen_twice
from ._targets import excluded as excluded
from ._targets import linked_misfit as linked_misfit
from ._targets import must_disobeyed as must_disobeyed
from ._targets import must_elsewhere as must_elsewhere
from ._targets import no_choice_goes_on as no_choice_goes_on
from ._targets import no_linked_fit as no_linked_fit
from ._targets import no_such_requirement as no_such_requirement
from ._targets import not_a_thing as not_a_thing
from ._targets import not_distinct as not_distinct
from ._targets import not_functioning as not_functioning
from ._targets import not_in_pass as not_in_pass
from ._targets import not_on_stack as not_on_stack
from ._targets import target_count as target_count
from ._targets import targets_miscounted as targets_miscounted
from ._targets import unfit as unfit
from ._targets import worded as worded
