"""Our answers at phase's prompts, and phase's answers in our words (docs/phase.md, "Answers").

* :func:`~._prompt.legal_actions` — every answer to the prompt phase is waiting on that still extends to a
  legal outcome, as phase ``GameAction`` dicts: orders lazily (an order prompt has n! answers), or
  the targets, mode sets and divisions of the ability being placed.
* :func:`entry_of` — a stack entry phase placed, as our :class:`~triggerstack.model.Entry`.
* :func:`action_for` — the answer to the prompt that plays a chosen outcome of ours.

Each works from a :class:`~._board.Reading` alone, so it runs on recorded states without phase.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from typing import Any

from triggerstack.model import Outcome, compile_facts
from triggerstack.model._facts import AbilityFacts, RequirementFacts
from triggerstack.model._outcome import Entry
from triggerstack.model._text import found as quoted
from triggerstack.solver._verbs.step import Decision, DecisionKind, Stepper, Walk

from ._board import Reading
from ._schema import Node, PhaseError, PhaseGap

Action = dict[str, Any]


def _requirements(reading: Reading, trigger: str, modes: Sequence[str] = ()) -> list[dict[str, Any]]:
    t = reading.trigger(trigger)
    if "modes" in t:
        return [r for m in t["modes"] if m["id"] in modes for r in m.get("targets", ())]
    return list(t.get("targets", ()))


def _chosen_modes(reading: Reading, trigger: str, ability: Node) -> list[str] | None:
    """The modes a placed modal ability chose, or None for a non-modal one. phase puts the chosen
    mode's ability on the stack in the modal one's place: it is matched to the mode abilities the
    batch's reading kept (an ability still modal on the stack chose none)."""
    t = reading.trigger(trigger)
    if "modes" not in t:
        return None
    if not ability.opt("Ability.modal").null:
        return []
    modal = reading.abilities[trigger]
    options = modal.opt("Ability.mode_abilities").items()
    effect = ability["effect"]
    if effect == modal["effect"] and effect not in [m["effect"] for m in options]:
        return []  # the modal shell itself: no mode was chosen
    chosen: list[str] = []
    node = ability
    while not node.null and len(chosen) < len(options) + 1:
        i = next((k for k, m in enumerate(options) if m["effect"] == node["effect"]), None)
        if i is None:
            break
        chosen.append(t["modes"][i]["id"])
        node = node["sub_ability"] if options[i]["sub_ability"].null else _skip(node, options[i])
    if not chosen:
        raise PhaseGap(f"{trigger}: the ability on phase's stack is none of its modes")
    return chosen


def _skip(node: Node, mode: Node) -> Node:
    """The part of a chain after one mode's own chain."""
    sub_node, sub_mode = node["sub_ability"], mode["sub_ability"]
    while not sub_mode.null and not sub_node.null:
        sub_node, sub_mode = sub_node["sub_ability"], sub_mode["sub_ability"]
    return sub_node


def targets_in_slots(reading: Reading, trigger: str, refs: Sequence[Node], modes: Sequence[str] = ()) -> dict[
        str, list[str]]:  # fmt: skip
    """phase's flat target list (slot order along the chain) as our requirement → targets: each
    requirement takes one slot, one with ``max`` above 1 takes the rest of its chain level's."""
    reqs = _requirements(reading, trigger, modes)
    out: dict[str, list[str]] = {r["id"]: [] for r in reqs}
    things = [reading.index.thing(r) for r in refs]
    if any(t is None for t in things):
        raise PhaseGap(f"{trigger}: a target phase chose is not in the scenario read: {[r.dump() for r in refs]}")
    k = 0
    for i, r in enumerate(reqs):
        later = len(reqs) - i - 1  # each later requirement takes at least one slot
        take = 1 if r.get("max", 1) == 1 else max(0, len(things) - k - later)
        out[r["id"]] = [t for t in things[k : k + take] if t is not None]
        k += take
    return out


def entry_of(reading: Reading, trigger: str, ability: Node | Mapping[str, Any]) -> Entry:
    """A placed phase ability (phase's JSON, or its :class:`~._schema.Node`) as our stack entry (its
    targets and divisions)."""
    reading.trigger(trigger)  # an id no waiting ability has is refused naming it
    ability = ability if isinstance(ability, Node) else Node(ability, "ability")
    modes = _chosen_modes(reading, trigger, ability)
    targets = targets_in_slots(reading, trigger, ability["targets"].items(), modes or ())
    divide: dict[str, dict[str, int]] = {}
    given = ability.opt("Ability.distribution")
    dist = [] if given.null else [d.pair() for d in given.items()]
    req = next((r for r in _requirements(reading, trigger, modes or ()) if "divide" in r), None)
    if dist and req is not None:  # (phase may carry another ability's division onto one that divides nothing)
        divide[req["id"]] = {str(reading.index.thing(ref)): n.as_int() for ref, n in dist}
    doc: dict[str, Any] = {"ability": trigger}
    if modes is not None:
        t = reading.trigger(trigger)
        of_mode = {r["id"]: m["id"] for m in t["modes"] for r in m.get("targets", ())}
        doc["modes"] = [
            {"mode": m, "targets": {r: v for r, v in targets.items() if v and of_mode[r] == m},
             "divide": {r: v for r, v in divide.items() if of_mode[r] == m}}
            for m in modes
        ]  # fmt: skip
    else:
        doc["targets"], doc["divide"] = {k: v for k, v in targets.items() if v}, divide
    return Outcome.model_validate({"stack": [doc]}).stack[0]


def _finish(stepper: Stepper, walk: Walk, seen: set[tuple[object, ...]] | None = None) -> Iterator[Walk]:
    """Every way to finish announcing the ability in hand (the walk's legal decisions extend), each
    once: a set's members clicked in another order reach the same walk (``Stepper.key``)."""
    seen = set() if seen is None else seen
    key = stepper.key(walk)
    if key in seen:
        return
    seen.add(key)
    if stepper.in_hand(walk) is None:
        yield walk
        return
    for d in stepper.legal(walk):
        yield from _finish(stepper, stepper.apply_unchecked(walk, d), seen)


def prefix(reading: Reading, stepper: Stepper | None = None) -> tuple[Stepper, Walk]:
    """The walk that puts the batch's placed entries as phase placed them (bottom first). Each
    placed entry's walk is kept in the reading's memo: a later prompt of the batch extends it."""
    if stepper is None:
        if reading.stepper is None:
            reading.stepper = Stepper(compile_facts(reading.scenario))
        stepper = reading.stepper
    key: tuple[Any, ...] = (id(stepper),)
    walk = reading.memo.get(("start", key))
    if walk is None:  # kept: the answers' memo is keyed by the walk, and the batch's later prompts share it
        walk = reading.memo[("start", key)] = stepper.start()
    for placed in reading.placed:
        key = (*key, placed["trigger"], reading.index.entry(placed["trigger"]).stack_id)
        found = reading.memo.get(("prefix", key))
        if found is None:
            found = reading.memo[("prefix", key)] = _placed(reading, stepper, walk, placed)
        walk = found
    return stepper, walk


def _placed(reading: Reading, stepper: Stepper, walk: Walk, placed: Mapping[str, Any]) -> Walk:
    """``walk`` after the placed entry ``placed``, as phase placed it."""
    want = entry_of(reading, placed["trigger"], placed["ability"])
    moves = {d.text: d for d in stepper.legal(walk)}
    put = moves.get(f"put {placed['trigger']}")
    if put is None:
        raise PhaseGap(f"{placed['trigger']} is on phase's stack where no legal outcome puts it")
    for w in _finish(stepper, stepper.apply_unchecked(walk, put)):
        if stepper.so_far(w).stack[-1] == want:
            return w
    raise PhaseGap(f"{placed['trigger']} is on phase's stack with choices no legal outcome makes")


def announced(reading: Reading, trigger: str, start: tuple[Stepper, Walk] | None = None) -> list[tuple[Walk, Entry]]:
    """Every legal way to announce ``trigger`` next, after what phase has placed: the walk after each
    and its stack entry (kept in the reading's memo for the batch's later prompts)."""
    reading.trigger(trigger)  # an id no waiting ability has is refused naming it, never answered with no ways
    stepper, walk = start or prefix(reading)
    key = ("announced", id(walk), trigger)
    found = reading.memo.get(key)
    if found is None:
        moves = {d.text: d for d in stepper.legal(walk)}
        put = moves.get(f"put {trigger}")
        ways = [] if put is None else _finish(stepper, stepper.apply_unchecked(walk, put))
        found = reading.memo[key] = (walk, [(w, stepper.so_far(w).stack[-1]) for w in ways])
    return list(found[1])


def choices(reading: Reading, trigger: str, start: tuple[Stepper, Walk] | None = None) -> list[Entry]:
    """Every legal way to announce ``trigger`` next, after what phase has placed (``start``: that
    prefix, when the caller has walked it already)."""
    return [entry for _, entry in announced(reading, trigger, start)]


def _current(reading: Reading) -> str:
    """Our id for the ability phase is placing (its pending trigger)."""
    if reading.index.current is None:
        raise PhaseGap("pending_trigger: phase asks for an ability's choices but names none being placed")
    return reading.index.current


def _prompt_ids(reading: Reading) -> list[str]:
    """Our ids of the abilities an order prompt lists, in its order (``order[i]`` names the i-th)."""
    player = reading.prompt["data"]["player"].as_int()
    group = [e for e in reading.index.batch if e.prompt_index is not None and e.controller == player]
    return [e.trigger for e in sorted(group, key=lambda e: int(e.prompt_index or 0))]


def _slot_actions(reading: Reading) -> Iterator[Action]:
    """The target prompt's answers, from the walk's own next decisions (docs/python.md, "One decision
    at a time"): the ability put and its modes chosen as phase holds them, phase's slots so far
    applied as target decisions, and what the walk offers next — a ``target X`` decision is the
    answer X, ``end targets`` the answer None (stop). The walk offers exactly what some legal
    announcement takes next, so nothing is listed whole: the first target prompt of an ability with
    many ways to announce it cost every way before."""
    trigger = _current(reading)
    chosen, labels = _asked_slots(reading)
    stepper, walk = prefix(reading)
    found: set[str | None] = set()
    for modes, w in _with_modes(reading, trigger, stepper, walk, labels):
        found.update(_offered_slot(stepper, w, _requirements(reading, trigger, modes), chosen))
    for thing in sorted(found, key=lambda t: (t is None, str(t))):
        ref = None if thing is None else reading.index.target_ref(thing)
        yield {"type": "ChooseTarget", "data": {"target": ref}}


def _asked_slots(reading: Reading) -> tuple[list[str | None], list[str] | None]:
    """A target prompt's slots chosen so far (our ids; None: not in the scenario read) and the labels
    of the modes chosen, if phase names them."""
    data = reading.prompt["data"]
    chosen = [reading.index.thing(r) for r in data["selection"].opt("TargetSelection.selected_slots").items()]
    labels = data.opt("TriggerTargetSelection.mode_labels")
    return chosen, None if labels.null else [x.as_str() for x in labels.items()]


def _apply(stepper: Stepper, walk: Walk, text: str) -> Walk | None:
    """``walk`` after the decision ``text``; None where the walk does not offer it."""
    d = next((d for d in stepper.legal(walk) if d.text == text), None)
    return None if d is None else stepper.apply_unchecked(walk, d)


def _with_modes(reading: Reading, trigger: str, stepper: Stepper, walk: Walk,
                labels: Sequence[str] | None) -> Iterator[tuple[list[str], Walk]]:  # fmt: skip
    """The walk after ``trigger`` is put and its modes chosen: the modes phase's ``mode_labels`` name
    (a modal ability's modes come before its targets), or every set the walk offers where phase
    names none. A non-modal ability has no modes: one walk."""
    put = _apply(stepper, walk, f"put {trigger}")
    if put is None:
        return
    t = reading.trigger(trigger)
    if "modes" not in t:
        yield [], put
        return
    texts = {m["id"]: m.get("text") or "" for m in t["modes"]}
    want = None if labels is None else sorted(labels)
    seen: set[tuple[str, ...]] = set()

    def sets(w: Walk, modes: list[str]) -> Iterator[tuple[list[str], Walk]]:
        for d in stepper.legal(w):
            if d.text == "end modes":
                key = tuple(sorted(modes))
                if key not in seen and (want is None or sorted(texts[m] for m in modes) == want):
                    seen.add(key)
                    yield modes, stepper.apply_unchecked(w, d)
            elif d.kind is DecisionKind.MODE and (want is None or len(modes) < len(want)):
                yield from sets(stepper.apply_unchecked(w, d), [*modes, d.mode])

    yield from sets(put, [])


def _offered_slot(stepper: Stepper, walk: Walk, reqs: Sequence[Mapping[str, Any]],
                  chosen: Sequence[str | None]) -> set[str | None]:  # fmt: skip
    """What phase's next target slot may take: phase's slots so far (``chosen``) applied to the walk
    requirement by requirement — one slot for a single target (None: none chosen), a multi-target
    slot's targets up to the None that stops it — and then the walk's offer for the slot asked.
    Nothing where phase's slots so far are not a way the walk goes (no legal announcement holds
    them), or where every requirement is filled."""
    rest: list[str | None] = list(chosen)
    w: Walk | None = walk
    for r in reqs:
        assert w is not None
        if not rest:  # the slot asked
            return _offer(stepper, w)
        if r.get("max", 1) == 1:  # one slot: a target, or None for none
            got = rest.pop(0)
            w = w if got is None else _apply(stepper, w, f"target {got}")
        else:  # targets, then the None that stops the slot
            while rest and rest[0] is not None and w is not None:
                w = _apply(stepper, w, f"target {rest.pop(0)}")
            if w is not None and not rest:  # the slot being filled
                return _offer(stepper, w)
            rest = rest[1:]
        if w is None:
            return set()
        ended = _apply(stepper, w, "end targets")  # offered where the slot may stop: the requirement ends
        if ended is not None:
            w = ended
    return set()


def _offer(stepper: Stepper, walk: Walk) -> set[str | None]:
    """A target slot's answers from the walk's offer: ``target X`` is X, ``end targets`` None."""
    offered = {d.text for d in stepper.legal(walk)}
    out: set[str | None] = {x[len("target ") :] for x in offered if x.startswith("target ")}
    return out | {None} if "end targets" in offered else out


def _per_requirement(reading: Reading, trigger: str, entry: Entry) -> list[tuple[dict[str, Any], set[str]]]:
    """The entry's requirements in phase's slot order with the targets chosen for each: a modal
    entry's are its chosen modes' (in the order the ability lists its modes)."""
    if entry.modes is None:
        return [(r, set(entry.targets.get(r["id"], ()))) for r in _requirements(reading, trigger)]
    t = reading.trigger(trigger)
    order = [m["id"] for m in t["modes"]]
    out: list[tuple[dict[str, Any], set[str]]] = []
    for choice in sorted(entry.modes, key=lambda c: order.index(c.mode)):
        mode = t["modes"][order.index(choice.mode)]
        out.extend((r, set(choice.targets.get(r["id"], ()))) for r in mode.get("targets", ()))
    return out


def _consistent(reading: Reading, trigger: str, entry: Entry, chosen: list[str | None]) -> bool:
    """Whether ``entry`` begins with the targets phase has taken, requirement by requirement."""
    rest = list(chosen)
    for r, ts in _per_requirement(reading, trigger, entry):
        if not rest:
            return True
        if r.get("max", 1) == 1:
            got = rest.pop(0)
            if (got is None and ts) or (got is not None and got not in ts):
                return False
        else:
            while rest and rest[0] is not None and rest[0] in ts:
                ts = ts - {rest.pop(0)}
            if rest and rest[0] is not None:
                return False
            if rest:
                rest.pop(0)
    return not rest


def _next_targets(reading: Reading, trigger: str, entry: Entry, chosen: list[str | None]) -> set[str | None]:
    """What phase's next slot may take for ``entry``: a target it lacks, or None (stop) when the
    requirement being filled already holds all of the entry's targets."""
    rest = list(chosen)
    for r, ts in _per_requirement(reading, trigger, entry):
        if r.get("max", 1) == 1:
            if rest:
                rest.pop(0)
                continue
            return {next(iter(ts))} if ts else {None}
        taken = set()
        while rest and rest[0] is not None:
            taken.add(rest.pop(0))
        if rest:  # stopped: this requirement is done
            rest.pop(0)
            continue
        left = ts - taken
        return set(left) if left else {None}
    return set()


def _divisions(reading: Reading) -> Iterator[Action]:
    """The division prompt's answers: each division among exactly phase's targets that some legal
    announcement of the ability in hand makes (:func:`dividing`), once, in the walk's order."""
    trigger = _current(reading)
    refs = reading.prompt["data"]["targets"].items()
    things = [reading.index.thing(r) for r in refs]
    if None in things:  # a target phase holds that is not in the scenario read: no announcement divides among it
        return
    stepper, walk = prefix(reading)
    seen: set[tuple[int, ...]] = set()
    for _, split in dividing(stepper, walk, trigger, [str(t) for t in things]):
        amounts = tuple(split[str(t)] for t in things)
        if amounts not in seen:
            seen.add(amounts)
            pairs = [[r.json(), n] for r, n in zip(refs, amounts, strict=True)]
            yield {"type": "DistributeAmong", "data": {"distribution": pairs}}


def dividing(stepper: Stepper, walk: Walk, trigger: str,
             things: Collection[str]) -> Iterator[tuple[Walk, dict[str, int]]]:  # fmt: skip
    """The ways to announce ``trigger``, put next after ``walk``, as far as a division among exactly
    ``things`` (phase's division prompt): each walk just after the last ``divide N`` of a requirement
    that divides among them (the ability placed, or its later requirements in hand), with that
    division (thing → amount), each walk once, in the walk's order. Only what can lead there is
    walked: a requirement that divides takes its targets among ``things`` (unless a later
    requirement of the ability divides too), a way with no requirement left to divide stops, and
    nothing after the division is walked — the walk offers only decisions that extend to a legal
    outcome, so each division reached is one a legal announcement makes. (Listing every way to
    announce the ability and keeping those that divide among ``things`` cost every choice of every
    requirement: 50 ms to a second at a division prompt of the per-prompt run.)"""
    put = _apply(stepper, walk, f"put {trigger}")
    if put is None:
        return
    assert put.facts is not None
    ability = put.facts.abilities[put.facts.ability_index[trigger]]
    want = frozenset(things)
    seen: set[tuple[object, ...]] = set()

    def go(w: Walk) -> Iterator[tuple[Walk, dict[str, int]]]:
        key = stepper.key(w)
        if key in seen:
            return
        seen.add(key)
        hand = stepper.in_hand(w)
        if hand is None:  # announced without a division among ``things``
            return
        at = _said_so_far(ability, hand[1])
        allowed: set[str] | None = None  # None: every decision the walk offers
        if at is not None:  # (None: modes being chosen, any of which may lead to a requirement that divides)
            reqs, parts = at
            k = len(parts)  # the requirement in hand: the next one, unless the last begun is not done
            if parts:
                targets, amounts, ended = parts[-1]
                r = reqs[k - 1]
                if not ended or (r.divide is not None and len(amounts) < len(targets)):
                    k -= 1
                    if ended and set(targets) == want and len(amounts) + 1 == len(targets):
                        for d in stepper.legal(w):  # the division asked, its last amount: said whole
                            after = stepper.apply_unchecked(w, d)  # (the ability may be placed by it)
                            if (key := stepper.key(after)) not in seen:
                                seen.add(key)
                                yield after, dict(zip(targets, [*amounts, d.amount], strict=True))
                        return
            if k >= len(reqs):
                return
            r, later = reqs[k], any(q.divide is not None for q in reqs[k + 1 :])
            if r.divide is None and not later:
                return  # no requirement left that divides
            if r.divide is not None and not later:  # this one must be the division asked
                targets, _, ended = parts[k] if k < len(parts) else ([], [], False)
                if ended and set(targets) != want:
                    return
                if not ended:  # (ended: its amounts are being said, any of them)
                    allowed = {f"target {t}" for t in want - set(targets)}
                    if set(targets) == want:
                        allowed.add("end targets")
        for d in stepper.legal(w):
            if allowed is None or d.text in allowed:
                yield from go(stepper.apply_unchecked(w, d))

    yield from go(put)


def _said_so_far(ability: AbilityFacts, said: Sequence[str]) -> tuple[
        list[RequirementFacts], list[tuple[list[str], list[int], bool]]] | None:  # fmt: skip
    """Where an announcement of ``ability`` stands after the decisions ``said`` (after ``put``; the
    grammar of docs/python.md, "One decision at a time", read by :meth:`Decision.parse`): None while
    its modes are chosen; else its requirements (the chosen modes', in turn) and, for each one
    begun, the targets it took, the amounts divided so far, and whether its targets ended."""
    keys = [Decision.parse(text) for text in said]
    i = 0
    if ability.modal:
        modes: list[str] = []
        while i < len(keys) and keys[i][0] is not DecisionKind.END_MODES:
            modes.append(keys[i][2])
            i += 1
        if i == len(keys):
            return None
        i += 1
        reqs = [r for m in modes for r in ability.modes[ability.mode_index[m]].requirements]
    else:
        reqs = list(ability.modes[0].requirements)
    parts: list[tuple[list[str], list[int], bool]] = []
    for _ in reqs:
        if i == len(keys):
            break
        targets: list[str] = []
        while i < len(keys) and keys[i][0] is DecisionKind.TARGET:
            targets.append(keys[i][1])
            i += 1
        ended = i < len(keys) and keys[i][0] is DecisionKind.END_TARGETS
        i += ended
        amounts: list[int] = []
        while ended and i < len(keys) and keys[i][0] is DecisionKind.DIVIDE:
            amounts.append(keys[i][3])
            i += 1
        parts.append((targets, amounts, ended))
    return reqs, parts


def _mode_sets(reading: Reading) -> Iterator[Action]:
    trigger = _current(reading)
    t = reading.trigger(trigger)
    ids = [m["id"] for m in t.get("modes", ())]
    seen: set[tuple[int, ...]] = set()
    stepper, walk = prefix(reading)
    if 0 in t["modal"]["choose"] and f"remove {trigger}" in {d.text for d in stepper.legal(walk)}:
        seen.add(())  # no mode chosen: the ability is removed (603.3c)
        yield {"type": "SelectModes", "data": {"indices": []}}
    for modes, _ in _with_modes(reading, trigger, stepper, walk, None):  # the walk's mode sets, no target listed
        idx = tuple(sorted(ids.index(m) for m in modes))
        if idx not in seen:
            seen.add(idx)
            yield {"type": "SelectModes", "data": {"indices": list(idx)}}


def action_for(reading: Reading, outcome: Outcome) -> Action:
    """The answer to phase's prompt that plays ``outcome`` (one of our legal outcomes of the batch
    ``reading`` was read from, or of the same batch read later). An outcome that does not fit the
    prompt — an ability it removes or places otherwise, targets or a division other than phase's so
    far — is a :class:`PhaseGap` saying what differed; a prompt the ability being placed does not call
    for is phase's failure, :class:`PhaseError` (:func:`deviation`)."""
    refuse(reading)
    kind = reading.kind
    pos: dict[str, int] = {str(e.ability): i for i, e in enumerate(outcome.stack)}
    if kind == "OrderTriggers":
        ids = _prompt_ids(reading)
        full = sorted(ids, key=lambda t: pos.get(t, len(pos) + ids.index(t)))
        return {"type": "OrderTriggers", "data": {"order": [ids.index(t) for t in full]}}
    trigger = _current(reading)
    if kind == "AbilityModeChoice":
        return _modes_for(reading, trigger, outcome.stack[pos[trigger]] if trigger in pos else None)
    if trigger not in pos:
        raise PhaseGap(f"{kind} for {trigger}: phase asks for the choices of an ability the outcome removes")
    entry = outcome.stack[pos[trigger]]
    if kind == "TriggerTargetSelection":
        return _target_for(reading, trigger, entry)
    if kind == "DistributeAmong":
        return _division_for(reading, trigger, entry)
    raise PhaseGap(f"waiting_for: no answer for {quoted(kind)}")


def _modes_for(reading: Reading, trigger: str, entry: Entry | None) -> Action:
    """The mode prompt's answer: the entry's modes (none for an ability the outcome removes, 603.3c)."""
    if entry is None:
        return {"type": "SelectModes", "data": {"indices": []}}
    ids = [m["id"] for m in reading.trigger(trigger).get("modes", ())]
    chosen = [m.mode for m in entry.modes or ()]
    if not ids or entry.modes is None or any(m not in ids for m in chosen):
        raise PhaseGap(f"AbilityModeChoice for {trigger}: the outcome's modes {chosen} are not among the "
                       f"ability's {ids}")  # fmt: skip
    return {"type": "SelectModes", "data": {"indices": sorted(ids.index(m) for m in chosen)}}


def _target_for(reading: Reading, trigger: str, entry: Entry) -> Action:
    """The target prompt's answer: the entry's next target, or None (stop) once its slot is full."""
    chosen, _ = _asked_slots(reading)
    if None in chosen:
        raise PhaseGap(f"TriggerTargetSelection for {trigger}: a target phase holds is not in the scenario read: "
                       f"{reading.prompt['data']['selection'].dump()}")  # fmt: skip
    if not _consistent(reading, trigger, entry, chosen):
        theirs = dict(entry.targets) or [dict(m.targets) for m in entry.modes or ()]
        raise PhaseGap(f"TriggerTargetSelection for {trigger}: the targets phase holds so far {chosen} are not "
                       f"the outcome's {theirs}")  # fmt: skip
    nxt = _next_targets(reading, trigger, entry, chosen)
    pick = sorted(nxt, key=lambda t: (t is None, str(t)))[0] if nxt else None
    try:
        ref = None if pick is None else reading.index.target_ref(pick)
    except KeyError:  # an ability of the batch not placed yet: phase has no id for it
        raise PhaseGap(f"TriggerTargetSelection for {trigger}: the outcome's target {pick} is not on phase's "
                       "stack") from None  # fmt: skip
    return {"type": "ChooseTarget", "data": {"target": ref}}


def _division_for(reading: Reading, trigger: str, entry: Entry) -> Action:
    """The division prompt's answer: the entry's division among exactly the targets phase names."""
    data = reading.prompt["data"]
    refs = data["targets"].items()
    things = [reading.index.thing(r) for r in refs]
    splits = [*entry.divide.values(), *(v for m in entry.modes or () for v in m.divide.values())]
    split = next((s for s in splits if set(s) == set(things)), None)
    if split is None:
        raise PhaseGap(f"DistributeAmong for {trigger}: phase divides {data['total'].as_int()} among "
                       f"{things}, the outcome divides {[dict(s) for s in splits] or 'nothing'} for it")  # fmt: skip
    pairs = [[r.json(), int(split[str(t)])] for r, t in zip(refs, things, strict=True)]
    return {"type": "DistributeAmong", "data": {"distribution": pairs}}


def deviation(reading: Reading) -> str | None:
    """What is wrong with a prompt the ability being placed does not call for, by phase's own data as
    by ours: a division for an ability that divides nothing (phase asks one after a division among
    two or more targets, with that division's targets and total: docs/phase.md, deviation 4)."""
    if reading.kind != "DistributeAmong" or reading.index.current is None:
        return None
    trigger = reading.index.current
    t = reading.trigger(trigger)
    reqs = [*t.get("targets", ()), *(r for m in t.get("modes", ()) for r in m.get("targets", ()))]
    if any("divide" in r for r in reqs):
        return None
    data = reading.prompt["data"]
    refs = data["targets"].items()
    whose = [p["trigger"] for p in reading.placed if p["ability"]["targets"] == data["targets"]]
    return (f"DistributeAmong for {trigger} ({quoted(t['text'])}): phase asks to divide {data['total'].as_int()} among "
            f"{[reading.index.thing(r) for r in refs]}, but the ability divides nothing"
            + (f"; they are the targets of {whose[-1]}, placed below it" if whose else "")
            + " (601.2c-d; phase's deviation 4 in docs/phase.md)")  # fmt: skip


def refuse(reading: Reading) -> None:
    """:class:`PhaseError` at a prompt phase should not have asked (:func:`deviation`): every path that
    answers a prompt — :func:`action_for`, ``answers``, ``play``, a ``Session`` — meets it here, so
    each says the same prompt, ability and deviation."""
    wrong = deviation(reading)
    if wrong is not None:
        raise PhaseError(wrong)
