"""What a judge hears of a choice no legal outcome makes, in the words ``check`` gives a proposal
that makes it (:func:`~._proposal.judge`'s own judgment of one entry): a candidate no legal outcome
takes (``explain``'s exclusions), a mode none chooses (``explain``'s status), and a walk's target
that the choice announced with it already breaks (``step``'s why)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import chain, combinations, combinations_with_replacement, islice, product
from weakref import WeakKeyDictionary

from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._limits import RUNNING
from triggerstack.model._outcome import Entry, ModeChoice
from triggerstack.model._rules import Code, Rule

from .._core.choices import iter_divided, iter_mode_targets
from .._core.indexed import Choice, ModeInstance, Placed, entry_made
from .._core.must import iter_legal_choices
from .._core.space import has_legal_choice
from . import _modes, _removal, _targets
from ._proposal import _check_entry, _check_modes, _mode_legal, _Report
from ._reason import Reason
from ._relinked import linked_to, relinked

WAYS = 512
"""The most ways of choosing a thing (legal choices with it in place, each once) :func:`never_chosen`
judges: past them, its reasons are those of the first ones only, each kind of stack's first way
before any stack's second (each way is a ``check`` of the entry, ~1 ms). It judged the first eight
choices of 64, must-target effects ignored, and told ``P0 chosen for both r3 and r0`` where r0 = P0
in each of those, not in the ninth."""


def never_chosen(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    r: RequirementFacts,
    t: int,
    stacks: Sequence[frozenset[int]] | None = None,
    refitting: bool = False,
) -> list[Reason]:
    """Why no legal outcome chooses candidate ``t`` for ``a``'s requirement ``r`` of mode ``m``, in
    the words :func:`~._proposal.judge` gives a proposal that does, judged on each stack ``a`` can
    be put on (``stacks``: each set of the abilities it could target below it in some legal
    outcome — explain gives them; every ability that may precede it, if not given), one of each
    kind (:func:`stack_kinds`: stacks that differ only by abilities every rule sees alike are
    judged alike). On each: ``t``
    an ability not on it: not yet on the stack; ``m`` a mode that can't be chosen there: the mode's
    reason (``check`` tells that of a proposal choosing it); else every legal choice of ``m``
    there (601.2c's must-target effects obeyed, divisions made; up to :data:`WAYS` distinct ones in
    all, each stack's first before any stack's second) with ``t`` in place of ``r``'s last target
    (or as its only one) — or, where none chooses
    ``m``, the choice a judge would propose with it — only the stacks where a legal choice chooses
    ``m`` are judged, if there are any. What all of those break
    (:func:`_whatever_else`): a reason of one stack alone — T2 above T1 is not on the stack, T2
    below T1 has T0 below too, which T1 must target — is no reason the thing is never chosen. Empty
    when no such choice breaks a rule (the stack decides, not the choice), and, ``refitting``, when
    no choice of the targets linked to ``r`` makes ``t`` fit (:func:`relinked`: a thing barred as
    fitting for no legal choice of them is told so by its bar)."""
    if a.forced_removal is not None:
        return [_removal.never_put(a, placed=False)]
    every = stack_kinds(facts, a, [a.precedable_targets] if stacks is None else stacks, t)
    b = facts.waiting_ability(t)
    if b is not None and not any(b in below for below in every):  # what every way breaks, said at once
        return [_targets.not_on_stack(facts, a, t)]
    told: list[list[Reason]] = []
    reading = Reading()
    # the stacks where a legal choice chooses m: a proposal choosing m elsewhere breaks more than
    # why the thing is never chosen (none: m is never chosen, and each stack says why)
    chosen = [below for below in every if _chooses(facts, a, m, below)]
    # each stack's first way before any stack's second: past WAYS, as many stacks as it allows
    # are judged (the first ways of one stack alone told 115.3 where a stack without T1 has none)
    streams = [_never_on(facts, a, m, r, t, below, bool(chosen), reading) for below in chosen or every]
    while streams and len(told) < WAYS:
        going = []
        for stream in streams:
            reasons = next(stream, None)
            if reasons is not None:
                told.append(reasons)
                going.append(stream)
            if len(told) >= WAYS:
                reading.cut = reading.cut or any(next(s, None) is not None for s in streams)
                break
        streams = going
    if refitting and not reading.refit:
        return []
    return _whatever_else(told, a.id, f"choosing {facts.things[t].id}", whole=not reading.cut) if told else []


class Reading:
    """What :func:`never_chosen`'s streams (one a stack) share as they read the ways: each way told,
    by its :func:`bearing` targets (``ways``), the legal choices read (``read``, :data:`CHOICES` at
    most), whether some way was left unjudged (``cut``: then no reason is said of every way), and
    whether some way's linked targets were chosen again to fit (``refit``, :func:`relinked`)."""

    __slots__ = ("cut", "read", "refit", "ways")

    def __init__(self) -> None:
        self.ways: set[object] = set()
        self.read = 0
        self.cut = False
        self.refit = False  # some way's linked targets were chosen again so that every filter fits


CHOICES = 20_000
"""The most legal choices :func:`never_chosen` reads to find the ways, over every stack (each read
is ~15 µs; only a way whose bearing targets are new is judged, ~1 ms). Past them, or past
:data:`WAYS` ways judged, not every way was judged, and each reason told is one some way gives
(:func:`_whatever_else`), never one said of every way."""


def bearing(a: AbilityFacts, m: ModeFacts, r: RequirementFacts) -> frozenset[int] | None:
    """The requirements of ``m`` whose targets may change what ``check`` says of a legal choice with
    a thing in place of ``r``'s last target: ``r`` itself, those it must differ from or that must
    differ from it (115.3), those its filter names (``target_of``), and each filter naming ``r``
    with every requirement that filter names (601.2c: it is read with the choice made). None where
    every target may: the ability's modes must target different things (700.2) or it has a
    must-target effect (601.2c counts those obeyed over the whole choice). Two choices alike on these
    are one way of choosing the thing: ``check`` says the same of both. The first 512 of 625 legal
    choices with r0 = A (r1, r2 free of r3) were judged as every way, and explain told 115.3 alone
    of a1 for r3, where a proposal with r0 = B is told r3's filter."""
    if a.must or a.distinct_targets:
        return None
    near = {r.index, *r.depends_on}
    for q in m.requirements:
        if r.index in q.depends_on:
            near.update((q.index, *q.depends_on))
    near.update(linked_to(m, r))  # re-chosen with the thing in place (:func:`relinked`)
    for k in list(near):
        near.update(m.requirements[k].different_from)
        near.update(q.index for q in m.requirements if k in q.different_from)
    return frozenset(near)


def stack_kinds(facts: Facts, a: AbilityFacts, stacks: Sequence[frozenset[int]], *own: int) -> list[frozenset[int]]:
    """One stack of each kind among ``stacks`` (sets of waiting abilities below ``a``), the first of
    each in their order: two are of a kind when one is the other with abilities every rule sees
    alike swapped — the same as things (filters and bars read the same), the same candidates of the
    same requirements of ``a`` with the same bars, as many of ``a``'s must-target effects on each,
    and neither of the things ``own`` (the candidate judged: its own kind). A choice on one is a
    choice on the other with those swapped, and ``check`` says the same rules of both; twelve
    abilities alike below ``a`` are 13 kinds of stack, not 4,096."""
    profiles: dict[int, object] = {}

    def profile(b: int) -> object:
        found = profiles.get(b)
        if found is None:
            x = facts.first_waiting + b
            if x in own:
                found = ("own", x)
            else:
                thing = facts.things[x]
                seen = tuple(
                    (x in req.candidates, req.excluded.get(x), req.ignored.get(x))
                    for mode in a.modes
                    for req in mode.requirements
                )
                found = (repr(thing[1:]), seen, a.must.count(x))  # all but its id
            profiles[b] = found
        return found

    kinds: dict[tuple[tuple[str, int], ...], frozenset[int]] = {}
    for below in stacks:
        counted: dict[str, int] = {}
        for b in below:
            key = repr(profile(b))
            counted[key] = counted.get(key, 0) + 1
        kinds.setdefault(tuple(sorted(counted.items())), below)
    return list(kinds.values())


def _chooses(facts: Facts, a: AbilityFacts, m: ModeFacts, below: frozenset[int]) -> bool:
    """Whether a legal choice of ``a`` put on the stack above ``below`` chooses ``m`` (kept with
    the facts: a thing of each requirement of ``m`` asks it)."""
    key = ("chooses", a.index, m.index, below)
    found: bool | None = facts.memo.get(key)
    if found is None:
        found = (
            m.available
            and _mode_legal(facts, a, m.index, below)
            and has_legal_choice(facts, a, below)
            and next(iter_legal_choices(facts, a, below, having=m.index), None) is not None
        )
        facts.memo[key] = found
    return found


def _never_on(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    r: RequirementFacts,
    t: int,
    below: frozenset[int],
    chosen: bool,
    reading: Reading,
) -> Iterator[list[Reason]]:
    """What :func:`never_chosen` is told on one stack, ``below``, one way at a time: the reasons of
    each way of choosing ``t`` there, each way told once (``reading``, shared by every stack's
    stream). ``chosen``: a legal choice there chooses ``m`` — a way taking an ability not on the
    stack is judged whole, as ``check`` judges it (not yet on the stack, and what else it breaks: a
    must-target effect it leaves)."""
    b = facts.waiting_ability(t)
    if b is not None and b not in below and not chosen:
        yield [_targets.not_on_stack(facts, a, t)]
        return
    # asked of the counted space first: with no legal choice, the search would visit every partial one
    legal = has_legal_choice(facts, a, below)
    if not m.available or not _mode_legal(facts, a, m.index, below):
        # what check says of every choice of m here: the mode's refusal — a modal ability's only: a
        # non-modal one's choice is judged target by target (it said "T0's mode can't be chosen",
        # mode-illegal, where check says r0's count) — and, with no legal choice at all, 603.3d
        refused = _modes.mode_unavailable(a, m) if not m.available else _modes.mode_illegal(a, m)
        yield [*([refused] if a.modal else []), *([] if legal else [_removal.must_be_removed(a)])]
        return
    # only the choices with m are listed (those of the other modes alone may be millions); with
    # none legal, those a judge would propose (divided as the first division divides them)
    legal_ones = iter_legal_choices(facts, a, below, having=m.index) if legal else iter(())
    first = next(legal_ones, None)
    choices = (
        chain([first], legal_ones)
        if first is not None
        else (next(iter_divided(a, proposed)) for proposed in _proposals(facts, a, m, below, reading))
    )
    # each instance of m a choice makes (a mode chosen again, 700.2) is a way: the thing in the
    # first may break 115.3 beside that instance's own target, and in another only 700.2's distinct
    # targets — judging the first alone said 115.3 of every way
    near = bearing(a, m, r)
    for choice in choices:
        reading.read += 1
        if reading.read > CHOICES:
            reading.cut = True
            return
        for at in (i for i, inst in enumerate(choice.modes) if inst.mode == m.index):
            for way in relinked(facts, a, m, r, t, taking(choice, at, r, t), at, reading):
                key = (below, way) if near is None else (below, borne(way, at, near))
                if key not in reading.ways:
                    reading.ways.add(key)
                    yield judged(facts, a, way, below)


def borne(way: Choice, at: int, near: frozenset[int]) -> tuple[object, ...]:
    """What of ``way`` (the thing in place in its mode instance ``at``) a judgment of it reads: the
    modes chosen, and instance ``at``'s targets and division of each requirement in ``near``."""
    inst = way.modes[at]
    return (
        tuple(x.mode for x in way.modes),
        at,
        tuple((q, inst.targets[q], inst.divide[q] if inst.divide else None) for q in sorted(near)),
    )


def _whatever_else(told: Sequence[list[Reason]], ability: str, way: str, whole: bool = True) -> list[Reason]:
    """Of what check says of several choices with the thing in place (``way``: ``choosing P0``),
    the reasons each of them gives (by code and rule): a reason of one choice alone — ``P0 chosen
    for both r2 and r0`` where r2 took P0 in the first choice but need not — is no reason the thing
    is never chosen. Where none is common to all (P0 for r0 breaks r1's description with r1 = P0,
    and 115.3 with r2 = P0, and the choice must take P0 for one of them), each way it breaks, once:
    the thing is never chosen because every choice with it breaks one of them. Each is told in the
    words every choice breaking it is told (:func:`_in_words`). Not ``whole`` (some ways were not
    judged: :data:`CHOICES`, :data:`WAYS`): each reason any judged way gives (those all of them give
    first), none said of every way."""
    common = set.intersection(*({(x.code, x.rule) for x in reasons} for reasons in told))
    keys = [k for k in dict.fromkeys((x.code, x.rule) for x in told[0]) if k in common]
    if not keys or not whole:  # not whole: those common to the ways judged first, then every other
        keys = list(dict.fromkeys([*keys, *((x.code, x.rule) for reasons in told for x in reasons)]))
    return [x for key in keys for x in _in_words(told, key, ability, way, whole)]


def _in_words(
    told: Sequence[list[Reason]], key: tuple[Code | None, Rule | None], ability: str, way: str, whole: bool = True
) -> list[Reason]:
    """The reasons of code and rule ``key`` in the words each choice breaking it is told: the
    sentences every one of them says, or, where the words differ (``B is a target of both T0's
    mode m0 (1st of 3) and …`` names a thing of one choice, said to a judge asking why C is never
    chosen), the code's own clause said of every way (:data:`EVERY_WAY`). Not ``whole``: the clause
    said of the ways judged, counted (:func:`judged_ways`), whatever their words — the first way's
    words told a judge asking why c1 is never chosen that "c0 is a target of T's mode m1, …, m9"
    (true of one way, where another shares c2), and words every way judged gives may not be those
    of a way not judged (the first 512 of a product all keep its first instance's target; stop 74)."""
    said = [[x for x in reasons if (x.code, x.rule) == key] for reasons in told]
    said = [xs for xs in said if xs]
    code, rule = key
    assert code is not None and rule is not None, key  # a check's violation has both
    texts = set.intersection(*({x.text for x in xs} for xs in said))
    if not whole and not (code in OF_THE_ABILITY and texts and len(said) == len(told)):
        # words every way judged gives may not be a way's not judged (the first 512 all share c0)
        return [Reason(code, rule, f"{ability}: {judged_ways(len(said), len(told), way)}, {EVERY_WAY[code]}")]
    if texts:
        return [x for x in dict.fromkeys(said[0]) if x.text in texts]
    return [Reason(code, rule, f"{ability}: in each way of {way}, {EVERY_WAY[code]}")]


OF_THE_ABILITY = frozenset({Code.PLACED_BUT_ILLEGAL})
"""What ``check`` says of the ability on a stack whatever its choice (603.3d: it has no legal choice
there, and a choice breaking anything is told so): a way not judged that breaks anything breaks it
in the same words, so where every way judged does, its words are said past the ways judged too."""


def judged_ways(breaking: int, judged: int, way: str) -> str:
    """How a reason is said of the ways judged where not every way was (:data:`WAYS`,
    :data:`CHOICES`; ``way``: ``choosing c1``): ``in each of the 512 ways judged of choosing c1 (not
    every way was judged)``, or ``in 3 of the 512 …`` where only some of them break it."""
    some = "each" if breaking == judged else str(breaking)
    return f"in {some} of the {judged} ways judged of {way} (not every way was judged)"


EVERY_WAY: dict[Code, str] = {
    Code.UNKNOWN_ABILITY: "an ability named has not triggered",
    Code.DUPLICATE_ABILITY: "an ability is put on the stack or removed twice",
    Code.MISSING_ABILITY: "a waiting ability is neither put on the stack nor removed",
    Code.ORDER: "abilities are put on the stack out of their blocks' or passes' order",
    Code.MODE_COUNT: "a number of modes is chosen that the text does not allow",
    Code.MODE_UNKNOWN: "a mode is chosen that the ability lacks",
    Code.MODE_ILLEGAL: "a mode is chosen that has no legal targets when the ability is put on the stack",
    Code.MODE_UNAVAILABLE: "a mode is chosen that is not available",
    Code.MODE_REPEAT: "a mode is chosen twice where the text does not allow it",
    Code.MODE_DISTINCT_TARGETS: (
        "two modes (or two instances of one) share a target where each must target a different one"
    ),
    Code.TARGET_COUNT: "a requirement has a number of targets outside its bounds",
    Code.TARGET_UNKNOWN: "a target is not a player, object or ability of its pass",
    Code.TARGET_FILTER: "a target does not fit its requirement's description",
    Code.TARGET_DUPLICATE: "a thing is chosen twice for one instance of 'target'",
    Code.TARGET_NOT_DISTINCT: "one thing is a target of two requirements that must differ",
    Code.TARGET_SOURCE: "the ability's source is chosen for 'another target'",
    Code.TARGET_HEXPROOF: "a target has hexproof against the ability",
    Code.TARGET_SHROUD: "a target has shroud",
    Code.TARGET_PROTECTION: "a target has protection from a quality of the source",
    Code.TARGET_RESTRICTED: "a target can't be the target of the ability",
    Code.TARGET_SELF: "the ability targets itself",
    Code.TARGET_NOT_YET_ON_STACK: "a target is a waiting ability not yet on the stack below it",
    Code.TARGET_MUST: "fewer 'must target' effects are obeyed than a legal choice of the same modes could obey",
    Code.DIVISION: "an amount is divided wrongly",
    Code.REMOVED_BUT_LEGAL: "the ability is removed although it has a legal choice",
    Code.PLACED_BUT_ILLEGAL: "the ability is put on the stack although it is never put there",
}
"""What each code's violation is, said of every way of choosing a thing (:func:`_in_words`):
docs/formats.md's table of violation codes in a clause."""


def mode_never_chosen(facts: Facts, a: AbilityFacts, m: ModeFacts, below: frozenset[int] | None = None) -> Reason:
    """Why no legal outcome chooses ``a``'s mode ``m``: ``a`` is never put on the stack, ``m`` is
    unavailable, or it has no legal targets even with
    every ability ``a`` could target below it (603.3c), or else what ``check`` says of the choice a
    judge would propose with it (:func:`_proposals`: modes that must target different things, 700.2,
    sharing the only one). ``below``: the largest stack ``a`` is put on (what every stack it is put on
    holds: one of them, as 603.3b lets what is below one be below another; 603.3c's legal targets
    only grow with it), :attr:`~AbilityFacts.precedable_targets` if not given. A non-modal ability
    has no mode to refuse: with no legal choice, what ``check`` says of it put there (603.3d)."""
    below = a.precedable_targets if below is None else below
    if a.forced_removal is not None:
        return _removal.never_put(a, placed=False)
    if not m.available:
        return _modes.mode_unavailable(a, m)
    if _mode_legal(facts, a, m.index, below):
        reading = Reading()
        told = [judged(facts, a, next(iter_divided(a, c)), below) for c in _proposals(facts, a, m, below, reading)]
        way = f"choosing {_modes.mode_named(a, m)}"
        reasons = _whatever_else(told, a.id, way, whole=not reading.cut) if told else []
        if reasons:
            return reasons[0]
    if not a.modal and not has_legal_choice(facts, a, below):
        return _removal.must_be_removed(a)  # it said "T0's mode can't be chosen", which check never says
    return _modes.mode_illegal(a, m)


def _proposals(
    facts: Facts, a: AbilityFacts, m: ModeFacts, below: frozenset[int], reading: Reading
) -> Iterator[Choice]:
    """The choices a judge would propose to choose ``m`` (:data:`WAYS` at most): ``m`` and the
    fewest modes allowed with it, each set of the ability's other modes that can be chosen (``m``
    and the others again where modes repeat; all of them, too few, where there are not enough:
    700.2's count), each instance with targets legal for its mode alone — the first :data:`EACH` of
    them, every instance's varied (one proposal's other targets are no reason: ``B is a target of
    both …`` where another proposal shares C). The other modes are varied too: the first others
    alone told "c0 is a target of both T's mode m0 and T's mode m1" as what every way breaks,
    where m0 with m2 shares it with m2 (stop 74). None where a mode of it has no legal targets, or
    no number of modes but none is allowed. ``reading.cut`` is told where an instance has more than
    :data:`EACH` or the proposals are more than :data:`WAYS`: they are not every proposal, and no
    reason is said of every one."""
    fewest = min((n for n in a.choose if n > 0), default=None)
    if fewest is None:
        return
    others = [x.index for x in a.modes if x is not m and x.available and _mode_legal(facts, a, x.index, below)]
    slots = fewest - 1
    companions: Iterator[tuple[int, ...]]
    if a.repeat:
        companions = combinations_with_replacement(sorted([m.index, *others]), slots)
    elif len(others) <= slots:
        companions = iter([tuple(others)])
    else:
        companions = combinations(others, slots)
    targets: dict[int, list[tuple[tuple[int, ...], ...]]] = {}
    seen: set[Choice] = set()
    for sets, together in enumerate(companions):
        if sets >= WAYS:  # sets of modes none of whose proposals is new: as many as the proposals at most
            reading.cut = True
            return
        modes = sorted([m.index, *together])
        for k in modes:
            if k not in targets:
                targets[k] = list(islice(iter_mode_targets(facts, a, k, below), EACH + 1))
        per = [targets[k] for k in modes]
        if any(len(p) > EACH for p in per):
            reading.cut = True
        for chosen in product(*(p[:EACH] for p in per)):  # a repeated mode's instances are a multiset: sorted, once
            choice = Choice(tuple(sorted(ModeInstance(k, ts) for k, ts in zip(modes, chosen, strict=True))))
            if choice in seen:
                continue
            if len(seen) >= WAYS:
                reading.cut = True
                return
            seen.add(choice)
            yield choice


EACH = 8
"""The target assignments of each mode instance :func:`_proposals` varies: 8 for one instance,
512 (:data:`WAYS`) for three."""


def judged(facts: Facts, a: AbilityFacts, choice: Choice, below: frozenset[int]) -> list[Reason]:
    """Every violation ``check`` finds in ``a``'s entry making ``choice`` above ``below``: each
    proposal judged once per scenario (:data:`JUDGMENTS`), however many of the things it takes ask."""
    memo = _JUDGED.get(facts)
    if memo is None or len(memo) >= JUDGMENTS:
        memo = _JUDGED[facts] = {}
    key = (a.index, choice, below)
    found: tuple[Reason, ...] | None = memo.get(key)
    if found is None:
        report = _Report(RUNNING, None)
        _check_entry(facts, a, entry_made(facts, Placed(a.index, choice)), below, report)
        found = memo[key] = tuple(Reason(v.code, v.rule, v.message) for v in report.items)
    return list(found)


JUDGMENTS = 32_768
"""The most judgments :func:`judged` keeps for one scenario (begun again past them): explain asks of
each (mode, thing) the proposals taking it, and where no legal choice exists the same proposal
answers several of them (modes_that_differ(9, 7) in tests/test_search_bounds.py: 26,672 asked,
17,761 distinct). A judgment is a few sentences: ~30 MB at most."""

_JUDGED: WeakKeyDictionary[Facts, dict[tuple[int, Choice, frozenset[int]], tuple[Reason, ...]]] = WeakKeyDictionary()


def taking(choice: Choice, at: int, r: RequirementFacts, t: int) -> Choice:
    """``choice`` with ``t`` in place of the last target of mode instance ``at``'s requirement ``r``
    (its part, if divided, given to ``t``), or as its only target (given the whole amount)."""
    inst = choice.modes[at]
    targets = list(inst.targets)
    targets[r.index] = (*targets[r.index][:-1], t)
    divide = inst.divide
    if r.divide is not None and not inst.targets[r.index]:
        parts = list(divide) or [()] * len(targets)
        parts[r.index] = (r.divide,)
        divide = tuple(parts)
    changed = ModeInstance(inst.mode, tuple(targets), divide)
    return Choice((*choice.modes[:at], changed, *choice.modes[at + 1 :]))


_FOR_GOOD = frozenset({Code.TARGET_NOT_DISTINCT, Code.MODE_DISTINCT_TARGETS})
"""What a choice announced in part breaks whatever follows: targets only grow, so a thing shared by
targets that must differ stays shared (a count, a division or a must-target effect may yet be met)."""


def broken_for_good(
    facts: Facts, a: AbilityFacts, announced: Sequence[tuple[int, Sequence[Sequence[int]]]], below: frozenset[int]
) -> list[Reason]:
    """What ``check`` says of the choice ``a`` has ``announced`` so far (each mode instance: the mode
    and its requirements' targets, as thing indices) that no way of going on cures: the reason a
    walk refuses the target it was announced with, in a proposal's words."""
    instances: list[tuple[str, dict[str, tuple[str, ...]]]] = []
    for m, per in announced:
        reqs = a.modes[m].requirements
        targets: dict[str, tuple[str, ...]] = {}
        for r, ts in zip(reqs, per, strict=True):
            if ts:
                targets[r.id] = tuple(facts.things[t].id for t in ts)
        instances.append((a.modes[m].id or "", targets))
    if a.modal:
        modes = tuple(ModeChoice.model_construct(mode=mid, targets=ts, divide={}) for mid, ts in instances)
        entry = Entry.model_construct(ability=a.id, modes=modes, targets={}, divide={})
    else:
        entry = Entry.model_construct(ability=a.id, modes=None, targets=instances[0][1], divide={})
    report = _Report(RUNNING, None)
    _check_entry(facts, a, entry, below, report)
    return [Reason(v.code, v.rule, v.message) for v in report.items if v.code in _FOR_GOOD]


def mode_broken_for_good(
    facts: Facts, a: AbilityFacts, announced: Sequence[int], m: ModeFacts, below: frozenset[int]
) -> Reason | None:
    """What ``check`` says of ``a`` choosing the modes ``announced`` and then ``m``, put on the
    stack above ``below``, that no way of going on cures: the reason a walk refuses ``m`` while ``a``
    is in hand, in a proposal's words — unavailable (700.2), chosen again where the text does not
    allow it (700.2d), more modes than the text allows (700.2: modes only grow), or no legal targets
    with what is below now (603.3c: the stack does not grow while ``a`` is announced). None when
    only the targets, a count still short or the other modes rule it out."""
    modes = tuple(
        ModeChoice.model_construct(mode=a.modes[k].id or "", targets={}, divide={}) for k in (*announced, m.index)
    )
    entry = Entry.model_construct(ability=a.id, modes=modes, targets={}, divide={})
    report = _Report(RUNNING, None)
    _check_modes(facts, a, entry, below, report)
    final = {Code.MODE_UNAVAILABLE, Code.MODE_REPEAT, Code.MODE_ILLEGAL}
    if len(modes) > max(a.choose):
        final.add(Code.MODE_COUNT)
    return next((Reason(v.code, v.rule, v.message) for v in report.items if v.code in final), None)
