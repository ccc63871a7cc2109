"""What only the board can give a reading (docs/cards.md, "What the board states"): a card's words may
ask for a set of players or a number that the card does not hold and the scenario does — "for each
opponent, … up to one target creature that player controls" (one requirement per opponent of the
trigger's controller, 601.2c), "with lesser power", "with power less than this creature's power"
(a number of the ability's source) and X ("up to X target creatures", "with mana value X or less",
"X damage divided", 107.3: the trigger's ``x``). Such an ability is read as a *template*: its
fragment holds a marker where the board's answer goes, ``triggerstack card`` prints the template
and what the board must state (:func:`needs`), and a scenario naming the card completes it from
what the scenario states (:func:`complete`, called by ``model/cards/_expand.py``) or is refused
naming the field it lacks — a door never guesses: no player list, controller or number is assumed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from copy import deepcopy
from typing import Any

EACH = "for_each"
"""The marker of a player reference that stands for each player of a set: ``{"for_each": "opponent"}``
(every opponent of the ability's controller still in the game, 102.2–102.3, 800.4a) or
``{"for_each": "player"}`` (every player still in the game), as a filter's ``controller`` or ``owner``."""

STATED = "stated"
"""The marker of a number the scenario states: ``{"stated": "power", "of": "source"}`` — the power (or
toughness, or mana value) the scenario gives the trigger's source object — as a comparison's number
(a comparison here may also be strict, ``lt`` or ``gt``, written ``lte``/``gte`` once the number is
known); ``{"stated": "x", "of": "trigger"}`` — the trigger's ``x``, the number its text calls X
(107.3) — as a comparison's number, a requirement's ``min``, ``max`` or ``divide``, or a modal
ability's ``choose`` ("choose up to X": none to X modes)."""

_NUMBERS = ("power", "toughness", "mana_value")
_STRICT = {"lt": ("lte", -1), "gt": ("gte", 1), "lte": ("lte", 0), "gte": ("gte", 0), "eq": ("eq", 0)}
_SAID = {"power": "power", "toughness": "toughness", "mana_value": "mana value"}


class Missing(Exception):
    """What a scenario lacks to complete a template: one line naming the field and the object, and
    the place to give it (``None``: the trigger's)."""

    def __init__(self, message: str, loc: tuple[str | int, ...] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc


def each(who: str) -> dict[str, str]:
    """The player reference standing for each ``who`` ("opponent" or "player")."""
    return {EACH: who}


def stated(field: str, of: str = "source") -> dict[str, str]:
    """The number ``field`` ("power", "toughness", "mana_value") of the ability's source, or (``of``
    "trigger") the trigger's ``x``, as the scenario states it."""
    return {STATED: field, "of": of}


X = stated("x", "trigger")
"""The number a card's text calls X (107.3), as the trigger's ``x`` states it."""

CHOOSER = {"chosen_by": "event"}
"""The marker of an ability's ``chooser`` who is the player its trigger's event names — "target
creature of their choice" where "their" is that player, "of defending player's choice" (700.2e,
603.2) — as the scenario states that player: the trigger's ``event_player``."""


def _walk(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _walk(v)
    elif isinstance(value, list):
        for v in value:
            yield from _walk(v)


def has_each(value: Any) -> str | None:
    """Who the first ``for_each`` marker in ``value`` stands for, ``None`` when it has none."""
    return next((str(d[EACH]) for d in _walk(value) if set(d) == {EACH}), None)


def _stated_fields(value: Any) -> list[tuple[str, str]]:
    return [(str(d["of"]), str(d[STATED])) for d in _walk(value) if set(d) == {STATED, "of"}]


def reads_x(fragment: Any) -> bool:
    """Whether a reading holds the trigger's X (:data:`X`)."""
    return ("trigger", "x") in _stated_fields(fragment)


def the_source_for_x(fragment: dict[str, Any], field: str) -> dict[str, Any]:
    """``fragment`` with its X (:data:`X`) read as the source's ``field`` ("where X is this creature's power")."""
    if isinstance(fragment, dict):
        return stated(field) if fragment == X else {k: the_source_for_x(v, field) for k, v in fragment.items()}
    if isinstance(fragment, list):
        return [the_source_for_x(v, field) for v in fragment]
    return fragment


def is_template(fragment: Any) -> bool:
    """Whether a reading holds a marker the board must answer."""
    chosen = isinstance(fragment, dict) and fragment.get("chooser") == CHOOSER
    return chosen or has_each(fragment) is not None or bool(_stated_fields(fragment))


def _requirement_lists(fragment: dict[str, Any]) -> Iterator[list[dict[str, Any]]]:
    if isinstance(fragment.get("targets"), list):
        yield fragment["targets"]
    for mode in fragment.get("modes", []) if isinstance(fragment.get("modes"), list) else []:
        if isinstance(mode, dict) and isinstance(mode.get("targets"), list):
            yield mode["targets"]


def needs(fragment: dict[str, Any]) -> list[str]:
    """What the board must state to complete ``fragment``, one line each (none: it is no template)."""
    out: list[str] = []
    for reqs in _requirement_lists(fragment):
        for req in reqs:
            who = has_each(req.get("filter"))
            if who is not None:
                whose = "of its controller " if who == "opponent" else ""
                out.append(
                    f"the players: requirement {req['id']} is written once for each {who} P {whose}still in "
                    f"the game (800.4a), in turn order, as {req['id']}-P with P where it says {each(who)}"
                )
    if fragment.get("chooser") == CHOOSER:
        out.append(
            "the chooser: the player its event names (603.2), who chooses its targets (700.2e), as the "
            "trigger's event_player"
        )
    for of, field in dict.fromkeys(_stated_fields(fragment)):
        if of == "trigger":
            out.append(
                "X: the number its text calls X, as it is when the ability is put on the stack (107.3), "
                "as the trigger's x"
            )
        else:
            out.append(
                f"its source's {_SAID[field]}: the {field} the scenario states for the trigger's source "
                "(as it last existed on the battlefield, if it has left, 608.2h)"
            )
    return out


def complete(
    fragment: dict[str, Any],
    players: Callable[[str], tuple[str, ...]],
    number: Callable[[str, str], int],
    event: Callable[[], str],
) -> dict[str, Any]:
    """``fragment`` with its markers answered: each requirement naming ``for_each`` written once per
    player ``players(who)`` gives (id ``<id>-<player>``, the player for the marker; a requirement
    that must differ from it differs from each), each stated number read by ``number(of,
    field)``, and a chooser the event names by ``event()``. Each raises :class:`Missing` when the
    scenario does not say."""
    out = _numbers_read(deepcopy(fragment), number)
    if out.get("chooser") == CHOOSER:
        out["chooser"] = event()
    for reqs in _requirement_lists(out):
        written: list[dict[str, Any]] = []
        split: dict[str, list[str]] = {}
        for req in reqs:
            who = has_each(req.get("filter"))
            if who is None:
                written.append(req)
                continue
            split[req["id"]] = []
            for player in players(who):
                one = {**deepcopy(req), "id": f"{req['id']}-{player}", "filter": _answered(req["filter"], player)}
                if "text" in req:
                    one["text"] = f"{req['text']} ({who} {player})"
                split[req["id"]].append(one["id"])
                written.append(one)
        for req in written:
            if "different_from" in req:
                req["different_from"] = [i for d in req["different_from"] for i in split.get(d, [d])]
        reqs[:] = written
    return out


def _numbers_read(out: dict[str, Any], number: Callable[[str, str], int]) -> dict[str, Any]:
    """``out`` with each stated number read: in comparisons, a requirement's bounds and division, and
    a modal ability's "choose up to X" — a division then bounding the targets again (601.2d: each
    gets at least one, so at most the amount of them)."""

    def read(marker: dict[str, Any]) -> int:
        return number(str(marker["of"]), str(marker[STATED]))

    for found in _walk(out):
        for key in _NUMBERS:
            compared = found.get(key)
            if isinstance(compared, dict) and any(isinstance(v, dict) for v in compared.values()):
                found[key] = _numbered(compared, read)
    for reqs in _requirement_lists(out):
        for req in reqs:
            divided = isinstance(req.get("divide"), dict)
            for key in ("min", "max", "divide"):
                if isinstance(req.get(key), dict):
                    req[key] = read(req[key])
            if divided:
                _bounded_by_division(req)
    modal = out.get("modal")
    if isinstance(modal, dict) and isinstance(modal.get("choose"), dict):
        modal["choose"] = list(range(min(read(modal["choose"]), len(out.get("modes", []))) + 1))
    return out


def _bounded_by_division(req: dict[str, Any]) -> None:
    """A requirement dividing X, once X is read (601.2d): each target gets at least 1, so one to X
    targets; X of 0 divides nothing, so no target (Fire Covenant's and Polukranos's rulings) — a
    requirement that must have one then cannot be met, and says so."""
    amount, low = req["divide"], req.get("min", 1)
    if amount == 0:
        if low > 0:
            raise Missing(f"X is 0: none of {req['id']}'s {low} targets can get at least 1 of it (601.2d)")
        req["max"] = 0
        del req["divide"]
        return
    req["min"] = max(low, 1)
    if req.get("max", 1) is None or req.get("max", 1) > amount:
        req["max"] = amount


def _answered(value: Any, player: str) -> Any:
    """``value`` with each ``for_each`` marker replaced by ``player``."""
    if isinstance(value, dict):
        return player if set(value) == {EACH} else {k: _answered(v, player) for k, v in value.items()}
    if isinstance(value, list):
        return [_answered(v, player) for v in value]
    return value


def _numbered(compared: dict[str, Any], read: Callable[[dict[str, Any]], int]) -> dict[str, int]:
    """A comparison with its stated number read, a strict one written as the format's (``lt`` n is ``lte`` n-1)."""
    out: dict[str, int] = {}
    for key, value in compared.items():
        n = read(value) if isinstance(value, dict) else int(value)
        key, shift = _STRICT[key]
        out[key] = n + shift
    return out
