"""Cross-reference checks of a scenario whose shapes are valid: unique ids, references that
resolve, kinds in their zones, teams, acyclic ``target_of``, and controllers that agree with 603.3a.

Each failure is a :class:`ScenarioError` naming its place; ``Scenario`` turns it into a pydantic
error so that ``Scenario.model_validate`` reports it like any other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from collections.abc import Set as AbstractSet
from contextlib import contextmanager

from pydantic_core import PydanticCustomError

from ._controllers import Control, derive_controller
from ._errors import ScenarioError, format_loc
from ._event import EVENT
from ._shapes import Filter, Object, Player, Requirement, ScenarioFields, TriggerBody
from ._text import found as quoted

Loc = tuple[str | int, ...]
_RELATIVE = frozenset({"you", "opponent", "any"})
_KIND_ZONES = {
    "permanent": {"battlefield"},
    "spell": {"stack"},
    "ability": {"stack"},
    "emblem": {"command"},
    "card": {"graveyard", "exile", "hand", "library", "command", "ante"},
}


def check_references(scenario: ScenarioFields, allow_fired: bool = False) -> tuple[Control, ...]:
    """Each waiting ability's controller (603.3a), once every reference holds; else one pydantic
    error holding every problem found (each object, trigger, requirement … checked on its own).
    ``allow_fired``: the scenario of a later pass, whose ids may contain '@' (``REACTION@ABILITY``)."""
    found = _Found()
    controls = _check(scenario, found, allow_fired)
    if found.problems:
        raise as_reference(found.problems)
    return controls


def as_reference(problems: Sequence[ScenarioError]) -> PydanticCustomError:
    """Problems found once the shapes are valid (references, a card's reading), as the one pydantic
    error holding them all, which ``model/_problems.py`` lists each of in its place."""
    listed = [(p.loc, p.message, p.rule.value if p.rule else None) for p in problems]
    return PydanticCustomError("reference", "{message}", {"message": problems[0].message, "problems": listed})


class _Found:
    """The problems found so far; each checked part reports its first and the check goes on."""

    def __init__(self) -> None:
        self.problems: list[ScenarioError] = []

    @contextmanager
    def each(self) -> Iterator[None]:
        try:
            yield
        except ScenarioError as exc:
            self.problems.append(exc)
        except (KeyError, AttributeError, TypeError, ValueError, AssertionError):
            if not self.problems:  # a part that fails only because an earlier one was wrong
                raise


def _unique(ids: Iterable[tuple[str, Loc]], seen: dict[str, Loc], found: _Found) -> None:
    for ident, loc in ids:
        with found.each():
            if ident in seen:
                raise ScenarioError(f"duplicate id {quoted(ident)} (already used at {format_loc(seen[ident])})", loc)
            seen[ident] = loc


def _check(s: ScenarioFields, found: _Found, allow_fired: bool = False) -> tuple[Control, ...]:
    seen: dict[str, Loc] = {}
    players = {p.id for p in s.players}
    _unique(((p.id, ("players", i, "id")) for i, p in enumerate(s.players)), seen, found)
    _unique(((o.id, ("objects", i, "id")) for i, o in enumerate(s.objects)), seen, found)
    _unique(((t.id, ("triggers", i, "id")) for i, t in enumerate(s.triggers)), seen, found)
    _unique(((r.id, ("reactions", i, "id")) for i, r in enumerate(s.reactions)), seen, found)
    if not allow_fired:
        for bad in (i for i in seen if "@" in i):
            marks = f"id {quoted(bad)} may not contain '@' (it marks fired abilities)"
            found.problems.append(ScenarioError(marks, seen[bad]))
    if all(p.left_game for p in s.players):
        found.problems.append(ScenarioError("every player has left the game", ("players",)))

    def player(pid: str | None, loc: Loc) -> None:
        if pid is not None and pid not in players:
            raise ScenarioError(f"unknown player {quoted(pid)}", loc)

    for i, o in enumerate(s.objects):
        with found.each():
            _check_object(s, o, ("objects", i), player)
    for i, p in enumerate(s.players):
        with found.each():
            _check_target_restrictions(s, p, ("players", i))

    with found.each():
        _check_teams(s, players, player)

    controls = []
    for i, t in enumerate(s.triggers):
        with found.each():
            _check_trigger(s, t, ("triggers", i), found)
            controls.append(derive_controller(s, t, ("triggers", i)))
    for i, m in enumerate(s.must_target):
        with found.each():
            loc: Loc = ("must_target", i)
            if m.object not in seen or m.object in {r.id for r in s.reactions}:
                raise ScenarioError(f"unknown object or player {quoted(m.object)}", (*loc, "object"))
            if isinstance(m.applies_to, tuple):
                for k, aid in enumerate(m.applies_to):
                    if aid not in {t.id for t in s.triggers}:
                        raise ScenarioError(f"unknown trigger {quoted(aid)}", (*loc, "applies_to", k))
            else:
                _check_filter(s, m.applies_to, (*loc, "applies_to"), None, ())
    for i, r in enumerate(s.reactions):
        with found.each():
            loc = ("reactions", i)
            if r.object not in players and s.object(r.object) is None:
                raise ScenarioError(f"unknown object or player {quoted(r.object)}", (*loc, "object"))
            _check_trigger(s, r.trigger, (*loc, "trigger"), found)
    return tuple(controls)


def _check_object(s: ScenarioFields, o: Object, loc: Loc, player: Callable[[str | None, Loc], None]) -> None:
    player(o.controller, (*loc, "controller"))
    player(o.owner, (*loc, "owner"))
    if o.kind == "card" and o.zone is None:
        where = "graveyard, exile, hand, library, command or ante"
        raise ScenarioError(f"a card needs a zone ({where})", (*loc, "zone"))
    if o.where not in _KIND_ZONES[o.kind]:
        fits = " or ".join(f"kind: {k}" for k, zones in _KIND_ZONES.items() if o.where in zones)
        raise ScenarioError(f"a {o.kind} can't be in the {o.where}: give {fits}", (*loc, "zone"))
    if o.controller is None and o.owner is None:
        raise ScenarioError(f"object {quoted(o.id)} needs a controller or an owner", loc)
    if o.ability_kind is not None and o.kind != "ability":
        raise ScenarioError("ability_kind is only for objects of kind ability", (*loc, "ability_kind"))
    gone = {p.id for p in s.players if p.left_game}
    if o.controller in gone and o.owner is not None and o.owner != o.controller and o.owner not in gone:
        # 800.4a: effects giving the player control end, and what they still control is exiled (an
        # ability ceases to exist): no object another player owns is theirs after they leave
        raise ScenarioError(
            f"{o.controller} has left the game, so {o.owner}'s {o.id} is not theirs (800.4a: the effects "
            "that gave them control end, and what they still control is exiled): give the controller it "
            "has now, or leave it out",
            (*loc, "controller"),
        )
    _check_target_restrictions(s, o, loc)


def _check_teams(s: ScenarioFields, players: AbstractSet[str], player: Callable[[str | None, Loc], None]) -> None:
    if s.rules == "2hg":
        if s.teams is None:
            raise ScenarioError("rules 2hg needs teams", ("teams",))
        members = [p for team in s.teams for p in team]
        for j, team in enumerate(s.teams):
            for k, pid in enumerate(team):
                player(pid, ("teams", j, k))
        if sorted(members) != sorted(players):
            raise ScenarioError("teams must hold every player exactly once", ("teams",))
        if s.players[0].id not in s.teams[0]:
            raise ScenarioError(f"the first team must be the active team (holding {s.players[0].id})", ("teams", 0))
    elif s.teams is not None:
        raise ScenarioError("teams are only for rules 2hg", ("teams",))


def _check_target_restrictions(s: ScenarioFields, thing: Player | Object, loc: Loc) -> None:
    for key in ("protection", "hexproof_from"):
        for j, f in enumerate(getattr(thing, key)):
            _check_filter(s, f, (*loc, key, j), None, ())
    for j, entry in enumerate(thing.cant_be_targeted_by):
        _check_filter(s, entry.source, (*loc, "cant_be_targeted_by", j, "source"), None, ())


def _check_trigger(s: ScenarioFields, t: TriggerBody, loc: Loc, found: _Found) -> None:
    players: set[str] = {p.id for p in s.players}
    for key in ("controller", "source_controller", "chooser", "event_player"):
        pid = getattr(t, key)
        if pid is not None and pid not in players:
            found.problems.append(ScenarioError(f"unknown player {quoted(pid)}", (*loc, key)))
    if t.delayed is not None and t.delayed.controller not in players:
        found.problems.append(
            ScenarioError(f"unknown player {quoted(t.delayed.controller)}", (*loc, "delayed", "controller"))
        )
    if t.source is not None and s.object(t.source) is None:
        what = "a player can't be a source" if t.source in players else f"unknown object {quoted(t.source)}"
        found.problems.append(ScenarioError(what, (*loc, "source")))
    mode_ids: dict[str, Loc] = {}
    _unique(((mode.id, (*loc, "modes", i, "id")) for i, mode in enumerate(t.modes)), mode_ids, found)
    for where, reqs in t.requirement_lists():
        _check_requirements(s, reqs, (*loc, *where), found)


def _check_requirements(s: ScenarioFields, reqs: tuple[Requirement, ...], loc: Loc, found: _Found) -> None:
    ids: dict[str, Loc] = {}
    _unique(((r.id, (*loc, i, "id")) for i, r in enumerate(reqs)), ids, found)
    by_id: dict[str, Requirement] = {r.id: r for r in reqs}
    before = len(found.problems)
    for i, r in enumerate(reqs):
        with found.each():
            _check_requirement(s, r, i, by_id, loc)
    if len(found.problems) > before:
        return  # a cycle through a requirement already found wrong would say the same again
    # target_of must not be cyclic: a requirement's filter can't wait for itself (one cycle said once).
    deps: dict[str, set[str]] = {r.id: {ref for _, ref in r.filter.iter_target_of()} for r in reqs}
    for i, r in enumerate(reqs):
        stack, seen_ids = list(deps[r.id]), set[str]()
        while stack:
            nxt = stack.pop()
            if nxt == r.id:
                found.problems.append(
                    ScenarioError(
                        f"target_of is cyclic: requirement {quoted(r.id)} depends on its own targets",
                        (*loc, i, "filter"),
                    )
                )
                return
            if nxt not in seen_ids:
                seen_ids.add(nxt)
                stack.extend(deps.get(nxt, ()))


def _check_requirement(s: ScenarioFields, r: Requirement, i: int, by_id: dict[str, Requirement], loc: Loc) -> None:
    for k, other in enumerate(r.different_from):
        if other not in by_id:
            raise ScenarioError(
                f"unknown requirement {quoted(other)} of the same ability or mode", (*loc, i, "different_from", k)
            )
        if other == r.id:
            raise ScenarioError("a requirement can't be different from itself", (*loc, i, "different_from", k))
    _check_filter(s, r.filter, (*loc, i, "filter"), by_id, (r.id,))


def _check_filter(
    s: ScenarioFields, f: Filter, loc: Loc, reqs: dict[str, Requirement] | None, self_ids: tuple[str, ...]
) -> None:
    players = {p.id for p in s.players}
    for key in ("controller", "owner"):
        ref = getattr(f, key)
        if ref is None:
            continue
        if ref == EVENT:
            raise ScenarioError(
                f"{key} 'event' is the player the trigger's event names (603.2): give the trigger's event_player",
                (*loc, key),
            )
        if isinstance(ref, str):
            if ref not in _RELATIVE and ref not in players:
                raise ScenarioError(f"expected you, opponent, any or a player id, not {quoted(ref)}", (*loc, key))
        else:
            if reqs is None:
                raise ScenarioError("target_of is only for target requirements", (*loc, key, "target_of"))
            if ref.target_of in self_ids:
                raise ScenarioError(
                    f"target_of is cyclic: requirement {quoted(ref.target_of)} can't refer to itself",
                    (*loc, key, "target_of"),
                )
            if ref.target_of not in reqs:
                raise ScenarioError(
                    f"unknown requirement {quoted(ref.target_of)} of the same ability or mode",
                    (*loc, key, "target_of"),
                )
    known = players | {o.id for o in s.objects} | {t.id for t in s.triggers}
    for k, ident in enumerate(f.id or ()):
        if ident not in known:
            raise ScenarioError(f"unknown id {quoted(ident)}", (*loc, "id", k))
    if f.not_ is not None:
        _check_filter(s, f.not_, (*loc, "not"), reqs, self_ids)
    for key in ("any", "all"):
        for k, sub in enumerate(getattr(f, key) or ()):
            _check_filter(s, sub, (*loc, key, k), reqs, self_ids)
