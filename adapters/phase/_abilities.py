"""A phase ability, as its JSON says it (``pending.ability`` in a state, ``triggers[].execute`` in card
data), read as a trigger's requirements (601.2c) and modes (700.2) in our format (docs/phase.md,
"Abilities").

Which effects of a chain *target* is decided in phase's Rust code, not in its data: this module holds
that decision as a table (``TARGET_FIELD``, from ``Effect::target_filter`` and
``collect_target_slots`` of the phase version pinned in pyproject.toml), and an effect type the table
does not know is a :class:`Gap`, never a guess. Pure: it imports nothing of phase.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ._schema import Node


@dataclass(frozen=True)
class Gap:
    """Something phase's state does not say, or says in a way this adapter does not read: the
    place (a path into phase's JSON) and what is missing. A gap is reported, never guessed."""

    place: str
    message: str

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


# Effect type → the field holding its target filter (Effect::target_filter). A field whose filter
# is a context reference (CONTEXT) is not a target; an optional field that is null is none.
TARGET_FIELD: dict[str, str] = {
    **dict.fromkeys([
        "DealDamage", "Draw", "Scry", "Surveil", "Pump", "Destroy", "Regenerate", "Counter", "Tap", "Untap",
        "AddCounter", "RemoveCounter", "Sacrifice", "DiscardCard", "Mill", "ChangeZone", "GainControl",
        "ControlNextTurn", "Attach", "Fight", "Bounce", "SwitchPT", "CopySpell", "BecomeCopy", "ChooseCard",
        "PutCounter", "MultiplyCounter", "DoublePT", "MoveCounters", "Animate", "Discard", "Shuffle", "Transform",
        "RevealHand", "Reveal", "TargetOnly", "Suspect", "Connive", "PhaseOut", "PhaseIn", "ForceBlock",
        "BecomePrepared", "BecomeUnprepared", "CastFromZone", "PreventDamage", "Exploit", "GivePlayerCounter",
        "LoseAllPlayerCounters", "PutAtLibraryPosition", "PutOnTopOrBottom", "Goad", "Detain", "ExtraTurn",
        "SkipNextTurn", "AdditionalPhase", "Double", "BlightEffect", "SetLifeTotal", "GiveControl",
        "RemoveFromCombat", "CopyTokenOf", "GenericEffect", "LoseLife", "Mana"
    ], "target"),
    "ExileTop": "player", "Token": "owner", "SearchLibrary": "target_player", "ChooseDrawnThisTurnPayOrTopdeck": "player",
}  # fmt: skip

# Effect types that never target (Effect::target_filter returns None for them).
NO_TARGET = frozenset([
    "StartYourEngines", "IncreaseSpeed", "GainLife", "PumpAll", "DamageAll", "DamageEachPlayer", "DestroyAll",
    "TapAll", "UntapAll", "BounceAll", "CounterAll", "ChangeZoneAll", "Dig", "PutCounterAll", "DoublePTAll",
    "Explore", "Investigate", "Tribute", "BecomeMonarch", "Proliferate", "Populate", "Clash", "Vote", "Cleanup",
    "RevealTop", "Choose", "ChooseDamageSource", "SolveCase", "SetClassLevel", "CreateDelayedTrigger",
    "AddTargetReplacement", "AddRestriction", "ReduceNextSpellCost", "GrantNextSpellAbility",
    "AddPendingETBCounters", "CreateEmblem", "PayCost", "GrantCastingPermission", "RegisterBending",
    "ChooseFromZone", "ChooseAndSacrificeRest", "GainEnergy", "ExileFromTopUntil", "RevealUntil", "Discover",
    "Cascade", "MiracleCast", "MadnessCast", "GiftDelivery", "ChangeTargets", "Manifest", "ManifestDread",
    "LoseTheGame", "WinTheGame", "RollDie", "FlipCoin", "FlipCoins", "FlipCoinUntilLose", "RingTemptsYou",
    "VentureIntoDungeon", "VentureInto", "TakeTheInitiative", "Incubate", "Amass", "Monstrosity", "Bolster",
    "Adapt", "Learn", "Forage", "CollectEvidence", "Endure", "ExploreAll", "Seek", "SetDayNight", "TimeTravel",
    "RuntimeHandled", "Conjure", "ChooseOneOf", "Unimplemented", "RevealFromHand"
])  # fmt: skip

# Of those, the effects with a ``target`` filter (every match; or a "target player" companion).
_SCOPED = frozenset([
    "PumpAll", "DamageAll", "DestroyAll", "TapAll", "UntapAll", "BounceAll", "CounterAll", "ChangeZoneAll",
    "PutCounterAll", "DoublePTAll", "AddTargetReplacement", "GrantCastingPermission", "ChangeTargets", "Manifest"
])  # fmt: skip

# Effects whose target filter is an Option (null: no target); every other's is a filter.
_MAY_NOT_TARGET = frozenset(["GenericEffect", "LoseLife", "Mana", "SearchLibrary", "BlightEffect", "AdditionalPhase"])
_MANA_ROLE = {"Recipient": "recipient", "CountSource": "count_source"}  # 0.103.0's ManaTarget: where its filter is

# TargetFilter variants that name something from context, never a target (TargetFilter::is_context_ref).
CONTEXT = frozenset([
    "None", "SelfRef", "Controller", "ScopedPlayer", "TriggeringSpellController", "TriggeringSpellOwner",
    "TriggeringPlayer", "TriggeringSource", "DefendingPlayer", "AttachedTo", "CostPaidObject", "ParentTarget",
    "ParentTargetController", "PostReplacementSourceController"
])  # fmt: skip

# An effect of these types chooses its sub-ability's targets at resolution (defers_sub_ability_target_selection).
_DEFERS_SUB = frozenset(["Scry", "Dig", "Surveil", "ChooseCard", "SearchLibrary", "RevealHand", "Choose"])
_PRIVATE = ("Hand", "Library")
_CORE = {
    "Creature": "creature", "Land": "land", "Artifact": "artifact", "Enchantment": "enchantment",
    "Instant": "instant", "Sorcery": "sorcery", "Planeswalker": "planeswalker", "Battle": "battle",
    "Kindred": "kindred", "Tribal": "kindred",
}  # fmt: skip
_ZONE = {"Battlefield": "battlefield", "Graveyard": "graveyard", "Exile": "exile", "Stack": "stack",
         "Hand": "hand", "Library": "library", "Command": "command"}  # fmt: skip
_COLOR = {"White": "white", "Blue": "blue", "Black": "black", "Red": "red", "Green": "green"}
_COMPARE = {"LE": "lte", "GE": "gte", "EQ": "eq", "LT": "lt", "GT": "gt"}
_FLAG: dict[str, dict[str, Any] | None] = {"Tapped": {"tag": "tapped"}, "Attacking": {"tag": "attacking"}, "Blocking": {"tag": "blocking"},
         "Token": {"tag": "token"}, "Untapped": {"not": {"tag": "tapped"}},
         "NonToken": {"not": {"tag": "token"}}, "Multicolored": None, "Colorless": {"colorless": True}}  # fmt: skip


@dataclass
class Translated:
    """What an ability says for 603.3: its requirements (non-modal) or its modal choice and modes,
    the gaps found, and whether its targets include "another" (other than its source)."""

    targets: list[dict[str, Any]]
    modal: dict[str, Any] | None
    modes: list[dict[str, Any]]
    gaps: list[Gap]

    @property
    def another(self) -> bool:
        """Whether a requirement says "another" (other than the ability's source)."""
        reqs = [*self.targets, *(r for m in self.modes for r in m.get("targets", ()))]
        return any(r.get("other_than_source") for r in reqs)

    def fields(self) -> dict[str, Any]:
        """The trigger's fields in our format (``targets``, or ``modal`` and ``modes``)."""
        if self.modal is not None:
            return {"modal": self.modal, "modes": self.modes}
        return {"targets": self.targets} if self.targets else {}


def _fixed(q: Node) -> int | None:
    """A QuantityExpr's value when it is a fixed number (else the board decides it)."""
    return q["value"].as_int() if q.tag() == "Fixed" else None


def _count(q: Node) -> int | None:
    """A count written as a number or as a QuantityExpr (None: the board decides it)."""
    return q.as_int() if q.kind == "integer" else _fixed(q)


def _children(f: Node) -> list[Node]:
    """The filters an Or, And or Not filter combines."""
    kind = f.tag()
    return f["filters"].items() if kind in ("Or", "And") else [f["filter"]] if kind == "Not" else []


def _in_zone(f: Node) -> str | None:
    """TargetFilter::extract_in_zone: the first InZone property's zone."""
    if f.tag() == "Typed":
        for p in f["properties"].items():
            if p.tag() == "InZone":
                return p["zone"].as_str()
    return next((z for z in map(_in_zone, _children(f)) if z is not None), None)


def filter_of(f: Node, gaps: list[Gap]) -> dict[str, Any] | str:
    """A phase TargetFilter as our filter (docs/formats.md, "Filters"); what it cannot say is a gap
    (and the filter then matches nothing, so no guess widens a choice)."""
    kind = f.tag()
    simple: dict[str, Any] = {"Player": {"kind": "player"}, "StackAbility": {"kind": "ability"},
                              "StackSpell": {"kind": "spell"}}  # fmt: skip
    if kind == "Any":
        return "any-target"
    if kind in simple:
        return dict(simple[kind])
    if kind in ("Or", "And"):
        return {"any" if kind == "Or" else "all": [filter_of(c, gaps) for c in _children(f)]}
    if kind == "Not":
        return {"not": filter_of(f["filter"], gaps)}
    if kind == "Typed":
        return _typed(f, gaps)
    gaps.append(Gap(f.path, f"target filter {kind} is not read by the adapter"))
    return {"id": []}


def _type_filter(t: Node, gaps: list[Gap]) -> dict[str, Any] | None:
    """One TypeFilter as a filter (None: no condition)."""
    name, value = t.variant()
    if value.null and name in _CORE:
        return {"type": _CORE[name]}
    if value.null and name in ("Card", "Any"):
        return None
    if value.null and name == "Permanent":
        return {"kind": "permanent"}
    if name == "Subtype":
        return {"subtype": value.as_str()}
    if name == "Non":
        inner = _type_filter(value, gaps)
        return None if inner is None else {"not": inner}
    if name == "AnyOf":
        parts = [p for p in (_type_filter(v, gaps) for v in value.items()) if p is not None]
        return {"any": parts} if len(parts) == len(value) else None
    gaps.append(Gap(t.path, f"type filter {t.dump()} is not read by the adapter"))
    return {"id": []}


def _typed(f: Node, gaps: list[Gap]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    types = f["type_filters"].items()
    parts = [p for p in (_type_filter(t, gaps) for t in types) if p is not None]
    if any(t.variant()[0] == "Card" for t in types) and not any(p.get("type") for p in parts) and not (
            _in_zone(f)):  # fmt: skip
        gaps.append(Gap(f"{f.path}.type_filters", "a card with no zone named"))
    controller = f["controller"]
    who = None if controller.null else controller.variant()[0]
    if who in ("You", "Opponent"):
        out["controller"] = who.lower()
    elif who is not None:
        gaps.append(Gap(controller.path, f"controller {controller.dump()} is not read by the adapter"))
    parts += [p for p in (_prop(p, gaps) for p in f["properties"].items()) if p is not None]
    for p in parts:
        for key, value in p.items():
            if key in out or key in ("not", "any"):
                out.setdefault("all", []).append({key: value})
            else:
                out[key] = value
    return out


def _prop(p: Node, gaps: list[Gap]) -> dict[str, Any] | None:
    """A FilterProp as a filter condition; ``Another`` is read by the caller (None here)."""
    kind = p.tag()
    if kind == "Another":
        return None
    flag = _FLAG.get(kind)
    if flag is not None:
        return dict(flag)
    if kind == "InZone":
        zone = p["zone"].as_str()
        if zone in _ZONE:
            return {"kind": "spell"} if zone == "Stack" else {"zone": _ZONE[zone]}  # a card on the stack is a spell
    if kind == "Owned":
        who = p["controller"].variant()[0]
        if who in ("You", "Opponent"):
            return {"owner": who.lower()}
    if kind in ("HasColor", "NotColor") and p["color"].as_str() in _COLOR:
        c = {"color": _COLOR[p["color"].as_str()]}
        return c if kind == "HasColor" else {"not": c}
    if kind in ("HasSupertype", "NotSupertype"):
        s = {"supertype": p["value"].as_str().lower()}
        return s if kind == "HasSupertype" else {"not": s}
    bound = _bound(p, kind)
    if bound is not None:
        return bound
    if kind in ("Cmc", "PowerLE", "PowerGE", "ToughnessLE", "ToughnessGE", "PtComparison"):
        gaps.append(Gap(p.path, f"filter property {kind} compares with a number the board decides"))
        return {"id": []}
    if kind == "AnyOf":
        return {"any": [q for q in (_prop(q, gaps) for q in p["props"].items()) if q is not None]}
    gaps.append(Gap(p.path, f"filter property {kind} is not read by the adapter"))
    return {"id": []}


def _bound(p: Node, kind: str) -> dict[str, Any] | None:
    """A property comparing power, toughness or mana value with a fixed number; None where the board
    decides the number (or the property compares nothing of those)."""
    if kind in ("PowerLE", "PowerGE", "ToughnessLE", "ToughnessGE"):
        value = _fixed(p["value"])
        stat = "power" if kind.startswith("Power") else "toughness"
        return None if value is None else {stat: {"lte" if kind.endswith("LE") else "gte": value}}
    if kind == "PtComparison":
        stat, comparator, value = p["stat"].as_str(), p["comparator"].as_str(), _fixed(p["value"])
        if stat in ("Power", "Toughness") and comparator in _COMPARE and value is not None and (
                p["scope"].as_str() == "Current"):  # fmt: skip
            return {stat.lower(): {_COMPARE[comparator]: value}}
    if kind == "Cmc":
        comparator, value = p["comparator"].as_str(), _fixed(p["value"])
        if comparator in _COMPARE and value is not None:
            return {"mana_value": {_COMPARE[comparator]: value}}
    return None


def _another(f: Node) -> bool:
    """Whether a filter says "another" (other than the source): every branch of an Or says it."""
    kind = f.tag()
    if kind == "Typed":
        return any(p.tag() == "Another" for p in f["properties"].items())
    if kind == "Or":
        return bool(_children(f)) and all(_another(c) for c in _children(f))
    return kind == "And" and any(_another(c) for c in _children(f))


def _names_target_player(f: Node) -> bool:
    """filter_references_target_player: a Typed filter controlled by "target player"."""
    if f.tag() == "Typed":
        return not f["controller"].null and f["controller"].variant()[0] == "TargetPlayer"
    return any(_names_target_player(c) for c in _children(f))


def _targets(f: Node) -> bool:
    """Whether a filter may name a target (it is no reference to something from context)."""
    return f.tag() not in CONTEXT


def _slot_filters(effect: Node, gaps: list[Gap]) -> Iterator[Node]:
    """The filters of one effect that phase asks a target for, in its order (collect_target_slots)."""
    kind = effect.tag()
    pairs = {"ExchangeControl": ("target_a", "target_b"), "MoveCounters": ("source", "target"),
             "Attach": ("attachment", "target")}  # fmt: skip
    if kind in pairs:
        given = [f for f in (effect.opt(f"{kind}.{k}") for k in pairs[kind]) if not f.null]
        yield from (f for f in given if _targets(f) and f.tag() != "LastCreated")
        return
    if kind == "SetTapState":  # phase 0.103.0's tap / untap: one target (scope Single) or every match
        scope = effect["scope"]
        name = scope.as_str() if scope.kind == "string" else scope.tag()
        if name == "Single" and _targets(effect["target"]):
            yield effect["target"]
        elif name not in ("Single", "All", "Source", "Anaphoric", "Demonstrative", "CostPaidObject", "EventSource",
                          "AmassedArmy"):  # fmt: skip
            gaps.append(Gap(scope.path, f"tap-state scope {name} is not read by the adapter"))
        return
    if kind in NO_TARGET:
        f = effect["target"] if kind in _SCOPED else None
        if f is not None and (_names_target_player(f) or (f.tag() == "Player" and kind == "ChangeZoneAll")):
            yield Node({"type": "Player"}, f.path)
        return
    field = TARGET_FIELD.get(kind)
    if field is None:
        gaps.append(Gap(f"{effect.path}.type", f"effect {kind}: whether it targets is not known to the adapter"))
        return
    f = effect.opt(f"{kind}.{field}")
    if kind == "Mana" and not f.null:  # 0.103.0: {"role": "Recipient", "recipient": filter} (or a CountSource)
        role = f["role"].as_str()
        if role not in _MANA_ROLE:
            gaps.append(Gap(f["role"].path, f"a mana effect's target of role {role} is not read by the adapter"))
            return
        f = f[_MANA_ROLE[role]]
    if (f.null and kind in _MAY_NOT_TARGET) or not _targets(f):
        return
    if _names_target_player(f):
        yield Node({"type": "Player"}, f.path)
    if kind == "Sacrifice":
        return
    if kind in ("ChangeZone", "PutAtLibraryPosition"):
        origin = effect["origin"].maybe_str() if kind == "ChangeZone" else None
        if origin in _PRIVATE or (origin is None and _in_zone(f) in _PRIVATE):
            return
    if kind == "CopyTokenOf" and not effect.opt("CopyTokenOf.source_filter").null:
        return
    yield f


def _requirements(ability: Node, gaps: list[Gap], sid: list[int]) -> list[dict[str, Any]]:
    """Every requirement of an ability chain: its effect's, then its sub-abilities' (601.2c)."""
    out: list[dict[str, Any]] = []
    effect = ability["effect"]
    slots = list(_slot_filters(effect, gaps))
    multi = ability.opt("Ability.multi_target")
    for n, f in enumerate(slots):
        sid[0] += 1
        req: dict[str, Any] = {"id": f"t{sid[0]}", "filter": filter_of(f, gaps)}
        if _another(f):
            req["other_than_source"] = True
        lo, hi = (0 if ability["optional_targeting"].as_bool() else 1), 1
        if not multi.null and n == len(slots) - 1:  # the effect's own filter takes the count
            lo = _count(multi["min"])  # type: ignore[assignment]
            if lo is None:
                gaps.append(Gap(multi["min"].path, "a least number of targets the board decides"))
                lo = 0
            hi_q = multi["max"]
            hi_v = None if hi_q.null else _fixed(hi_q)
            if not hi_q.null and hi_v is None:
                gaps.append(Gap(hi_q.path, "a number of targets the board decides"))
                hi_v = lo
            hi = max(hi_v, lo) if hi_v is not None else None  # type: ignore[assignment]
        req["min"], req["max"] = lo, hi
        if not ability.opt("Ability.distribute").null and n == len(slots) - 1:
            amount = _fixed(effect["amount"]) if effect.tag() == "DealDamage" else None
            if effect.tag() != "DealDamage":
                gaps.append(Gap(effect.path, f"a division of {effect.tag()} is not read by the adapter"))
            elif amount is None:
                gaps.append(Gap(effect["amount"].path, "an amount to divide that the board decides"))
            else:
                req["divide"] = amount
                req["min"] = max(req["min"], 1)
        out.append(req)
    sub = ability["sub_ability"]
    if not sub.null and effect.tag() not in _DEFERS_SUB:
        cond = sub["condition"]
        if cond.null or cond.tag() not in ("WhenYouDo", "QuantityCheck"):
            out.extend(_requirements(sub, gaps, sid))
    return out


def translate(ability: Node | Mapping[str, Any], place: str = "ability") -> Translated:
    """An ability's requirements or modes (``ability``: phase's JSON, or its :class:`~._schema.Node`),
    with every gap found; a field missing or of another type is :class:`~._schema.PhaseStateError`."""
    a = ability if isinstance(ability, Node) else Node(ability, place)
    gaps: list[Gap] = []
    modal = a.opt("Ability.modal")
    if modal.null:
        return Translated(_requirements(a, gaps, [0]), None, [], gaps)
    texts = [t.as_str() for t in modal["mode_descriptions"].items()]
    modes: list[dict[str, Any]] = []
    sid = [0]
    for i, m in enumerate(a.opt("Ability.mode_abilities").items()):
        mode: dict[str, Any] = {"id": f"m{i + 1}", **({"text": texts[i]} if i < len(texts) else {})}
        reqs = _requirements(m, gaps, sid)
        modes.append({**mode, "targets": reqs} if reqs else mode)
    lo, hi = modal["min_choices"].as_int(), modal["max_choices"].as_int()
    if len(modes) != modal["mode_count"].as_int():
        gaps.append(Gap(f"{a.path}.mode_abilities", "fewer mode abilities than modes"))
    if len(modal.opt("ModalChoice.constraints")):
        gaps.append(Gap(f"{modal.path}.constraints", "constraints on the modes are not read by the adapter"))
    chooser = modal.opt("ModalChoice.chooser")
    if not chooser.null and chooser.tag() != "Controller":
        gaps.append(Gap(chooser.path, f"modes chosen by {chooser.tag()}"))
    choice: dict[str, Any] = {"choose": list(range(lo, hi + 1))}
    if modal["allow_repeat_modes"].as_bool():
        choice["repeat"] = True
    return Translated([], choice, modes, gaps)
