"""A second literal reading of the rules, written from docs/rules.md and docs/formats.md alone.

It reads a scenario *document* (a dict), not the compiled facts: what a filter matches, who controls
what, which rule bars a target and the blocks of 603.3b are decided here again from the pages'
words, sharing no code with ``triggerstack`` (it imports nothing of it). One pass of 603.3b, no
reactions and no ``event`` player. It answers the questions a judge asks: the legal outcomes (by
trying every sequence of placements), every reason a thing is barred from a requirement, and
whether an ability must, may or cannot be removed. The verbs are held to it
(``tests/property/test_literal.py``): the agreement of two readings written apart is the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, product
from typing import Any

__all__ = ["Literal", "Thing"]

ALL_KINDS = frozenset({"permanent", "card", "spell", "ability", "emblem", "player"})
ANY_TARGET_TYPES = {"creature", "planeswalker", "battle"}


def _list(v: Any) -> list[Any]:
    return list(v) if isinstance(v, list) else [v]


@dataclass
class Thing:
    """A player, an object, or a waiting ability, with what a filter or a rule asks of it."""

    id: str
    kind: str
    zone: str | None
    controller: str | None
    owner: str | None
    types: set[str] = field(default_factory=set)
    subtypes: set[str] = field(default_factory=set)
    supertypes: set[str] = field(default_factory=set)
    colors: set[str] = field(default_factory=set)
    tags: set[str] = field(default_factory=set)
    numbers: dict[str, int] = field(default_factory=dict)
    counters: dict[str, int] = field(default_factory=dict)
    ability_kind: str | None = None
    doc: dict[str, Any] = field(default_factory=dict)
    left: bool = False

    def functioning(self) -> bool:
        """Its own hexproof, shroud, protection, hexproof from function: the keywords protect a
        permanent or a player (702.11b, 702.16b, 702.18a), and a card's do not function off the
        battlefield (113.6) — nor a creature spell's on the stack."""
        return self.kind in ("player", "permanent")


class Literal:
    """One scenario read literally."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.rules = doc.get("rules", "seed")
        self.players: list[str] = []
        self.things: dict[str, Thing] = {}
        for p in doc.get("players", []):
            pd = {"id": p} if isinstance(p, str) else p
            self.players.append(pd["id"])
            self.things[pd["id"]] = Thing(
                pd["id"], "player", None, pd["id"], pd["id"], doc=pd, left=bool(pd.get("left_game"))
            )
        self.team: dict[str, int] = {}
        for i, team in enumerate(doc.get("teams") or [[p] for p in self.players]):
            for p in team:
                self.team[p] = i
        for o in doc.get("objects", []):
            kind = o.get("kind", "permanent")
            zone = {"permanent": "battlefield", "spell": "stack", "ability": "stack", "emblem": "command"}.get(
                kind, o.get("zone")
            )
            owner = o.get("owner", o.get("controller"))
            controller = o.get("controller", owner)
            if kind == "card" and not (zone == "command" and "controller" in o):
                controller = owner  # 108.4a: a card's controller is its owner
            nums = {k: o[k] for k in ("power", "toughness", "mana_value") if k in o}
            self.things[o["id"]] = Thing(
                o["id"], kind, zone, controller, owner,
                set(o.get("types", [])), {s.lower() for s in o.get("subtypes", [])}, set(o.get("supertypes", [])),
                set(o.get("colors", [])), set(o.get("tags", [])), nums, dict(o.get("counters", {})),
                o.get("ability_kind"), o,
                left=owner in self.players and self.things[owner].left,  # 800.4a: it left with its owner
            )  # fmt: skip
        self.triggers: list[dict[str, Any]] = list(doc.get("triggers", []))
        self.by_id = {t["id"]: t for t in self.triggers}
        self.controller: dict[str, str] = {t["id"]: self._controller(t) for t in self.triggers}
        for t in self.triggers:  # a waiting ability as a target (405.4)
            c = self.controller[t["id"]]
            self.things[t["id"]] = Thing(t["id"], "ability", "stack", c, c, ability_kind="triggered")
        self.order = [*self.players, *(o["id"] for o in doc.get("objects", [])), *(t["id"] for t in self.triggers)]
        self.blocks = self._blocks()
        self.block_of = {a: i for i, b in enumerate(self.blocks) for a in b}

    # 603.3a
    def _controller(self, t: dict[str, Any]) -> str:
        if "delayed" in t:
            return str(t["delayed"]["controller"])
        if "source" not in t:
            return str(t["controller"])
        if "source_controller" in t:
            return str(t["source_controller"])
        s = self.things[t["source"]]
        return str(s.controller if s.controller is not None else s.owner)

    def opponents(self, a: str, b: str) -> bool:
        return a != b and self.team[a] != self.team[b]

    # 603.3b
    def _blocks(self) -> list[list[str]]:
        out: list[list[str]] = []
        alive = [t["id"] for t in self.triggers if not self.things[self.controller[t["id"]]].left]
        if self.rules == "2hg":
            for team in self.doc["teams"]:
                out.append([a for a in alive if self.controller[a] in team])
        elif self.rules == "cr-1p":
            for p in self.players:
                out.append([a for a in alive if self.controller[a] == p])
        else:
            for part in ("event", "ability-triggered"):
                for p in self.players:
                    out.append(
                        [
                            a
                            for a in alive
                            if self.controller[a] == p and self.by_id[a].get("condition", "event") == part
                        ]
                    )
        return [b for b in out if b]

    # filters
    def matches(
        self, f: Any, th: Thing, you: str, linked: dict[str, set[str]] | None, dom: frozenset[str] | None = None
    ) -> bool:
        if f == "any-target":  # 115.4: a fixed domain
            return th.kind == "player" or (th.kind == "permanent" and bool(th.types & ANY_TARGET_TYPES))
        assert isinstance(f, dict), f
        if "kind" in f:
            own: frozenset[str] | None = frozenset(_list(f["kind"]))
        elif dom is not None:
            own = dom
        elif "zone" in f:
            own = ALL_KINDS
        elif f and set(f) <= {"any", "all"}:
            own = None
        else:
            own = frozenset({"permanent"})
        if own is not None and th.kind not in own:
            return False
        return all(self._key(k, v, th, you, linked, own) for k, v in f.items())

    def _key(
        self, k: str, v: Any, th: Thing, you: str, linked: dict[str, set[str]] | None, own: frozenset[str] | None
    ) -> bool:
        if k == "kind":
            return th.kind in _list(v)
        if k == "type":
            return bool(th.types & set(_list(v)))
        if k == "subtype":
            return bool(th.subtypes & {s.lower() for s in _list(v)})
        if k == "supertype":
            return bool(th.supertypes & set(_list(v)))
        if k == "color":
            return th.kind != "player" and bool(th.colors & set(_list(v)))
        if k == "colorless":
            return th.kind != "player" and (not th.colors) == bool(v)
        if k == "zone":
            return th.zone is not None and th.zone in _list(v)
        if k == "tag":
            return set(_list(v)) <= th.tags
        if k == "id":
            return th.id in _list(v)
        if k in ("power", "toughness", "mana_value"):
            if k not in th.numbers:
                return False
            n = th.numbers[k]
            return all({"lte": n <= x, "gte": n >= x, "eq": n == x}[op] for op, x in v.items())
        if k == "counter":
            return any(th.counters.get(c, 0) > 0 for c in _list(v))
        if k == "ability_kind":
            return th.ability_kind in _list(v)
        if k in ("controller", "owner"):
            who = th.controller if k == "controller" else th.owner
            if isinstance(v, dict):
                assert linked is not None, "a target_of filter needs the other targets"
                given: set[str] = set()
                for x in linked.get(v["target_of"], set()):
                    o = self.things[x]
                    if o.kind == "player":
                        given.add(o.id)
                    else:
                        g = o.controller if k == "controller" else o.owner
                        if g is not None:
                            given.add(g)
                return who in given
            if v == "any":
                return who is not None
            if v == "you":
                return who == you
            if v == "opponent":
                return who is not None and self.opponents(who, you)
            return bool(who == v)
        if k == "not":
            return not self.matches(v, th, you, linked, own)
        if k == "any":
            return any(self.matches(c, th, you, linked, own) for c in v)
        if k == "all":
            return all(self.matches(c, th, you, linked, own) for c in v)
        raise AssertionError(f"unread key {k}")

    def quality(self, q: Any, source: Thing | None, whose: str | None) -> bool:
        """A protection / hexproof-from / can't-be-targeted-by quality against a source (702.16a):
        every kind; relative words from the protected thing's controller; a source-less ability
        meets only ``{}``."""
        if source is None:
            return bool(q == {})
        return self.matches(q, source, whose or "", None, ALL_KINDS)

    # targeting
    def source(self, ability: str) -> Thing | None:
        t = self.by_id[ability]
        return self.things[t["source"]] if "source" in t else None

    def bars(self, ability: str, req: dict[str, Any], th: Thing, linked: dict[str, set[str]] | None) -> set[str]:
        """Every code that bars ``th`` from ``req`` of ``ability``, what is below aside."""
        return {code for code, _rule in self.bar_rules(ability, req, th, linked)}

    def bar_rules(
        self, ability: str, req: dict[str, Any], th: Thing, linked: dict[str, set[str]] | None
    ) -> set[tuple[str, str]]:
        """Every bar of ``th`` from ``req`` of ``ability`` as its code and the rule it is (one code is
        several rules: a permanent's hexproof 702.11b, a player's 702.11c, hexproof from a quality
        702.11d; protection 702.16b, from everything 702.16j; a player gone 800.4a, an effect's "can't
        be the target" 601.2c), what is below aside."""
        you = self.controller[ability]
        src = self.source(ability)
        out: set[tuple[str, str]] = set()
        if th.id == ability:
            out.add(("target-self", "115.5"))
        if linked is None and "target_of" in repr(req.get("filter")):
            pass  # judged with the other targets
        elif not self.matches(req.get("filter", {}), th, you, linked):
            out.add(("target-filter", "601.2c"))
        if req.get("other_than_source") and src is not None and th.id == src.id:
            out.add(("target-source", "115.3"))
        if th.left:
            out.add(("target-restricted", "800.4a"))
        whose = th.controller
        if th.functioning():
            d = th.doc
            if d.get("hexproof") and whose is not None and self.opponents(whose, you):
                out.add(("target-hexproof", "702.11c" if th.kind == "player" else "702.11b"))
            if d.get("shroud"):
                out.add(("target-shroud", "702.18a"))
            protection = d.get("protection", [])
            if any(self.quality(q, src, whose) for q in protection):
                out.add(("target-protection", "702.16j" if any(q == {} for q in protection) else "702.16b"))
            if (
                whose is not None
                and self.opponents(whose, you)
                and any(self.quality(q, src, whose) for q in d.get("hexproof_from", []))
            ):
                out.add(("target-hexproof", "702.11d"))
        for c in th.doc.get("cant_be_targeted_by", []):
            who = c.get("controller", "any")
            ok_who = (
                who == "any"
                or (who == "you" and you == whose)
                or (who == "opponent" and whose is not None and self.opponents(whose, you))
            )
            if ok_who and self.quality(c.get("source", {}), src, whose):
                out.add(("target-restricted", "601.2c"))
        return out

    def must(self, ability: str) -> list[str]:
        """The objects of the "must target" effects that apply to ``ability`` (one per effect)."""
        out = []
        src = self.source(ability)
        for m in self.doc.get("must_target", []):
            ap = m["applies_to"]
            if isinstance(ap, str):
                ap = [ap]
            if isinstance(ap, list):
                if ability in ap:
                    out.append(m["object"])
            else:
                o = self.things[m["object"]]
                whose = o.controller
                if self.quality(ap, src, whose):
                    out.append(m["object"])
        return out

    # choices
    def modes(self, ability: str) -> list[tuple[str | None, list[dict[str, Any]], bool]]:
        t = self.by_id[ability]
        if "modes" in t:
            return [(m["id"], m.get("targets", []), m.get("available", True)) for m in t["modes"]]
        return [(None, t.get("targets", []), True)]

    def instances(self, ability: str, reqs: list[dict[str, Any]], below: set[str]) -> Iterator[tuple[Any, ...]]:
        """Every legal choice of one mode's targets and divisions, with ``below`` on the stack."""
        pools = []
        for r in reqs:
            pool = [
                x for x in self.order
                if not self.bars(ability, r, self.things[x], None) and (x not in self.by_id or x in below)
            ]  # fmt: skip
            lo = r.get("min", 1)
            hi = r.get("max", 1) if "max" in r else 1
            top = len(pool) if hi is None else min(hi, len(pool))
            pools.append([s for n in range(lo, top + 1) for s in combinations(pool, n)])
        for combo in product(*pools):
            chosen = {r["id"]: set(c) for r, c in zip(reqs, combo, strict=True)}
            if any(chosen[r["id"]] & chosen[d] for r in reqs for d in r.get("different_from", [])):
                continue
            if any(
                "target-filter" in self.bars(ability, r, self.things[x], chosen) for r in reqs for x in chosen[r["id"]]
            ):
                continue
            divs = []
            for r, c in zip(reqs, combo, strict=True):
                if r.get("divide") is not None and c:
                    amount = r["divide"]
                    divs.append(
                        [
                            tuple(zip(c, p, strict=True))
                            for p in product(range(1, amount + 1), repeat=len(c))
                            if sum(p) == amount
                        ]
                    )
                else:
                    divs.append([()])
            for d in product(*divs):
                yield tuple((r["id"], tuple(c), dd) for r, c, dd in zip(reqs, combo, d, strict=True))

    def choices(self, ability: str, below: set[str]) -> set[tuple[Any, ...]]:
        t = self.by_id[ability]
        if t.get("illegal"):
            return set()
        modes = self.modes(ability)
        out: set[tuple[Any, ...]]
        if "modes" not in t:
            out = {((None, i),) for i in self.instances(ability, modes[0][1], below)}
        else:
            modal = t.get("modal", {})
            out = set()
            avail = [m for m in modes if m[2]]
            pick = combinations_with_replacement if modal.get("repeat") else combinations
            for n in modal.get("choose", [1]):
                if n == 0:
                    continue
                for ms in pick(avail, n):
                    for insts in product(*(list(self.instances(ability, m[1], below)) for m in ms)):
                        if modal.get("distinct_targets"):
                            seen = [x for inst in insts for x in {y for _, ts, _ in inst for y in ts}]
                            if len(seen) != len(set(seen)):
                                continue
                        out.add(tuple(sorted(((m[0], i) for m, i in zip(ms, insts, strict=True)), key=repr)))
        must = self.must(ability)
        if must and out:

            def obeyed(c: tuple[Any, ...]) -> int:
                things = {x for _, inst in c for _, ts, _ in inst for x in ts}
                return sum(1 for m in must if m in things)

            def shape(c: tuple[Any, ...]) -> tuple[Any, ...]:
                return tuple(sorted(str(m) for m, _ in c))

            most: dict[tuple[Any, ...], int] = {}
            for c in out:
                most[shape(c)] = max(most.get(shape(c), 0), obeyed(c))
            out = {c for c in out if obeyed(c) == most[shape(c)]}
        return out

    def may_choose_none(self, ability: str) -> bool:
        t = self.by_id[ability]
        return "modes" in t and 0 in t.get("modal", {}).get("choose", [1])

    def outcomes(self) -> set[tuple[tuple[Any, ...], frozenset[str]]]:
        """Every outcome of the pass: (stack of (ability, choice), removed), by every sequence."""
        never = frozenset(t["id"] for t in self.triggers if self.things[self.controller[t["id"]]].left)
        out: set[tuple[tuple[Any, ...], frozenset[str]]] = set()
        memo: dict[tuple[str, frozenset[str]], set[tuple[Any, ...]]] = {}

        def legal(a: str, below: frozenset[str]) -> set[tuple[Any, ...]]:
            key = (a, below & frozenset(self.by_id))
            if key not in memo:
                memo[key] = self.choices(a, set(below))
            return memo[key]

        def go(bi: int, left: frozenset[str], stack: tuple[Any, ...], removed: frozenset[str]) -> None:
            if not left:
                if bi + 1 >= len(self.blocks):
                    out.add((stack, removed | never))
                    return
                go(bi + 1, frozenset(self.blocks[bi + 1]), stack, removed)
                return
            below = frozenset(a for a, _ in stack)
            for a in sorted(left):
                cs = legal(a, below)
                for c in cs:
                    go(bi, left - {a}, (*stack, (a, c)), removed)
                if not cs or self.may_choose_none(a):
                    go(bi, left - {a}, stack, removed | {a})

        if not self.blocks:
            out.add(((), never))
        else:
            go(0, frozenset(self.blocks[0]), (), frozenset())
        return out

    def entry(self, e: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
        """A stack entry of the outcome format, as :meth:`outcomes` writes it."""
        a = e["ability"]
        modes = {m: reqs for m, reqs, _ in self.modes(a)}
        insts = []
        for mc in e.get("modes", [{**e, "mode": None}]):
            ts, dv = mc.get("targets", {}), mc.get("divide", {})
            rank = {x: i for i, x in enumerate(self.order)}
            inst = []
            for r in modes[mc["mode"]]:
                chosen = tuple(sorted(ts.get(r["id"], []), key=rank.__getitem__))
                parts = tuple((x, dv[r["id"]][x]) for x in chosen) if r.get("divide") is not None and chosen else ()
                inst.append((r["id"], chosen, parts))
            insts.append((mc["mode"], tuple(inst)))
        return a, tuple(sorted(insts, key=repr))

    def outcome(self, o: dict[str, Any]) -> tuple[tuple[Any, ...], frozenset[str]]:
        return tuple(self.entry(e) for e in o["stack"]), frozenset(o.get("removed", []))

    # check
    def violations(self, o: dict[str, Any]) -> set[tuple[str | None, str]]:
        """Every (ability, code) a proposal of one pass breaks, read from the codes' table."""
        out: set[tuple[str | None, str]] = set()
        never = {t["id"] for t in self.triggers if self.things[self.controller[t["id"]]].left or t.get("illegal")}
        seen: dict[str, int] = {}
        for e in o.get("stack", []):
            seen[e["ability"]] = seen.get(e["ability"], 0) + 1
        for a in o.get("removed", []):
            seen[a] = seen.get(a, 0) + 1
        for a, n in seen.items():
            if a not in self.by_id:
                out.add((a, "unknown-ability"))
            elif n > 1:
                out.add((a, "duplicate-ability"))
        for t in self.triggers:
            if t["id"] not in seen and not self.things[self.controller[t["id"]]].left:
                out.add((t["id"], "missing-ability"))
        below: set[str] = set()
        last = -1
        done: set[str] = set()
        for e in o.get("stack", []):
            a = e["ability"]
            if a not in self.by_id or a in done:
                below.add(a)
                continue
            done.add(a)
            if a in never:
                out.add((a, "placed-but-illegal"))
                continue  # never put on the stack (nor below anything): nothing else of it is judged
            b = self.block_of.get(a)
            if b is not None:
                if b < last:
                    out.add((a, "order"))
                last = max(last, b)
            broken = self._entry(a, e, below)
            out |= {(a, c) for c in broken}
            if broken and not self.choices(a, below):  # 603.3d: with no legal choice it is removed, never put
                out.add((a, "placed-but-illegal"))
            below.add(a)
        start: dict[int, set[str]] = {}
        placed = [e["ability"] for e in o.get("stack", [])]
        for i in range(len(self.blocks)):
            start[i] = {x for x in placed if x in self.block_of and self.block_of[x] < i}
        for a in o.get("removed", []):
            lawful = a not in self.by_id or a in never or a in placed or self.may_choose_none(a)
            if not lawful and self.choices(a, start[self.block_of[a]]):
                out.add((a, "removed-but-legal"))
        return out

    def _entry(self, a: str, e: dict[str, Any], below: set[str]) -> set[str]:
        out: set[str] = set()
        t = self.by_id[a]
        modes = {m: (reqs, av) for m, reqs, av in self.modes(a)}
        modal = "modes" in t
        if modal:
            if e.get("targets") or e.get("divide"):
                out.add("target-unknown")
            given = e.get("modes", [])
            spec = t.get("modal", {})
            if len(given) not in spec.get("choose", [1]) or not given:
                out.add("mode-count")
            names = [mc["mode"] for mc in given]
            if any(n not in modes for n in names):
                out.add("mode-unknown")
            if not spec.get("repeat") and len(set(names)) < len(names):
                out.add("mode-repeat")
            insts = [mc for mc in given if mc["mode"] in modes]
        else:
            if "modes" in e:
                out.add("mode-unknown")
            insts = [{**e, "mode": None}]
        known = set(self.order)
        things_per_inst = []
        for mc in insts:
            m = mc["mode"]
            reqs, av = modes[m]
            if not av:
                out.add("mode-unavailable")
            if av and modal and not any(True for _ in self.instances(a, reqs, below)):
                out.add("mode-illegal")
            ts: dict[str, list[str]] = mc.get("targets", {})
            ids = {r["id"] for r in reqs}
            if any(k not in ids for k in ts) or any(k not in ids for k in mc.get("divide", {})):
                out.add("target-unknown")
            chosen = {r["id"]: {x for x in ts.get(r["id"], []) if x in known} for r in reqs}
            mine: set[str] = set()
            for r in reqs:
                lst = ts.get(r["id"], [])
                mine |= set(lst)
                lo, hi = r.get("min", 1), (r.get("max", 1) if "max" in r else 1)
                if len(lst) < lo or (hi is not None and len(lst) > hi):
                    out.add("target-count")
                named = [x for x in lst if x in known]  # a name the scenario lacks is told as unknown
                if len(set(named)) < len(named):
                    out.add("target-duplicate")
                for x in lst:
                    if x not in known:
                        out.add("target-unknown")
                        continue
                    out |= self.bars(a, r, self.things[x], chosen)
                    if x in self.by_id and x != a and x not in below:
                        out.add("target-not-yet-on-stack")
                for d in r.get("different_from", []):
                    if chosen[r["id"]] & chosen.get(d, set()):
                        out.add("target-not-distinct")
                dv = mc.get("divide", {}).get(r["id"])
                if r.get("divide") is not None and (named or dv):  # divided among the things named
                    if (
                        not dv
                        or set(dv) != set(named)
                        or sum(dv.values()) != r["divide"]
                        or min(dv.values()) < 1
                        or set(dv) - known
                    ):
                        out.add("division")
                elif dv:
                    out.add("division")
            things_per_inst.append(mine)
        if modal and t.get("modal", {}).get("distinct_targets"):
            flat = [x for s in things_per_inst for x in s]
            if len(flat) != len(set(flat)):
                out.add("mode-distinct-targets")
        must = self.must(a)
        if must and not out:
            mine_all = {x for s in things_per_inst for x in s}
            shape = tuple(sorted(str(mc["mode"]) for mc in insts))
            best = max(
                (sum(1 for m in must if m in {x for _, inst in c for _, ts2, _ in inst for x in ts2})
                 for c in self._unpruned(a, below) if tuple(sorted(str(m) for m, _ in c)) == shape),
                default=0,
            )  # fmt: skip
            if sum(1 for m in must if m in mine_all) < best:
                out.add("target-must")
        return out

    def _unpruned(self, a: str, below: set[str]) -> set[tuple[Any, ...]]:
        saved = self.doc.get("must_target")
        self.doc["must_target"] = []
        try:
            return self.choices(a, below)
        finally:
            if saved is None:
                self.doc.pop("must_target")
            else:
                self.doc["must_target"] = saved
