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

Json = Any


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


def _kind(node: Json) -> str:
    return str(node.get("type")) if isinstance(node, Mapping) else str(node)


def _fixed(q: Json) -> int | None:
    """A QuantityExpr's value when it is a fixed number (else the board decides it)."""
    if isinstance(q, Mapping) and q.get("type") == "Fixed" and isinstance(q.get("value"), int):
        return int(q["value"])
    return None


def _in_zone(f: Json) -> str | None:
    """TargetFilter::extract_in_zone: the first InZone property's zone."""
    if not isinstance(f, Mapping):
        return None
    if f.get("type") == "Typed":
        for p in f.get("properties") or ():
            if isinstance(p, Mapping) and p.get("type") == "InZone":
                return str(p.get("zone"))
    for child in f.get("filters") or ([f["filter"]] if isinstance(f.get("filter"), Mapping) else []):
        z = _in_zone(child)
        if z is not None:
            return z
    return None


def filter_of(f: Json, place: str, gaps: list[Gap]) -> dict[str, Any] | str:
    """A phase TargetFilter as our filter (docs/formats.md, "Filters"); what it cannot say is a gap
    (and the filter then matches nothing, so no guess widens a choice)."""
    kind = _kind(f)
    if kind == "Any":
        return "any-target"
    if kind == "Player":
        return {"kind": "player"}
    if kind == "StackAbility":
        return {"kind": "ability"}
    if kind == "StackSpell":
        return {"kind": "spell"}
    if kind in ("Or", "And"):
        parts = [filter_of(c, f"{place}.filters[{i}]", gaps) for i, c in enumerate(f.get("filters") or ())]
        return {"any" if kind == "Or" else "all": parts}
    if kind == "Not":
        return {"not": filter_of(f.get("filter"), f"{place}.filter", gaps)}
    if kind == "Typed":
        return _typed(f, place, gaps)
    gaps.append(Gap(place, f"target filter {kind} is not read by the adapter"))
    return {"id": []}


def _type_filter(t: Json, place: str, gaps: list[Gap]) -> dict[str, Any] | None:
    """One TypeFilter as a filter (None: no condition)."""
    if isinstance(t, str):
        if t in _CORE:
            return {"type": _CORE[t]}
        if t in ("Card", "Any"):
            return None
        if t == "Permanent":
            return {"kind": "permanent"}
    elif isinstance(t, Mapping) and len(t) == 1:
        ((key, value),) = t.items()
        if key == "Subtype" and isinstance(value, str):
            return {"subtype": value}
        if key == "Non":
            inner = _type_filter(value, place, gaps)
            return None if inner is None else {"not": inner}
        if key == "AnyOf" and isinstance(value, list):
            parts = [p for p in (_type_filter(v, place, gaps) for v in value) if p is not None]
            return {"any": parts} if len(parts) == len(value) else None
    gaps.append(Gap(place, f"type filter {t!r} is not read by the adapter"))
    return {"id": []}


def _typed(f: Mapping[str, Any], place: str, gaps: list[Gap]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    parts: list[dict[str, Any]] = []
    types = list(f.get("type_filters") or ())
    for t in types:
        got = _type_filter(t, f"{place}.type_filters", gaps)
        if got is not None:
            parts.append(got)
    if "Card" in types and not any(p.get("type") for p in parts) and not _in_zone(f):
        gaps.append(Gap(f"{place}.type_filters", "a card with no zone named"))
    controller = f.get("controller")
    if controller == "You":
        out["controller"] = "you"
    elif controller == "Opponent":
        out["controller"] = "opponent"
    elif controller is not None:
        gaps.append(Gap(f"{place}.controller", f"controller {controller!r} is not read by the adapter"))
    for i, p in enumerate(f.get("properties") or ()):
        got = _prop(p, f"{place}.properties[{i}]", gaps)
        if got is not None:
            parts.append(got)
    for p in parts:
        for key, value in p.items():
            if key in out or key in ("not", "any"):
                out.setdefault("all", []).append({key: value})
            else:
                out[key] = value
    return out


def _prop(p: Json, place: str, gaps: list[Gap]) -> dict[str, Any] | None:
    """A FilterProp as a filter condition; ``Another`` is read by the caller (None here)."""
    kind = _kind(p)
    if kind == "Another":
        return None
    flag = _FLAG.get(kind)
    if flag is not None:
        return dict(flag)
    if kind == "InZone" and p.get("zone") == "Stack":
        return {"kind": "spell"}  # a card on the stack is a spell (phase's "target spell")
    if kind == "InZone" and p.get("zone") in _ZONE:
        return {"zone": _ZONE[p["zone"]]}
    if kind == "Owned" and p.get("controller") in ("You", "Opponent"):
        return {"owner": "you" if p["controller"] == "You" else "opponent"}
    if kind in ("HasColor", "NotColor") and p.get("color") in _COLOR:
        c = {"color": _COLOR[p["color"]]}
        return c if kind == "HasColor" else {"not": c}
    if kind in ("HasSupertype", "NotSupertype") and isinstance(p.get("value"), str):
        s = {"supertype": p["value"].lower()}
        return s if kind == "HasSupertype" else {"not": s}
    if kind in ("PowerLE", "PowerGE", "ToughnessLE", "ToughnessGE") and _fixed(p.get("value")) is not None:
        stat = "power" if kind.startswith("Power") else "toughness"
        return {stat: {"lte" if kind.endswith("LE") else "gte": _fixed(p["value"])}}
    if kind == "PtComparison" and p.get("stat") in ("Power", "Toughness") and p.get("comparator") in _COMPARE:
        value = _fixed(p.get("value"))
        if value is not None and p.get("scope", "Current") == "Current":
            return {str(p["stat"]).lower(): {_COMPARE[p["comparator"]]: value}}
    if kind == "Cmc" and p.get("comparator") in _COMPARE and _fixed(p.get("value")) is not None:
        return {"mana_value": {_COMPARE[p["comparator"]]: _fixed(p["value"])}}
    if kind in ("Cmc", "PowerLE", "PowerGE", "ToughnessLE", "ToughnessGE", "PtComparison"):
        gaps.append(Gap(place, f"filter property {kind} compares with a number the board decides"))
        return {"id": []}
    if kind == "AnyOf" and isinstance(p.get("props"), list):
        parts = [_prop(q, f"{place}.props[{i}]", gaps) for i, q in enumerate(p["props"])]
        return {"any": [q for q in parts if q is not None]}
    gaps.append(Gap(place, f"filter property {kind} is not read by the adapter"))
    return {"id": []}


def _another(f: Json) -> bool:
    """Whether a filter says "another" (other than the source): every branch of an Or says it."""
    kind = _kind(f)
    if kind == "Typed":
        return any(_kind(p) == "Another" for p in f.get("properties") or ())
    if kind == "Or":
        return bool(f.get("filters")) and all(_another(c) for c in f["filters"])
    if kind == "And":
        return any(_another(c) for c in f.get("filters") or ())
    return False


def _names_target_player(f: Json) -> bool:
    """filter_references_target_player: a Typed filter controlled by "target player"."""
    kind = _kind(f)
    if kind == "Typed":
        return bool(f.get("controller") == "TargetPlayer")
    if kind in ("Or", "And"):
        return any(_names_target_player(c) for c in f.get("filters") or ())
    if kind == "Not":
        return _names_target_player(f.get("filter"))
    return False


def _slot_filters(effect: Mapping[str, Any], place: str, gaps: list[Gap]) -> Iterator[tuple[str, Json]]:
    """The filters of one effect that phase asks a target for, in its order (collect_target_slots)."""
    kind = _kind(effect)
    pairs = {"ExchangeControl": ("target_a", "target_b"), "MoveCounters": ("source", "target"),
             "Attach": ("attachment", "target")}  # fmt: skip
    if kind in pairs:
        for field in pairs[kind]:
            f = effect.get(field)
            if _kind(f) not in CONTEXT and _kind(f) != "LastCreated" and f is not None:
                yield f"{place}.{field}", f
        return
    if kind == "SetTapState":  # phase 0.103.0's tap / untap: one target (scope Single) or every match
        scope = _kind(effect.get("scope"))
        if scope == "Single":
            f = effect.get("target")
            if f is not None and _kind(f) not in CONTEXT:
                yield f"{place}.target", f
        elif scope not in (
            "All",
            "Source",
            "Anaphoric",
            "Demonstrative",
            "CostPaidObject",
            "EventSource",
            "AmassedArmy",
        ):
            gaps.append(Gap(f"{place}.scope", f"tap-state scope {scope} is not read by the adapter"))
        return
    if kind in NO_TARGET:
        f = effect.get("target")
        if (f is not None and _names_target_player(f)) or (_kind(f) == "Player" and kind == "ChangeZoneAll"):
            yield f"{place}.target", {"type": "Player"}
        return
    found = TARGET_FIELD.get(kind)
    if found is None:
        gaps.append(Gap(f"{place}.type", f"effect {kind}: whether it targets is not known to the adapter"))
        return
    field = found
    f = effect.get(field)
    if f is None or _kind(f) in CONTEXT:
        return
    if _names_target_player(f):
        yield f"{place}.{field}", {"type": "Player"}
    if kind == "Sacrifice":
        return
    if kind in ("ChangeZone", "PutAtLibraryPosition"):
        origin = effect.get("origin") if kind == "ChangeZone" else None
        if origin in _PRIVATE or (origin is None and _in_zone(f) in _PRIVATE):
            return
    if kind == "CopyTokenOf" and effect.get("source_filter") is not None:
        return
    yield f"{place}.{field}", f


def _requirements(ability: Mapping[str, Any], place: str, gaps: list[Gap], sid: list[int]) -> list[dict[str, Any]]:
    """Every requirement of an ability chain: its effect's, then its sub-abilities' (601.2c)."""
    out: list[dict[str, Any]] = []
    effect = ability.get("effect")
    if not isinstance(effect, Mapping):
        gaps.append(Gap(f"{place}.effect", "no effect"))
        return out
    slots = list(_slot_filters(effect, f"{place}.effect", gaps))
    multi = ability.get("multi_target")
    for n, (fplace, f) in enumerate(slots):
        sid[0] += 1
        req: dict[str, Any] = {"id": f"t{sid[0]}", "filter": filter_of(f, fplace, gaps)}
        if _another(f):
            req["other_than_source"] = True
        lo, hi = (0 if ability.get("optional_targeting") else 1), 1
        if isinstance(multi, Mapping) and n == len(slots) - 1:  # the effect's own filter takes the count
            lo_q = multi.get("min") or 0
            lo = lo_q if isinstance(lo_q, int) else _fixed(lo_q)  # type: ignore[assignment]
            if lo is None:
                gaps.append(Gap(f"{place}.multi_target.min", "a least number of targets the board decides"))
                lo = 0
            hi_q = multi.get("max")
            hi_v = _fixed(hi_q) if hi_q is not None else None
            if hi_q is not None and hi_v is None:
                gaps.append(Gap(f"{place}.multi_target.max", "a number of targets the board decides"))
                hi_v = lo
            hi = max(hi_v, lo) if hi_v is not None else None  # type: ignore[assignment]
        req["min"], req["max"] = lo, hi
        if ability.get("distribute") is not None and n == len(slots) - 1:
            amount = _fixed(effect.get("amount"))
            if amount is None:
                gaps.append(Gap(f"{place}.effect.amount", "an amount to divide that the board decides"))
            else:
                req["divide"] = amount
                req["min"] = max(req["min"], 1)
        out.append(req)
    sub = ability.get("sub_ability")
    if isinstance(sub, Mapping) and _kind(effect) not in _DEFERS_SUB:
        cond = sub.get("condition")
        if not (isinstance(cond, Mapping) and cond.get("type") in ("WhenYouDo", "QuantityCheck")):
            out.extend(_requirements(sub, f"{place}.sub_ability", gaps, sid))
    return out


def translate(ability: Mapping[str, Any], place: str = "ability") -> Translated:
    """An ability's requirements or modes, with every gap found (a shape this module does not
    expect is a gap too, never an exception)."""
    try:
        return _translate(ability, place)
    except (TypeError, KeyError, AttributeError, ValueError, IndexError) as exc:
        return Translated(
            [], None, [], [Gap(place, f"a shape the adapter does not read ({type(exc).__name__}: {exc})")]
        )


def _translate(ability: Mapping[str, Any], place: str) -> Translated:
    gaps: list[Gap] = []
    modal = ability.get("modal")
    if isinstance(modal, Mapping):
        modes: list[dict[str, Any]] = []
        texts = list(modal.get("mode_descriptions") or ())
        sid = [0]
        for i, m in enumerate(ability.get("mode_abilities") or ()):
            mode: dict[str, Any] = {"id": f"m{i + 1}"}
            if i < len(texts):
                mode["text"] = texts[i]
            reqs = _requirements(m, f"{place}.mode_abilities[{i}]", gaps, sid)
            if reqs:
                mode["targets"] = reqs
            modes.append(mode)
        lo, hi = int(modal.get("min_choices") or 0), int(modal.get("max_choices") or 0)
        if len(modes) != int(modal.get("mode_count") or len(modes)):
            gaps.append(Gap(f"{place}.mode_abilities", "fewer mode abilities than modes"))
        if modal.get("constraints"):
            gaps.append(Gap(f"{place}.modal.constraints", "constraints on the modes are not read by the adapter"))
        chooser = modal.get("chooser")
        if chooser is not None and _kind(chooser) != "Controller":
            gaps.append(Gap(f"{place}.modal.chooser", f"modes chosen by {_kind(chooser)}"))
        choice: dict[str, Any] = {"choose": list(range(lo, hi + 1))}
        if modal.get("allow_repeat_modes"):
            choice["repeat"] = True
        return Translated([], choice, modes, gaps)
    return Translated(_requirements(ability, place, gaps, [0]), None, [], gaps)
