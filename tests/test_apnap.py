"""APNAP order (101.4) and the blocks of 603.3b, cr-1p and 2hg (805.7)."""

from __future__ import annotations

from typing import Any

from triggerstack.model import Scenario, compile_facts


def scenario(rules: str, players: list[Any], triggers: list[tuple[str, str, str]], teams: Any = None) -> Scenario:
    ids = [p if isinstance(p, str) else p["id"] for p in players]
    return Scenario.model_validate(
        {
            "rules": rules,
            "players": players,
            "teams": teams,
            "objects": [{"id": f"o{p}", "controller": p} for p in ids],
            "triggers": [{"id": t, "source": f"o{p}", "condition": c} for t, p, c in triggers],
        }
    )


TRIGGERS = [
    ("B2", "B", "ability-triggered"),
    ("A1", "A", "event"),
    ("C1", "C", "event"),
    ("A2", "A", "ability-triggered"),
    ("B1", "B", "event"),
]


def blocks(s: Scenario) -> list[tuple[int, tuple[str, ...], list[str]]]:
    f = compile_facts(s)
    return [(b.part, b.players, [f.abilities[k].id for k in b.abilities]) for b in f.blocks]


def test_seed_two_parts() -> None:
    assert blocks(scenario("seed", ["A", "B", "C"], TRIGGERS)) == [
        (1, ("A",), ["A1"]),
        (1, ("B",), ["B1"]),
        (1, ("C",), ["C1"]),
        (2, ("A",), ["A2"]),
        (2, ("B",), ["B2"]),
    ]


def test_active_player_is_first_in_the_list() -> None:
    assert [b[1] for b in blocks(scenario("seed", ["C", "A", "B"], TRIGGERS))] == [
        ("C",),
        ("A",),
        ("B",),
        ("A",),
        ("B",),
    ]


def test_cr_1p_single_pass() -> None:
    assert blocks(scenario("cr-1p", ["A", "B", "C"], TRIGGERS)) == [
        (1, ("A",), ["A1", "A2"]),
        (1, ("B",), ["B2", "B1"]),
        (1, ("C",), ["C1"]),
    ]


def test_2hg_teams() -> None:
    s = scenario("2hg", ["A", "B", "C", "D"], [*TRIGGERS, ("D1", "D", "event")], teams=[["A", "C"], ["B", "D"]])
    assert blocks(s) == [(1, ("A", "C"), ["A1", "C1", "A2"]), (1, ("B", "D"), ["B2", "B1", "D1"])]
    f = compile_facts(s)
    assert not f.is_opponent("A", "C") and f.is_opponent("A", "B")  # type: ignore[arg-type]


def test_left_player_has_no_block() -> None:
    s = scenario("seed", ["A", {"id": "B", "left_game": True}, "C"], TRIGGERS)
    f = compile_facts(s)
    assert [b.players for b in f.blocks] == [("A",), ("C",), ("A",)]
    b1 = f.abilities[f.ability_index["B1"]]
    assert b1.block is None and b1.forced_removal is not None
