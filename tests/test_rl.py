"""The environments of ``triggerstack.solver.rl``: PettingZoo's ``api_test`` and Gymnasium's
``check_env`` pass; every masked random episode ends in an outcome ``check`` accepts; every
enumerated outcome of the examples is reached through the environment and by
``decisions_for``; fixed action layouts mean the same id in every scenario that fits; the
observation is what its documentation says.

Rules: 603.3b (who decides: the controller of the block being put, APNAP), 700.2e (the chooser of
the ability in hand), 603.3c-d (what a walk may decide), docs/formats.md, Proposal and outcome (the outcome reached, in the
canonical form of ``enumerate``), docs/cli.md (the score as a per-player reward).

Private unit: model/_types.PlayerId, the seat type Observer.encode takes.
"""

from __future__ import annotations

import json
import warnings
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402
from triggerstack.model import Outcome, Scenario, ScenarioError, UsageError, compile_facts, outcome_json  # noqa: E402
from triggerstack.model._types import PlayerId  # noqa: E402
from triggerstack.solver import (  # noqa: E402
    ActionLayout,
    DecisionKind,
    IllegalDecision,
    IllegalOutcome,
    LegalOutcomes,
    Stepper,
    TimeLimitReached,
    check,
    rl,
)

from .conftest import EXAMPLES  # noqa: E402
from .property.strategies import SETTINGS, scenarios  # noqa: E402
from .property.test_agreement import size_bound  # noqa: E402

EXAMPLE_FILES = sorted(EXAMPLES.glob("*/scenario.yaml"))
IDS = [p.parent.name for p in EXAMPLE_FILES]
ERTAI = EXAMPLES / "ertai-resurrected" / "scenario.yaml"
SMALL = 3000  # examples with at most this many outcomes are walked outcome by outcome

# What api_test says of every environment whose observation is a dict with an action mask (it
# lists PettingZoo's own such games by name, and so warns for any other): expected, not a defect.
API_TEST_WARNINGS = [
    "ignore:Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete:UserWarning",
    "ignore:Observation is not a NumPy array:UserWarning",
]


def _filtered(test: Any) -> Any:
    for w in API_TEST_WARNINGS:
        test = pytest.mark.filterwarnings(w)(test)
    return test


def _play(game: Any, rng: Any) -> dict[str, Any]:
    """One masked random episode through the AEC API; the infos of the last agent."""
    info: dict[str, Any] = {}
    for agent in game.agent_iter():
        observation, _, terminated, truncated, info = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0, "the agent selected has a legal decision"
        assert agent == game.agent_selection
        game.step(int(legal[rng.integers(len(legal))]))
    return info


def _playable(facts: Any) -> bool:
    """Small, ends within the passes allowed (a loop of reactions is refused, by every verb), and
    has a decision to make."""
    if size_bound(facts) > 10_000:
        return False
    try:
        if LegalOutcomes(facts, time_limit=2).count() > 10_000:
            return False
    except (ScenarioError, TimeLimitReached):
        return False
    stepper = Stepper(facts)
    return bool(stepper.legal(stepper.start()))


def test_a_scenario_with_no_decision_is_refused_at_reset() -> None:
    nothing = Scenario.model_validate({"players": ["A", "B"]})
    with pytest.raises(ScenarioError, match="no decision to make"):
        rl.raw_env(nothing).reset()
    game = rl.raw_env([nothing, Scenario.load(str(ERTAI))])
    for seed in range(5):
        game.reset(seed=seed)  # the empty one is passed over
        assert game.stepper.facts.scenario.triggers


# -- PettingZoo and Gymnasium's own checks -------------------------------------------------------


@_filtered
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_api_test_passes_on_every_example(path: Path) -> None:
    api_test(rl.env(str(path)), num_cycles=100)


@pytest.mark.usefixtures("cpu_clock")  # _playable sets inputs aside by a time limit: the same ones when busy
@_filtered
@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5), suppress_health_check=list(HealthCheck))
@given(doc=scenarios(reactions=True))
def test_api_test_passes_on_generated_scenarios(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(_playable(facts))
    api_test(rl.raw_env(facts), num_cycles=30)


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_check_env_passes_on_every_example(path: Path) -> None:
    # Every example has an ability of the active player's, so seat 0 always decides.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns of every doubtful answer: none is expected
        check_env(rl.TriggerStackGym(str(path)), skip_render_check=True)


# -- episodes end in legal outcomes, and reach every one -----------------------------------------


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_random_masked_episodes_end_in_legal_outcomes(path: Path) -> None:
    scenario = Scenario.load(str(path))
    game = rl.env(scenario)
    every = {outcome_json(o) for o in islice(LegalOutcomes(scenario), SMALL + 1)}
    rng = np.random.default_rng(7)
    for seed in range(20):
        game.reset(seed=seed)
        agents = list(game.agents)
        info = _play(game, rng)
        line = info["outcome"]
        assert json.loads(line)  # the canonical JSON line of enumerate
        assert check(scenario, Outcome.model_validate_json(line)).legal
        if len(every) <= SMALL:
            assert line in every
        assert not game.agents and agents == [f"player_{i}" for i in range(len(scenario.players))]


@pytest.mark.usefixtures("cpu_clock")  # _playable sets inputs aside by a time limit: the same ones when busy
@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5), suppress_health_check=list(HealthCheck))
@given(doc=scenarios(reactions=True), seed=st.integers(0, 2**32 - 1))
def test_random_episodes_of_generated_scenarios_end_in_legal_outcomes(doc: dict[str, Any], seed: int) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(_playable(facts))
    game = rl.raw_env(facts)
    game.reset(seed=seed)
    info = _play(game, np.random.default_rng(seed))
    assert check(facts, Outcome.model_validate_json(info["outcome"])).legal


@pytest.mark.usefixtures("cpu_clock")  # _playable sets inputs aside by a time limit: the same ones when busy
@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5), suppress_health_check=list(HealthCheck))
@given(doc=scenarios(reactions=True), seed=st.integers(0, 2**32 - 1))
def test_the_kept_observation_is_the_encoded_one_on_generated_boards(doc: dict[str, Any], seed: int) -> None:
    """What the tracker keeps per board — each token's entries, what placing each choice adds past
    its announcement, the seats and base rows every episode on the board shares — changes no
    observation: over several episodes on one board (the later ones from its kept rows), every
    seat's observation at every step is what ``Observer.encode`` makes of the walk."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(_playable(facts))
    game = rl.raw_env(facts)
    rng = np.random.default_rng(seed)
    for episode in range(4):
        game.reset(seed=seed + episode)
        while True:
            for agent in game.agents:
                kept = game.observe(agent)["observation"]
                anew = game.observer.encode(game.stepper, game.walk, game.player(agent), game.legal())
                assert np.array_equal(kept, anew), (episode, agent, np.flatnonzero(kept != anew))
            legal = game.legal()
            if not legal:
                break
            game.step(legal[rng.integers(len(legal))].id)


def _small_examples() -> list[Any]:
    out = []
    for path in EXAMPLE_FILES:
        if LegalOutcomes(Scenario.load(str(path))).count() <= SMALL:
            out.append(pytest.param(path, id=path.parent.name))
    return out


@pytest.mark.parametrize("path", _small_examples())
def test_every_outcome_is_reached_through_the_env_and_decisions_for_round_trips(path: Path) -> None:
    scenario = Scenario.load(str(path))
    facts = compile_facts(scenario)
    stepper = Stepper(facts)
    game = rl.raw_env(facts)
    reached = set()
    for outcome in LegalOutcomes(facts):
        decisions = stepper.decisions_for(outcome)
        assert stepper.outcome(stepper.walk(decisions)) == outcome  # checked decision by decision
        game.reset()
        for d in decisions:
            game.step(game.stepper.decision(d.text).id)
        line = game.infos["player_0"]["outcome"]
        assert line == outcome_json(outcome)
        reached.add(line)
    assert len(reached) == LegalOutcomes(facts).count()


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_decisions_for_refuses_an_illegal_outcome_with_its_verdict(path: Path) -> None:
    scenario = Scenario.load(str(path))
    illegal = Outcome.load(str(path.parent / "illegal.json"))
    with pytest.raises(IllegalOutcome) as caught:
        Stepper(compile_facts(scenario)).decisions_for(illegal)
    assert caught.value.verdict == check(scenario, illegal)
    assert not caught.value.verdict.legal
    legal = Outcome.load(str(path.parent / "legal.json"))
    stepper = Stepper(compile_facts(scenario))
    assert check(scenario, stepper.outcome(stepper.walk(stepper.decisions_for(legal)))).legal


# -- who decides, and illegal actions -------------------------------------------------------------

def test_agent_selection_follows_apnap_and_illegal_actions_say_why() -> None:
    game = rl.raw_env(str(ERTAI))
    game.reset(seed=0)
    # B is the active player (players: [B, A]): player_0 is B and puts B's Soul Warden trigger first.
    assert game.player("player_0") == "B" and game.agent_selection == "player_0"
    put_e = game.stepper.decision("put E").id
    with pytest.raises(IllegalDecision, match=r"603\.3b") as caught:
        game.step(put_e)
    assert not isinstance(caught.value, ScenarioError) and caught.value.legal == ("put SWB",)
    game.step(game.stepper.decision("put SWB").id)
    assert game.agent_selection == "player_1"
    mask = game.observe("player_1")["action_mask"]
    assert mask.dtype == np.int8 and set(np.flatnonzero(mask)) == {d.id for d in game.legal()}
    assert not game.observe("player_0")["action_mask"].any(), "only who decides has legal actions"


@pytest.mark.parametrize("make", [rl.raw_env, partial(rl.env, illegal_reward=None)], ids=["raw_env", "env"])
def test_an_action_that_is_no_decision_is_an_illegal_decision_and_nothing_is_taken(make: Any) -> None:
    """(``rl.env`` by default ends the episode on an illegal action of its action space instead:
    tests/test_rl_rllib.py.)"""
    game = make(str(EXAMPLES))  # a folder: the layout covers every example, so some slots are empty on one
    game.reset(seed=0)
    stepper, size = game.unwrapped.stepper, game.unwrapped.layout.size
    legal = tuple(d.text for d in game.unwrapped.legal())
    empty = []
    for i in range(size):
        try:
            stepper.decision(i)
        except IllegalDecision:
            empty.append(i)
    assert empty, "the examples' layout leaves a slot of this board empty"
    ways = [(i, "ids run from 0 to " + str(size - 1)) for i in (size, 10**6, -1, np.int64(size))]
    ways += [(empty[0], "its slot is empty here"), (np.int32(empty[0]), "its slot is empty here")]
    for bad, where in ways:
        with pytest.raises(IllegalDecision, match=rf"^id {int(bad)} is not a legal decision now") as caught:
            game.step(bad)
        assert caught.value.decision == int(bad) and type(caught.value.decision) is int
        assert caught.value.rule is None and caught.value.legal == legal and where in caught.value.reason
    for bad in (2.5, True, "0", np.float64(0.0), np.array([0]), np.bool_(True)):
        with pytest.raises(IllegalDecision, match="is not a legal decision now: an action is a decision id"):
            game.step(bad)
    assert tuple(d.text for d in game.unwrapped.legal()) == legal and not game.unwrapped.walk.decisions
    game.step(np.int64(game.unwrapped.legal()[0].id))  # a NumPy integer is an id: taken
    assert len(game.unwrapped.walk.decisions) == 1


def test_the_scenario_of_each_episode_is_the_board_drawn_and_judges_its_outcome() -> None:
    boards = {Scenario.load(str(p)).model_dump_json() for p in EXAMPLE_FILES}
    game, gym = rl.env(str(EXAMPLES)), rl.TriggerStackGym(str(EXAMPLES))
    rng, seen = np.random.default_rng(4), set()
    for seed in range(30):
        game.reset(seed=seed)
        info = _play(game, rng)
        scenario = game.unwrapped.scenario
        assert scenario.model_dump_json() in boards
        assert check(scenario, Outcome.model_validate_json(info["outcome"])).legal
        seen.add(scenario.model_dump_json())
        _, info = gym.reset(seed=seed)
        terminated = False
        while not terminated:
            _, _, terminated, _, info = gym.step(int(rng.choice(np.flatnonzero(gym.action_masks()))))
        assert check(gym.scenario, Outcome.model_validate_json(info["outcome"])).legal
    assert len(seen) > 3, "the episodes drew several boards"


def test_rewards_come_from_a_score_per_player() -> None:
    score_a = {"mode": {"E": {"destroy": 5}}, "target": {"E": {"warden_b": 3}}}
    game = rl.raw_env(str(ERTAI), rewards={"A": score_a})
    seen = set()
    rng = np.random.default_rng(3)
    for seed in range(30):
        game.reset(seed=seed)
        for agent in game.agent_iter():
            _, reward, terminated, _, info = game.last()
            if terminated:
                outcome = Outcome.model_validate_json(info["outcome"])
                want = rl_score(score_a, outcome) if game.player(agent) == "A" else 0.0
                assert reward == want
                seen.add(want)
                game.step(None)
                continue
            legal = np.flatnonzero(game.mask())
            game.step(int(legal[rng.integers(len(legal))]))
    assert {0.0, 8.0} <= seen


def rl_score(score: dict[str, Any], outcome: Outcome) -> float:
    from triggerstack.model import Score

    return float(Score.model_validate(score).of(outcome))


# -- sources and layouts --------------------------------------------------------------------------


def test_sources_and_the_layout_they_need(tmp_path: Path) -> None:
    folder = rl.raw_env(str(EXAMPLES))
    assert folder._source.fixed is not None and len(folder._source.fixed) == len(EXAMPLE_FILES)
    every = [folder._stepper(f).needs for f in folder._source.fixed]
    assert folder.layout == ActionLayout.covering(every) and all(folder.layout.fits(x) for x in every)
    drawn = set()
    for seed in range(40):
        folder.reset(seed=seed)
        drawn.add(id(folder.stepper.facts))
    assert len(drawn) > 1, "a folder's scenarios are drawn"
    folder.reset(seed=5)
    first = folder.stepper.facts
    folder.reset(seed=5)
    assert folder.stepper.facts is first, "the draw follows the seed"
    after = []
    for _ in range(20):
        folder.reset()
        after.append(id(folder.stepper.facts))
    assert len(set(after)) > 1, "the seed draws one episode's board; its generator draws the next ones"
    folder.reset(seed=5)
    again = []
    for _ in range(20):
        folder.reset()
        again.append(id(folder.stepper.facts))
    assert again == after, "the episodes after a seed follow it too"
    for bad in (-1, 2.5, "3", True):  # refused at once, naming the seed (model/_args.py)
        with pytest.raises(UsageError, match=r"^seed: expected (a whole number|at least 0), found"):
            folder.reset(seed=bad)  # type: ignore[arg-type]
    folder.reset(seed=np.int64(3))  # a NumPy integer is the number it holds
    folder.reset(options={"scenario": str(ERTAI)})
    assert folder.stepper.facts.scenario.players[0].id == "B"

    with pytest.raises(ScenarioError, match="layout"):
        rl.raw_env(iter([Scenario.load(str(ERTAI))]))
    generated = rl.raw_env(lambda rng: Scenario.load(str(ERTAI)), layout=folder.layout)
    generated.reset(seed=1)
    assert generated.stepper.facts.scenario.players[0].id == "B"
    tiny = ActionLayout(abilities=1, things=3, players=2)
    with pytest.raises(ScenarioError, match="3 abilities"):
        rl.raw_env(str(ERTAI), layout=tiny)
    empty = tmp_path / "none"
    empty.mkdir()
    with pytest.raises(ScenarioError, match="no scenario files"):
        rl.raw_env(str(empty))


def _every(stepper: Stepper) -> list[Any]:
    """Every decision of a stepper, by id (an id whose slot the scenario leaves empty has none)."""
    out = []
    for i in range(stepper.size):
        try:
            out.append(stepper.decision(i))
        except IllegalDecision:
            continue
    return out


def test_a_fixed_layout_gives_each_id_one_meaning_across_scenarios() -> None:
    steppers = [Stepper(compile_facts(Scenario.load(str(p)))) for p in EXAMPLE_FILES]
    layout = ActionLayout.covering(s.needs for s in steppers)
    for own in steppers:
        fixed = Stepper(own.facts, layout=layout)
        assert fixed.size == layout.size
        for d in _every(fixed):
            text = d.text
            assert fixed.decision(d.id) == d == fixed.decision(text)  # both directions
            kind, _, name = text.partition(" ")
            meaning = layout.describe(d.id)
            if d.kind in (DecisionKind.PUT, DecisionKind.REMOVE):
                assert meaning == f"{kind} ability {fixed.ability_slot(name)}"
            elif d.kind is DecisionKind.MODE:
                aid, _, mode = name.rpartition(":")
                body = next(t for t in fixed.facts.abilities if t.id == aid)
                assert meaning == f"mode {[m.id for m in body.modes].index(mode)} of ability {fixed.ability_slot(aid)}"
            elif d.kind is DecisionKind.TARGET:
                slot = fixed.thing_slot(name)
                assert meaning == (f"target thing {slot}" if slot is not None else f"target ability {fixed.ability_slot(name)}")
            else:
                assert meaning == text
        # The same walk under both numberings: the decisions correspond by their text.
        outcome = next(iter(LegalOutcomes(own.facts)))
        ours = [d.text for d in own.decisions_for(outcome)]
        assert [d.text for d in fixed.decisions_for(outcome)] == ours
    with pytest.raises(IllegalDecision, match="no decision has this id"):
        Stepper(steppers[0].facts, layout=layout).decision(layout.size)


# -- the observation ------------------------------------------------------------------------------


def test_the_observation_reads_as_documented() -> None:
    game = rl.raw_env(str(ERTAI))
    obs = game.observer
    names = obs.fields()
    assert len(names) == obs.size == obs.space.shape[0] and game.observation_space("player_0")["observation"] is obs.space
    at = {n: i for i, n in enumerate(names)}
    game.reset(seed=0)
    stepper = game.stepper
    b_view = game.observe("player_0")["observation"]
    a_view = game.observe("player_1")["observation"]
    e = stepper.ability_slot("E")
    assert b_view[at["header.pass"]] == 1 and b_view[at["header.phase"]] == 1 and b_view[at["header.players"]] == 2
    assert b_view[at[f"ability[{e}].status"]] == 1  # waiting
    assert b_view[at[f"ability[{e}].controller"]] == 2 and a_view[at[f"ability[{e}].controller"]] == 1  # relative seats
    assert b_view[at["header.seat"]] == 0 and a_view[at["header.seat"]] == 1
    assert b_view[at[f"ability[{e}].mode[0].requirements"]] == 1
    for text in ["put SWB", "put E", "mode E:counter", "end modes"]:
        game.step(stepper.decision(text).id)
    view = game.observe("player_1")["observation"]
    swb = stepper.ability_slot("SWB")
    assert view[at[f"ability[{swb}].status"]] == 3 and view[at[f"ability[{swb}].stack_position"]] == 1
    assert view[at[f"ability[{e}].status"]] == 2 and view[at["header.in_hand"]] == e + 1
    assert view[at[f"ability[{e}].mode[0].chosen"]] == 1 and view[at["header.phase"]] == 3
    game.step(stepper.decision("target SWB").id)
    view = game.observe("player_1")["observation"]
    column = obs.layout.things + swb
    assert view[at[f"chosen[{e}][{column}]"]] == 1
    assert game.observation_space("player_1")["observation"].contains(view)
    again = obs.encode(stepper, game.walk, PlayerId("A"))
    assert np.array_equal(again, view) and again is not view, "deterministic, and a new array each time"


@pytest.mark.parametrize("auto", [False, True])
def test_the_observation_kept_up_to_date_is_the_one_encoded_anew(auto: bool) -> None:
    """The environments follow each decision taken instead of encoding the walk again: every
    seat's observation is, at every step, what ``Observer.encode`` makes of the walk (reactions'
    passes included); the outcome line each episode ends with is ``outcome_json`` of the outcome."""
    files = [*EXAMPLE_FILES, *(EXAMPLES.parent / "benchmarks" / "scenarios" / f"{n}.json" for n in ("ward-3", "mixed-10"))]
    one = {"id": "c", "filter": {"type": "creature"}}
    crowd = {  # 17 abilities, one creature: its count of being chosen passes CLIP (15)
        "players": ["A", "B"],
        "objects": [{"id": "c0", "controller": "B", "types": ["creature"]}],
        "triggers": [{"id": f"T{k}", "controller": "AB"[k % 2], "targets": [one]} for k in range(17)],
    }
    sources = [Scenario.load(str(p)) for p in files] + [Scenario.model_validate(crowd)]
    rng = np.random.default_rng(1)
    for k, scenario in enumerate(sources):
        if auto and LegalOutcomes(scenario).count() == 1:
            continue  # nothing to ask (refused at reset, tested above)
        game = rl.raw_env(scenario, auto=auto)
        for seed in range(6):
            game.reset(seed=seed)
            while True:
                for agent in game.agents:
                    kept = game.observe(agent)["observation"]
                    anew = game.observer.encode(game.stepper, game.walk, game.player(agent), game.legal())
                    assert np.array_equal(kept, anew), (k, seed, agent, np.flatnonzero(kept != anew))
                if not game.legal():
                    assert game.infos[game.agents[0]]["outcome"] == outcome_json(game.stepper.outcome(game.walk))
                    break
                legal = game.legal()
                game.step(legal[rng.integers(len(legal))].id)


# -- the documentation ----------------------------------------------------------------------------

DOC = (EXAMPLES.parent / "docs" / "rl.md").read_text(encoding="utf-8")


def test_the_docs_python_blocks_run_and_say_what_they_do(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    monkeypatch.chdir(EXAMPLES.parent)
    namespace: dict[str, Any] = {}
    for block in re.findall(r"```python\n(.*?)```", DOC, flags=re.S):
        exec(compile(block, "docs/rl.md", "exec"), namespace)
    assert check(namespace["game"].unwrapped.stepper.facts, Outcome.model_validate_json(namespace["reached"])).legal
    assert namespace["layout"].describe(namespace["put_e"].id) == "put ability 2"
    assert [d.text for d in namespace["stepper"].decisions_for(namespace["outcome"])] == ["put SWB", "remove E", "put SWA"]


def test_the_docs_tables_name_every_observation_field() -> None:
    """The three tables of the observation list exactly the fields the encoder writes, in order."""
    import re

    sections = {}
    for title in ("Header", "Abilities", "Things"):
        table = DOC.split(f"**{title}**", 1)[1].split("\n\n", 2)[1]
        sections[title] = re.findall(r"^\| `([a-z_\[\]m.]+)` \|", table, flags=re.M)
    fields = rl.Observer(ActionLayout(abilities=1, things=1, modes=1, players=1)).fields()
    assert [f"header.{n}" for n in sections["Header"]] == fields[: rl.HEADER]
    ability = [f.removeprefix("ability[0].") for f in fields if f.startswith("ability[0].")]
    assert [n.replace("[m]", "[0]") for n in sections["Abilities"]] == ability
    assert [f"thing[0].{n}" for n in sections["Things"]] == [f for f in fields if f.startswith("thing[0].")]


@pytest.mark.parametrize(("script", "says"), [("random_agent.py", "every outcome legal"), ("bandit.py", "learned")])
def test_the_rl_examples_run(script: str, says: str) -> None:
    """The masked random agent finds every outcome legal; the tabular learner beats random play
    (the script exits 1 otherwise)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "rl" / script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert says in done.stdout


def test_a_scenarios_own_ids_are_those_of_its_smallest_layout() -> None:
    """One layout of ids: a stepper without a layout numbers its decisions as one laid out by
    ``needs`` does, the same decision the same id."""
    for path in EXAMPLE_FILES:
        own = Stepper(compile_facts(Scenario.load(str(path))))
        laid = Stepper(own.facts, layout=own.needs)
        assert own.size == laid.size == own.needs.size
        assert {d.id: d.text for d in _every(own)} == {d.id: d.text for d in _every(laid)}


@_filtered
@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=IDS)
def test_auto_takes_the_forced_decisions_and_counts_them(path: Path) -> None:
    """``auto=True``: no agent is ever asked to take the only legal decision; the episode still
    ends in a legal outcome, ``infos`` count what was taken for them, and the API checks pass."""
    scenario = Scenario.load(str(path))
    game = rl.raw_env(scenario, auto=True)
    if LegalOutcomes(scenario).count() == 1:  # every decision forced: nothing to ask an agent
        with pytest.raises(ScenarioError, match="once the decisions that are the only legal ones are taken"):
            game.reset()
        return
    api_test(rl.env(scenario, auto=True), num_cycles=50)
    plain = LegalOutcomes(scenario).stepper()
    rng = np.random.default_rng(3)
    for seed in range(5):
        game.reset(seed=seed)
        asked = 0
        while not all(game.terminations.values()):
            legal = game.legal()
            assert len(legal) >= 2
            game.step(legal[rng.integers(len(legal))].id)
            asked += 1
        info = game.infos[game.agents[0]]
        assert check(scenario, Outcome.model_validate_json(info["outcome"])).legal
        walk = plain.walk(game.walk.decisions)  # the same decisions, taken one by one
        assert plain.is_over(walk) and len(game.walk.decisions) == asked + info["auto_applied"]


def test_an_iterator_source_that_runs_out_says_how_to_keep_drawing() -> None:
    """An iterator is drawn from once per episode (docs/rl.md): when it has no more, the next
    reset says so and names the sources that do not run out."""
    boards = [Scenario.load(str(EXAMPLE_FILES[0])), Scenario.load(str(EXAMPLE_FILES[1]))]
    layout = ActionLayout.covering(Stepper(compile_facts(b)).needs for b in boards)
    game = rl.raw_env(iter(boards), layout=layout)
    game.reset(seed=0)
    game.reset()
    with pytest.raises(ScenarioError, match=r"exhausted.*rl\.boards\(seed\) without n, or a list"):
        game.reset()


@pytest.mark.parametrize("auto", [False, True])
def test_an_episode_starts_where_the_first_on_its_board_did(auto: bool) -> None:
    """A board already seen keeps where an episode on it starts (its first decisions offered, the
    forced ones taken, the tracker there): every episode — the first, later ones by ``reset`` on a
    fixed source, and ``start`` of the board in play, a generated board's too — starts where a walk
    from scratch does: the forced decisions taken (``Stepper.forced``), the mask of its legal
    decisions, their decider, and every seat's observation as ``Observer.encode`` makes it."""
    boards = list(rl.boards(4, 12, players=(2, 3), abilities=(2, 6), cards=False))
    layout = ActionLayout.covering(Stepper(compile_facts(b)).needs for b in boards)
    kept = rl.raw_env(boards, layout=layout, auto=auto)

    def starts_afresh(game: Any) -> None:
        stepper = game.stepper
        walk, taken = stepper.forced(stepper.start()) if auto else (stepper.start(), 0)
        assert game.walk.decisions == walk.decisions and game.auto_applied == taken
        assert [d.id for d in game.legal()] == [d.id for d in stepper.legal(walk)]
        assert np.flatnonzero(game.mask()).tolist() == [d.id for d in stepper.legal(walk)]
        assert game.player(game.agent_selection) == stepper.decider(walk)
        for agent, player in game._player_of.items():  # every seat a player sits in
            anew = game.observer.encode(stepper, walk, player, stepper.legal(walk))
            assert np.array_equal(game.observe(agent)["observation"], anew), agent

    assert kept._source.fixed is not None
    for k, facts in enumerate(kept._source.fixed):
        for episode in range(3):
            if episode == 0:
                kept.reset(options={"scenario": facts})
            else:
                legal = kept.legal()
                if legal:
                    kept.step(legal[episode % len(legal)].id)
                kept.start(facts)
            assert kept.stepper.facts is facts
            starts_afresh(kept)
        drawn = rl.raw_env(iter(boards[k : k + 1]), layout=layout, auto=auto)  # a generated board
        try:
            drawn.reset()
        except ScenarioError:
            continue  # nothing to ask (auto)
        stepper = drawn.stepper
        drawn.step(drawn.legal()[0].id)
        drawn.start(stepper.facts)  # the board in play: its stepper is kept
        assert drawn.stepper is stepper
        starts_afresh(drawn)
