"""603.3b's loop: abilities that trigger while a pass is put on the stack (ward and other
"becomes the target" abilities) go on the stack in further passes, above, until none trigger.

Private unit: solver/_core/chain's AFTER_A_LOOP_COMPILED, the passes a loop's count goes through."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

import pytest
from triggerstack.model import EndlessLoop, Limits, Outcome, PastCompiled, Rule, Scenario, compile_facts, outcome_json
from triggerstack.solver import check, count, explain, outcomes
from triggerstack.solver._core.chain import AFTER_A_LOOP_COMPILED

from .conftest import main
from .property.test_compiled import compiles

CREATURES = [
    {"id": "src", "controller": "A", "types": ["creature"], "colors": ["red"]},
    {"id": "troll", "controller": "B", "types": ["creature"]},
    {"id": "bear", "controller": "B", "types": ["creature"]},
    {"id": "mine", "controller": "A", "types": ["creature"]},
]
DIVIDED = {
    "id": "T",
    "source": "src",
    "text": "2 damage divided among one or two target creatures",
    "targets": [{"id": "c", "min": 1, "max": 2, "divide": 2, "filter": {"type": "creature"}}],
}


def ward(obj: str, rid: str, trigger: dict[str, Any] | None = None, by: str = "opponent") -> dict[str, Any]:
    return {"id": rid, "object": obj, "by": by, "trigger": trigger or {"source": obj, "text": "Ward {2}"}}


def scenario(reactions: list[dict[str, Any]], triggers: list[dict[str, Any]] | None = None) -> Scenario:
    return Scenario.model_validate(
        {"players": ["A", "B"], "objects": CREATURES, "triggers": triggers or [DIVIDED], "reactions": reactions}
    )


def every_engine(s: Scenario) -> int:
    n = count(s)
    listed = [outcome_json(o) for o in outcomes(s)]
    assert len(listed) == len(set(listed)) == n
    for engine in ("cpsat", "constraint"):
        assert count(s, engine=engine) == n
        assert sorted(outcome_json(o) for o in outcomes(s, engine=engine)) == sorted(listed)
    facts = compile_facts(s)
    for line in listed:
        verdict = check(facts, Outcome.model_validate_json(line))
        assert verdict.legal, verdict.violations
    return n


def test_ward_whose_firing_depends_on_the_divided_targets() -> None:
    """Count = sum over first-pass choices of the next pass's outcomes. The ward trigger here makes
    a choice (target player loses 1 life): the 4 first-pass outcomes that target the troll lead
    to 2 outcomes each, the 6 others to 1."""
    drain = {
        "source": "troll",
        "text": "target player loses 1 life",
        "targets": [{"id": "p", "filter": {"kind": "player"}}],
    }
    s = scenario([ward("troll", "WARD", drain)])
    assert every_engine(s) == 6 * 1 + 4 * 2


def test_ward_on_two_targeted_permanents() -> None:
    """Targeting both warded creatures fires two abilities in pass 2, which B orders (2 ways);
    A's own ward never fires for A's ability."""
    s = scenario([ward("troll", "WT"), ward("bear", "WB"), ward("mine", "WM")])
    assert every_engine(s) == 4 + 5 + 2
    two = [o for o in outcomes(s) if o.passes == (1, 2)]
    assert len(two) == 2 and {tuple(e.ability for e in o.stack[1:]) for o in two} == {
        ("WT@T", "WB@T"),
        ("WB@T", "WT@T"),
    }


def test_explain_says_when_a_cap_stops_it_telling_the_later_passes() -> None:
    """A door never guesses: past ``--max-compiled`` explain still explains the first pass, and says
    why the later ones are not told, naming the flag — it left out the count, the reactions and
    the abilities they fire without a word (a board of 14 abilities whose count is 15,422,559)."""
    s = relay(4)
    whole = explain(s)
    assert whole["count"] == 5 and whole["reactions"] and "passes_not_told" not in whole
    cut = explain(s, limits=Limits(compiled=2))
    assert "reactions" not in cut and "fired" not in cut and "count" not in cut
    assert "--max-compiled" in cut["passes_not_told"], cut["passes_not_told"]
    assert f"later passes not told: {cut['passes_not_told']}" in cut.text().splitlines()


def test_a_reaction_fires_a_reaction() -> None:
    """B's ward trigger targets a creature of A's; targeting A's source fires A's reaction in a
    third pass."""
    strike = {
        "source": "troll",
        "text": "deal 1 damage to target creature an opponent controls",
        "targets": [{"id": "c", "filter": {"type": "creature", "controller": "opponent"}}],
    }
    s = scenario([ward("troll", "WARD", strike), ward("src", "BACK")])
    n = every_engine(s)
    three = [o for o in outcomes(s) if o.passes is not None and len(o.passes) == 3]
    assert three and all(o.stack[-1].ability == "BACK@WARD@T" for o in three)
    # 6 outcomes without the troll; 4 with it, each leading to WARD@T targeting src (→ BACK) or mine
    assert n == 6 + 4 * 2


def relay(n: int, stop: bool = True) -> Scenario:
    """A chain of n reactions: T targets o0; each o_i's reaction, when it becomes a target, fires an
    ability of o_i that targets o_{i+1} (up to one target when ``stop``: its controller may end the
    chain there). Finite: n + 1 passes at most, no pass repeating another (each waits for another
    reaction's ability)."""
    objects = [{"id": f"o{i}", "controller": "AB"[i % 2], "types": ["creature"]} for i in range(n + 1)]
    reactions = [
        {
            "id": f"R{i}",
            "object": f"o{i}",
            "by": "any",
            "trigger": {
                "source": f"o{i}",
                "text": f"Whenever this becomes a target, it deals 1 damage to up to one target o{i + 1}.",
                "targets": [{"id": "t", "min": 0 if stop else 1, "filter": {"id": f"o{i + 1}"}}],
            },
        }
        for i in range(n)
    ]
    start = {"id": "T", "controller": "A", "text": "Target o0", "targets": [{"id": "t", "filter": {"id": "o0"}}]}
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": [start], "reactions": reactions})


def test_long_finite_chains_are_counted(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """Issue 20 item 5: a finite chain of 11 reactions (12 passes) is counted under the default cap,
    every engine agreeing: it may stop after each of passes 2..11 (10 outcomes), or run to pass 12,
    whose ability targets o11 or nothing (2)."""
    s = relay(11)
    assert every_engine(s) == 10 + 2
    longest = [o for o in outcomes(s) if o.passes is not None and len(o.passes) == 12]
    assert len(longest) == 2 and longest[0].stack[-1].ability == "@".join(f"R{i}" for i in reversed(range(11))) + "@T"
    assert count(relay(11, stop=False)) == 1  # every ability must target the next object
    path = tmp_path / "relay.json"
    path.write_text(s.model_dump_json(by_alias=True))
    assert main(["count", str(path)]) == 0
    assert capsys.readouterr().out == "12\n"
    assert main(["count", str(path), "--max-passes", "4"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "still trigger after 4 passes of 603.3b and no pass repeats an earlier one" in err
    assert "still triggering: R2@…@T targets o3, firing R3" in err  # what fires pass 5, and on what


def test_what_one_call_compiles_across_passes_is_capped(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """Issue 52: each distinct later pass a call compiles is kept, with its engine, as long as the
    scenario is; --max-compiled bounds how many one call compiles, on every engine and verb, with
    the flag named — the relay's 11 later passes under a cap of 4 — and a cap that holds them all
    answers as the default does."""
    s = relay(11)
    for engine in ("auto", "cpsat", "constraint"):
        with pytest.raises(PastCompiled, match=r"more than the limit of 4 distinct passes .*--max-compiled"):
            count(s, engine=engine, limits=Limits(compiled=4))
        assert count(s, engine=engine, limits=Limits(compiled=11)) == 12
    path = tmp_path / "relay.json"
    path.write_text(s.model_dump_json(by_alias=True))
    assert main(["enumerate", str(path), "--max-compiled", "4"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "compiles more than the limit of 4 distinct passes in one call" in err
    assert "(raise it with --max-compiled)" in err and "Traceback" not in err


def ring(n: int, extra: int) -> Scenario:
    """n creatures whose reactions fire each other round a ring (each "up to one" target: a choice
    ends it), T targeting the first, and ``extra`` abilities that may target any creature: an
    optional loop whose stack grows, so each pass after the loop is met is a new scenario."""
    objects = [{"id": f"o{i}", "controller": "AB"[i % 2], "types": ["creature"]} for i in range(n)]
    reactions = [
        ward(f"o{i}", f"R{i}", {"source": f"o{i}", "text": f"R{i}", "targets": [{"id": "t", "min": 0, "filter": {"id": f"o{(i + 1) % n}"}}]}, by="any")
        for i in range(n)
    ]
    triggers = [{"id": "T", "controller": "A", "text": "T", "targets": [{"id": "t", "filter": {"id": "o0"}}]}]
    triggers += [
        {"id": f"X{k}", "controller": "B", "text": f"X{k}", "targets": [{"id": "t", "min": 0, "filter": {"type": "creature"}}]}
        for k in range(extra)
    ]
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": triggers, "reactions": reactions})


def test_a_loop_met_before_the_cap_is_named_with_the_flag_that_stopped_its_count() -> None:
    """Issue 52: a loop found before --max-compiled is still the loop's error (603.3b), its count of
    the outcomes that avoid it "at least" what was counted, naming the flag that lets it go further
    — not --time-limit, which did not stop it. (Without the cap, ring(3, 2) followed 4,903 passes to
    550 MB in 13 CPU s before the time limit stopped it.)"""
    with pytest.raises(EndlessLoop, match=r"an optional loop") as complete:
        count(ring(2, 1))
    assert complete.value.avoiding is not None and "count stopped" not in complete.value.message
    for s, cap in ((ring(2, 1), 10), (ring(3, 2), 1_000)):
        with pytest.raises(EndlessLoop, match=r"At least \d+ outcomes") as stopped:
            count(s, limits=Limits(compiled=cap))
        assert stopped.value.avoiding is None
        assert stopped.value.message.endswith("(the count stopped before it was complete: raise --max-compiled).")


def test_once_a_loop_is_met_its_count_goes_through_a_budget_of_passes_and_says_it_is_at_least() -> None:
    """Issue 52: once a loop is met, the outcomes that avoid it are counted through 64 more distinct
    passes at most (solver/_core/chain.py, ``AFTER_A_LOOP_COMPILED``; docs/rules.md), not through
    ``--max-compiled`` (1,000): ring(3, 2) compiled 1,000 passes (7 s of CPU) before its loop was
    named. Every number the error gives of a count that stopped is a lower bound: "at least" the
    outcomes and the other choices entering a loop (it said "17 other choices" as if all were
    counted, and 7 with a lower cap)."""
    with compiles() as made, pytest.raises(EndlessLoop) as stopped:
        count(ring(3, 2))
    assert made[0] <= AFTER_A_LOOP_COMPILED + 10, made[0]  # the loop is met within the first few passes
    said = stopped.value.message
    assert re.search(r"At least \d+ outcomes end", said) and stopped.value.avoiding is None, said
    assert re.search(r"and at least \d+ other choices of earlier passes enter a loop", said), said
    assert said.endswith("(the count stopped before it was complete: raise --max-compiled).")


ECHO = {
    "source": "troll",
    "text": "target creature: this triggers itself",
    "targets": [{"id": "c", "filter": {"id": "troll"}}],
}


def test_a_mandatory_loop_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """Issue 20 item 5, CR 104.4b: 'If a game somehow enters a loop of mandatory actions, repeating
    a sequence of events with no way to stop, the game is a draw.' ECHO must target the troll and
    so triggers itself again: pass 3 repeats pass 2 up to names, whatever the pass cap."""
    s = scenario([ward("troll", "ECHO", ECHO, by="any")])
    for limits in (Limits(), Limits(passes=3), Limits(passes=10_000)):
        with pytest.raises(EndlessLoop, match=r"a mandatory loop: pass 3 \(ECHO@ECHO@T\) repeats pass 2 \(ECHO@T\)") as info:
            count(s, limits=limits)
        assert info.value.mandatory and info.value.rule == Rule.R104_4B
    with pytest.raises(EndlessLoop, match="mandatory"):
        list(outcomes(s))
    path = tmp_path / "echo.json"
    path.write_text(s.model_dump_json(by_alias=True))
    assert main(["count", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "the game is a draw" in err and "(rule 104.4b)" in err
    # check still judges a proposal: the loop's next ability is missing, never a refusal
    looping = Outcome.model_validate(
        {"stack": [{"ability": "T", "targets": {"c": ["troll"]}, "divide": {"c": {"troll": 2}}}, {"ability": "ECHO@T", "targets": {"c": ["troll"]}}]}
    )
    verdict = check(s, looping)
    assert not verdict.legal and {v.code.value for v in verdict.violations} == {"missing-ability"}
    # choices that keep away from the troll are outcomes; the loop is reached by the others
    away = Outcome.model_validate({"stack": [{"ability": "T", "targets": {"c": ["bear"]}, "divide": {"c": {"bear": 2}}}]})
    assert check(s, away).legal


def test_an_optional_loop_is_named() -> None:
    """An ability that may target the troll (or a player instead) triggers itself again only if its
    controller wants: pass 3 repeats pass 2 and a choice ends it, so the outcomes are unboundedly
    many (603.3b's loop goes on as long as the players choose)."""
    maybe = {**ECHO, "targets": [{"id": "c", "filter": {"any": [{"id": "troll"}, {"kind": "player"}]}}]}
    s = scenario([ward("troll", "ECHO", maybe, by="any")])
    with pytest.raises(EndlessLoop, match=r"an optional loop: pass 3 .* unboundedly many") as info:
        count(s)
    assert not info.value.mandatory and info.value.rule == Rule.R603_3B
    # a proposal that stops after any number of rounds is lawful
    rounds = [{"ability": "T", "targets": {"c": ["troll"]}, "divide": {"c": {"troll": 2}}}]
    for k in range(1, 12):
        fired = "@".join(["ECHO"] * k) + "@T"
        last = {"ability": fired, "targets": {"c": ["A"]}}
        assert check(s, Outcome.model_validate({"stack": [*rounds, last]})).legal, k
        rounds.append({"ability": fired, "targets": {"c": ["troll"]}})


def test_a_mutual_loop_through_two_objects() -> None:
    """Two reactions that fire each other (the troll's targets the bear, the bear's the troll): the
    period is two passes, and still named."""
    to_bear = {"source": "troll", "text": "target bear", "targets": [{"id": "c", "filter": {"id": "bear"}}]}
    to_troll = {"source": "bear", "text": "target troll", "targets": [{"id": "c", "filter": {"id": "troll"}}]}
    s = scenario([ward("troll", "X", to_bear, by="any"), ward("bear", "Y", to_troll, by="any")])
    with pytest.raises(EndlessLoop, match="a mandatory loop"):
        count(s)


def test_a_chain_a_ward_can_never_end_is_named_with_its_cause(capsys: pytest.CaptureFixture[str], tmp_path: Any) -> None:
    """Issue 36 item 7 (603.3b, 601.2c, 603.3c): V must target the knight again, firing itself and
    W, a ward-like reaction that counters an ability an opponent controls. B's only waiting ability
    has no legal target and is removed, so no ability of B's is ever on the stack: W is removed
    every pass for want of a target and changes nothing, while each round adds a V to the stack.
    It was told as 'no pass repeats an earlier one, so the chain may yet end (raise the cap with
    --max-passes)', which is not why it goes on: whatever the cap, it is an endless chain, and the
    error says which reactions keep firing, on what, and why the ward changes nothing."""
    doc = {
        "players": ["A", "B"],
        "objects": [
            {"id": "knight", "controller": "A", "types": ["creature"]},
            {"id": "aura", "controller": "A", "types": ["enchantment"]},
            {"id": "altar", "controller": "B", "types": ["enchantment"]},
        ],
        "triggers": [
            {"id": "T", "source": "aura", "targets": [{"id": "t", "filter": {"type": "creature", "controller": "you"}}]},
            {"id": "U", "source": "altar", "targets": [{"id": "t", "filter": {"type": "creature", "controller": "you"}}]},
        ],
        "reactions": [
            ward("knight", "V", {"source": "knight", "targets": [{"id": "t", "filter": {"id": ["knight"]}}]}, by="you"),
            ward(
                "knight",
                "W",
                {"source": "aura", "targets": [{"id": "t", "filter": {"kind": "ability", "controller": "opponent"}}]},
                by="any",
            ),
        ],
    }
    said = [
        "an endless chain: pass 3 (V@V@T, W@V@T) repeats pass 2 (V@T, W@T) up to names but for 1 more ability on "
        "the stack below it; the same choices make it again on a stack that only grows",
        "It goes on because V@T targets knight, firing V and W again.",
        "W@T has no legal target and is removed, as it will be every round: no ability on the stack, nor a copy "
        "the rounds put there, could be one.",
    ]
    s = Scenario.model_validate(doc)
    for limits in (Limits(), Limits(passes=3), Limits(passes=10_000)):
        with pytest.raises(EndlessLoop) as info:
            count(s, limits=limits)
        assert all(part in str(info.value) for part in said), str(info.value)
        assert "--max-passes" not in str(info.value) and info.value.rule == Rule.R603_3B
    path = tmp_path / "ward.json"
    path.write_text(json.dumps(doc))
    assert main(["count", str(path)]) == 2  # bad input, as the cap's error was
    out, err = capsys.readouterr()
    assert out == "" and all(part in err for part in said), err


def test_engine_hook_decides_what_triggers_next() -> None:
    """An engine whose own state-based actions decide what triggers passes a function: here, any
    ability that targets the bear makes B's 'Blood Artist' trigger once."""
    s = scenario([])

    def next_pass(scenario: Scenario, placed: Outcome) -> Sequence[dict[str, Any]]:
        if any("bear" in ts for e in placed.stack for ts in e.targets.values()) and not scenario.triggers[
            0
        ].id.startswith("DIES"):
            return [
                {
                    "id": "DIES",
                    "controller": "B",
                    "text": "a creature died: target player loses 1 life",
                    "targets": [{"id": "p", "filter": {"kind": "player"}}],
                }
            ]
        return []

    plain = count(s)
    hooked = count(s, next_pass=next_pass)
    assert plain == 10 and hooked == 6 + 4 * 2
    whole = [o for o in outcomes(s, next_pass=next_pass) if o.passes]
    assert len(whole) == 8 and all(o.stack[-1].ability == "DIES" for o in whole)
    assert check(s, whole[0], next_pass=next_pass).legal
    assert not check(s, whole[0]).legal  # without the hook, nothing fired DIES


def test_sample_and_best_cover_every_pass() -> None:
    from collections import Counter

    from triggerstack.model import Score
    from triggerstack.solver import best, sample

    drain = {
        "source": "troll",
        "text": "target player loses 1 life",
        "targets": [{"id": "p", "filter": {"kind": "player"}}],
    }
    s = scenario([ward("troll", "WARD", drain)])
    every = {outcome_json(o) for o in outcomes(s)}
    drawn = Counter(outcome_json(o) for o in sample(s, 14 * 200, seed=3))
    assert set(drawn) == every  # 14 outcomes, two of them in two passes each time the troll is hit
    assert sum((n - 200) ** 2 / 200 for n in drawn.values()) < 34.528  # chi-square, 13 df, 0.999
    top = best(s, Score(height={"WARD@T": 5}, target={"WARD@T": {"A": 2}}))
    assert top.score == 5 * 1 + 2 and top.outcome.stack[-1].targets == {"p": ("A",)}


def test_step_walks_every_pass() -> None:
    """Every walk across passes ends in a whole outcome that check accepts, and every whole
    outcome is reachable; ids are fixed over the universe of abilities that could fire."""
    from triggerstack.solver import Stepper

    strike = {
        "source": "troll",
        "text": "deal 1 damage to target creature an opponent controls",
        "targets": [{"id": "c", "filter": {"type": "creature", "controller": "opponent"}}],
    }
    s = scenario([ward("troll", "WARD", strike), ward("src", "BACK")])
    stepper = Stepper(compile_facts(s))
    assert stepper.decision("put WARD@T").id < stepper.size and stepper.decision("put BACK@WARD@T")
    every = {outcome_json(o) for o in outcomes(s)}
    reached: set[str] = set()

    def explore(walk: Any) -> None:
        legal = stepper.legal(walk)
        if not legal:
            outcome = stepper.outcome(walk)
            assert check(s, outcome).legal
            reached.add(outcome_json(outcome))
            return
        for d in legal:
            explore(stepper.apply(walk, d))

    explore(stepper.start())
    assert reached == every and len(every) == 14
    walk = stepper.walk(["put T", "target troll", "end targets", "divide 2", "put WARD@T", "target src", "end targets"])
    assert [d.text for d in stepper.legal(walk)] == ["put BACK@WARD@T"]


def test_targets_across_passes_are_in_canonical_order() -> None:
    """docs/formats.md, Proposal and outcome (issue 16): the targets of a requirement list players, objects, then waiting
    abilities in scenario order, fired abilities after them — whatever order the earlier pass put
    them on the stack in; and canonicalising a whole outcome changes nothing."""
    from triggerstack.model import canonical

    counter = {
        "source": "troll",
        "text": "counter up to two target abilities",
        "targets": [{"id": "a", "min": 0, "max": 2, "filter": {"kind": "ability"}}],
    }
    tap = {"id": "TAP", "source": "src", "text": "tap target creature", "targets": [{"id": "c", "filter": {"id": "troll"}}]}
    gain = {"id": "GAIN", "source": "src", "text": "gain 1 life"}
    s = scenario([ward("troll", "WARD", counter)], triggers=[tap, gain])
    both = [o for o in outcomes(s) if o.passes and o.stack[-1].targets.get("a") and len(o.stack[-1].targets["a"]) == 2]
    assert {tuple(e.ability for e in o.stack[:2]) for o in both} == {("TAP", "GAIN"), ("GAIN", "TAP")}
    assert all(o.stack[-1].targets["a"] == ("TAP", "GAIN") for o in both)
    for o in outcomes(s):
        assert outcome_json(canonical(s, o)) == outcome_json(o)
