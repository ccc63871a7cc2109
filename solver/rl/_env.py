"""The PettingZoo AEC environment: the players put their triggered abilities on the stack, one
decision at a time, as 603.3 reads (see :mod:`~triggerstack.solver.rl`).

Near the module cap: its one class is PettingZoo's whole AEC surface (reset, step, observe, last's
parts, the dead-agent step, the illegal-action ending); what it keeps per board lives elsewhere
(:mod:`._tree`, :mod:`._tracker`, :mod:`._observation`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Literal, TypeAlias, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from numpy.typing import NDArray
from pettingzoo import AECEnv
from triggerstack.model._args import choice_of, finite_of, name_of, options_of, seed_of, truth_of
from triggerstack.model._errors import LayoutOverflow, ScenarioError, UsageError
from triggerstack.model._facts import Facts
from triggerstack.model._outcome import Outcome
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import found
from triggerstack.model._types import PlayerId

from .._errors import IllegalDecision
from .._options import Options
from .._verbs.step import ActionLayout, Decision, Stepper, Walk
from ._observation import Observer
from ._prepared import ask, opened, take
from ._render import FPS, MODES, check_mode, shown
from ._rewards import Rewards, paid, scores_of
from ._source import DRAWS, ScenarioSource, _Source
from ._spaces import MaskedDiscrete, NotAnAction, action_id, space_id
from ._tracker import Tracker
from ._tree import Node, Opening, Trees, forced, point

Observation = dict[str, NDArray[Any]]
OPTIONS = ("scenario",)
"""The keys ``reset``'s ``options`` may hold (docs/rl.md): any other but :data:`PROBE` is refused,
never ignored (a misspelt ``"scenari"`` would play the old board)."""
PROBE = ("options",)
"""The one key taken and meaning nothing: PettingZoo's ``api_test`` and ``parallel_api_test`` reset
with ``options={"options": 1}`` to see that ``reset`` takes options (docs/rl.md)."""
Form: TypeAlias = Literal["pettingzoo", "rllib"]
"""How :meth:`TriggerStackEnv.observe` gives an observation: PettingZoo's ``{"observation": int16,
"action_mask": int8}``, or RLlib's ``{"observations": float32, "action_mask": int8}`` (the key its
action-masking modules read, the dtype its default encoders take)."""


class TriggerStackEnv(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """603.3 as an AEC game: agents ``player_0`` … are the seats in turn order (``player_0``
    the active player); ``agent_selection`` is who makes the next decision (the controller of
    the block being put on the stack, or the chooser of the ability in hand, 700.2e); an action
    is a decision id of the :class:`~.._verbs.step.ActionLayout`; the episode ends when every
    pass of 603.3b is done, with each agent's reward from ``rewards`` and ``infos[agent]
    ["outcome"]`` the outcome reached as ``enumerate`` prints it. An illegal action raises
    :class:`~.._errors.IllegalDecision` (wrap with PettingZoo's ``TerminateIllegalWrapper`` for
    a penalty instead).

    ``layout`` defaults to the smallest one every scenario of a fixed source fits; a generated
    source (an iterator or a function) needs one.

    ``auto=True`` takes each decision that is the only legal one (an ``end targets`` once no
    target may be added, the last ability of a block …) without asking an agent:
    ``infos[agent]["auto_applied"]`` counts those taken this episode. An episode whose decisions
    are all forced is then over before it starts, so :meth:`reset` draws another.

    Every seat of the layout is an agent of every episode from the first ``reset`` on (RLlib's
    wrapper reads them there): on a board of fewer players the seats past them are empty — never
    selected, observing zeros, rewarded 0, terminated with the others. ``illegal_reward`` (a number)
    ends the episode on an illegal action of the action space, that agent rewarded with it, the
    others 0, ``infos[agent]["illegal"]`` saying why; None raises. ``form``: :data:`Form`.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(MODES),
        "render_fps": FPS,
        "name": "triggerstack_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        scenario: ScenarioSource,
        *,
        layout: ActionLayout | None = None,
        rewards: Rewards | None = None,
        options: Options | None = None,
        render_mode: str | None = None,
        auto: bool = False,
        illegal_reward: float | None = None,
        form: Form = "pettingzoo",
    ) -> None:
        super().__init__()
        self.auto = truth_of(auto, "auto")  # each argument read by model/_args.py, refused naming it
        self.auto_applied = 0
        check_mode(render_mode)
        self.form: Form = cast(Form, choice_of(form, "form", ("pettingzoo", "rllib")))
        self.render_mode = render_mode
        self.illegal_reward = None if illegal_reward is None else finite_of(illegal_reward, "illegal_reward")
        self._illegal: str | None = None  # why this episode ended on an illegal action
        self._key = "observation" if self.form == "pettingzoo" else "observations"
        if options is not None and not isinstance(options, Options):
            raise UsageError(f"options: expected an Options (or None), found {type(options).__name__}")
        self.options = options or Options()
        if layout is not None and not isinstance(layout, ActionLayout):
            raise UsageError(f"layout: expected an ActionLayout (or None), found {type(layout).__name__}")
        if rewards is not None and not callable(rewards) and not isinstance(rewards, Mapping):
            raise UsageError(f"rewards: expected a mapping of players to scores or a function, found {found(rewards)}")
        self._source = _Source(scenario)
        self._steppers: dict[int, Stepper] = {}
        self._openings: dict[int, Opening] = {}  # per kept stepper, where an episode starts
        self._trees = Trees()  # how many points the kept openings' trees hold
        layout = self._source.layout(layout)  # a stream's own, when none is given
        if layout is None:
            if self._source.fixed is None:
                raise ScenarioError(
                    "a generated scenario source needs layout=ActionLayout(...), or a stream drawn in one, "
                    "rl.boards(..., layout=...): spaces come first"
                )
            layout = ActionLayout.covering(Stepper(f, self.options).needs for f in self._source.fixed)
        self.layout = layout
        ask(self._source.iterator, layout)  # a stream's workers build each board's first rows
        for f in self._source.fixed or ():
            self._stepper(f)  # each fixed scenario is laid out now: one that does not fit is refused here
        self.observer = Observer(layout)
        self._rewards = rewards
        self._scores = None if rewards is None or callable(rewards) else scores_of(rewards, self._source.players())
        self.possible_agents = [f"player_{i}" for i in range(layout.players)]
        mask = spaces.Box(low=0, high=1, shape=(layout.size,), dtype=np.int8)
        seen: spaces.Box = self.observer.space
        if self.form == "rllib":
            seen = spaces.Box(low=seen.low.astype(np.float32), high=seen.high.astype(np.float32), dtype=np.float32)
        self.observation_spaces = {
            a: spaces.Dict({self._key: seen, "action_mask": mask}) for a in self.possible_agents
        }
        self.action_spaces = {a: MaskedDiscrete(layout.size) for a in self.possible_agents}
        self._np_random: np.random.Generator | None = None
        self._seed: int | None = None  # a seed given, its generator not made yet (made when first drawn from)
        self._now: Stepper | None = None
        self._walk: Walk | None = None
        self._legal: list[Decision] = []
        self.mask_row(np.zeros(layout.size, dtype=np.int8))
        self._tracker: Tracker | None = None  # made when first needed on a kept board (_synced)
        self._kept: Tracker | None = None  # the board's tracker at its start, copied into _tracker
        self._node: Node | None = None  # the point of the board's tree where the walk stands
        self._keeps = False  # whether the tree grows where it is kept (a kept board's)
        self._behind: list[Walk] = []  # the walks stood at that the tracker has not followed yet
        self._seated: Facts | None = None  # the board whose seats and agents' players are set
        self._player_of: dict[str, PlayerId] = {}
        self.agents: list[str] = []

    def _twin(self) -> TriggerStackEnv:
        """Another environment of the same source, sharing what is compiled (its scenarios'
        facts and steppers, the observer's rows): its own episodes, generator and agents."""
        twin = object.__new__(type(self))
        AECEnv.__init__(twin)
        shared: tuple[str, ...] = ("auto", "render_mode", "options", "_source", "_steppers", "_openings", "_trees")
        shared += ("layout", "observer", "_rewards", "_scores", "illegal_reward", "form", "_key")
        for name in (*shared, "possible_agents", "observation_spaces", "action_spaces"):
            setattr(twin, name, getattr(self, name))
        twin.auto_applied = 0
        twin._np_random = None
        twin._seed = None
        twin._now = None
        twin._walk = None
        twin._legal = []
        twin.mask_row(np.zeros(self.layout.size, dtype=np.int8))
        twin._tracker = twin._kept = twin._node = None
        twin._keeps = False
        twin._behind = []
        twin._seated = None
        twin._player_of = {}
        twin._illegal = None
        twin.agents = []
        return twin

    @property
    def stepper(self) -> Stepper:
        """The stepper of this episode's scenario (its decisions, ids and legality)."""
        if self._now is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self._now

    @stepper.setter
    def stepper(self, value: Stepper) -> None:
        self._now = value

    @property
    def scenario(self) -> Scenario:
        """The scenario of this episode, the board drawn (``check(env.scenario, outcome)`` judges
        the outcome it reached)."""
        return self.stepper.facts.scenario

    @property
    def walk(self) -> Walk:
        """Where this episode stands: the decisions so far, pass by pass."""
        if self._walk is None:
            raise RuntimeError("no episode yet: call reset() first")
        return self._walk

    @walk.setter
    def walk(self, value: Walk) -> None:
        """Stand at ``value`` (a walk of this episode's board): its mask, decider and observations."""
        self._walk = value
        self._node = Node(value, self.stepper.offered(value), 0)
        self._behind.append(value)
        self._follow(self._node)

    # -- spaces -----------------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[self._agent(agent)]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[self._agent(agent)]

    def _agent(self, agent: Any) -> str:
        """``agent`` when it names an agent (a seat of the layout, an empty one too); else a
        ``UsageError`` naming it and the agents (model/_args.py ``name_of``): an agent id is an
        argument, read as every door's are — never a mask of zeros or a reward of 0 for a typo."""
        if isinstance(agent, str) and agent in self.observation_spaces:
            return agent
        return name_of(agent, "agent", self.possible_agents, "agent")

    # -- the episode ------------------------------------------------------------------------------

    def _stepper(self, facts: Facts) -> Stepper:
        found = self._steppers.get(id(facts))
        if found is None:  # a generated board's own, built as it was drawn (Stepper.hand_over), or built now
            found = Stepper.taken(facts, self.options, self.layout) or Stepper(facts, self.options, self.layout)
            opened(found, facts)  # what its first legal lists ask, if found where it was drawn
            if self._source.fixed is not None and any(f is facts for f in self._source.fixed):
                self._steppers[id(facts)] = found  # a fixed source's facts live as long as the env
        return found

    @property
    def np_random(self) -> np.random.Generator:
        if self._np_random is None:
            self._np_random, _ = seeding.np_random(self._seed)
            self._seed = None
        return self._np_random

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """A new episode: ``seed`` seeds the environment's generator (the draw of scenarios and
        nothing else; among a fixed source's boards the seed draws this episode's by itself, and
        the generator made from it the next ones); ``options={"scenario": …}`` plays that
        scenario (or draws from that source) this episode. Any other key of ``options`` is refused
        (:meth:`_source_of`), as is a seed that is no whole number 0 or more (``model/_args.py``)."""
        self._restart(None if seed is None else seed_of(seed), self._source_of(options))

    def _source_of(self, options: Mapping[str, Any] | None) -> _Source | None:
        """The source ``reset``'s ``options`` name (``{"scenario": …}``), or None: the environment's
        own. Options are read once, at the door, by ``model/_args.py`` ``options_of``: a key other
        than :data:`OPTIONS` — a misspelt one — or options that are no mapping are refused naming them."""
        asked = options_of(options, OPTIONS, inert=PROBE)
        if "scenario" not in asked:
            return None
        wanted = _Source(asked["scenario"], "options['scenario']")
        wanted.layout(self.layout, "options['scenario']")  # a stream drawn in another layout is refused
        return wanted

    def _restart(self, seed: int | None, wanted: _Source | None) -> None:
        """:meth:`reset` with its arguments read: ``seed`` checked, ``wanted`` the source of this
        episode (None: the environment's own)."""
        if seed is not None:  # the same generator as made now, made when first drawn from (a lone scenario never is)
            self._np_random, self._seed = None, seed
        source = self._source if wanted is None else wanted
        if seed is not None:
            source.restart(seed)
        tries = 1 if source.fixed is not None and len(source.fixed) == 1 else DRAWS
        drawn_by = seed  # the first draw after a seed is the seed's own: the generator draws the rest
        for _ in range(tries):
            facts = source.next(lambda: self.np_random, drawn_by)
            drawn_by = None
            try:
                stepper = self._stepper(facts)
            except LayoutOverflow as exc:  # a board too big for the layout: how to draw only boards that fit
                raise source.overflow(exc) from None
            opening = self._opening(facts, stepper)
            if opening.offered:
                self.stepper = stepper
                self._begin(facts, opening)
                return
        why = (
            "once the decisions that are the only legal ones are taken (auto=True)"
            if self.auto
            else "(no waiting ability, or none that a player puts or removes)"
        )
        drawn = "no scenario drawn has a decision" if tries > 1 else "the scenario has no decision"
        raise ScenarioError(f"{drawn} to make {why}")

    def start(self, facts: Facts) -> None:
        """Begin an episode on ``facts`` (what :meth:`reset` does once it has a scenario with a
        decision to make; PettingZoo's API has no episode that is over before it starts)."""
        if self._now is None or self._now.facts is not facts:  # a board's stepper is kept while it is played
            self.stepper = self._stepper(facts)
        self._begin(facts, self._opening(facts, self.stepper))

    def _opening(self, facts: Facts, stepper: Stepper) -> Opening:
        """Where an episode on ``facts`` starts: kept for a fixed source's board (every episode on
        it starts where the first did, from a copy of its tracker), made anew for any other."""
        kept = id(facts) in self._steppers
        found = self._openings.get(id(facts)) if kept else None
        if found is None or found.start.facts is not facts:
            start = stepper.start()
            first, taken, offered = forced(stepper, start) if self.auto else (start, 0, stepper.offered(start))
            tracker = Tracker(self.observer, stepper, start) if kept and offered else None
            found = Opening(start, first, taken, offered, tracker, Node(first, offered, taken))
            if kept:
                self._openings[id(facts)] = found
        return found

    def _begin(self, facts: Facts, opening: Opening) -> None:
        """An episode on ``facts`` (the stepper set), from ``opening``."""
        stepper = self.stepper
        self.agents = self.possible_agents[:]  # every seat, an empty one too (the class's docstring)
        if self._seated is not facts:  # the seats of the board last played are still right
            self._seated = facts
            self.seats = list(facts.player_ids())
            self._agent_of = dict(zip(self.seats, self.agents, strict=False))
            self._player_of = dict(zip(self.agents, self.seats, strict=False))
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        kept = self._kept = opening.tracker
        self._keeps = kept is not None
        if kept is None:
            self._tracker = Tracker(self.observer, stepper, opening.start)
            take(self._tracker, facts)  # its first rows, if they were built where it was drawn
        else:
            self._tracker = None  # copied from the kept one when an observation is not kept yet
        self._walk = opening.first
        self.auto_applied = opening.taken
        if self.auto:
            for agent in self.agents:
                self.infos[agent]["auto_applied"] = opening.taken
        self._illegal = None
        self._node = opening.root
        self._behind = [opening.first]  # the tracker stands at the start, before the forced decisions (auto)
        self._follow(opening.root)

    def player(self, agent: str) -> PlayerId:
        """The scenario's player an agent plays this episode (a ``ValueError`` for a seat this
        board leaves empty, or a name that is no agent's)."""
        found = self._player_of.get(self._agent(agent))
        if found is not None:
            return found
        raise ValueError(f"{agent}'s seat is empty on this board (it has {len(self._player_of)} players)")

    def _advance(self, node: Node) -> None:
        """Stand at ``node``, the point a decision led to: the walk, the forced decisions it took
        counted (``auto``), and the mask, who decides or the episode's end."""
        self._node, self._walk = node, node.walk
        self._behind.append(node.walk)
        if self.auto:
            self.auto_applied += node.taken
            for agent in self.agents:
                self.infos[agent]["auto_applied"] = self.auto_applied
        self._follow(node)

    def _follow(self, node: Node) -> None:
        """The mask and who decides (or the episode's end) at ``node``, where the walk stands. The
        observation is the tracker's at the point (:meth:`_seen`), followed only when asked."""
        stepper, walk = self._now, node.walk
        assert stepper is not None
        mask = self._flags
        for d in self._legal:  # the mask flips only the ids whose legality changed
            mask[d.id] = False
        legal = self._legal = node.offered  # a set, to the mask
        for d in legal:
            mask[d.id] = True
        if legal:
            agent = node.agent
            if agent is None:  # who decides (Stepper.decider), read off the decisions: the chooser of the
                # ability in hand (700.2e), else the first player of the block whose abilities are offered (603.3b)
                f, current = walk.facts, walk.local.current
                assert f is not None
                if current is not None:
                    decider = f.abilities[current].chooser
                else:
                    block = f.abilities[f.ability_index[legal[0].subject]].block
                    assert block is not None
                    decider = f.blocks[block].players[0]
                agent = node.agent = self._agent_of[decider]
            self.agent_selection = agent
            return
        line = node.line
        if line is None:
            line = node.line = stepper.outcome_line(walk)  # outcome_json of the outcome, kept per walk
        if self._rewards is None:
            rewards: dict[str, float] = {}
        elif self._scores is None:  # a function: asked every episode (it may not be one of the outcome alone)
            rewards = self._reward(stepper.outcome(walk))
        else:  # a score per player: a function of the outcome, kept at the point
            if node.paid is None:
                node.paid = self._reward(stepper.outcome(walk))
            rewards = node.paid
        player_of = self._player_of
        for agent in self.agents:
            player = player_of.get(agent)
            self.rewards[agent] = 0.0 if player is None else rewards.get(player, 0.0)
            self.infos[agent] = {"outcome": line, **({"auto_applied": self.auto_applied} if self.auto else {})}
        self._end()

    def _end(self) -> None:
        """Every agent terminated, the rewards set paid."""
        self.terminations = dict.fromkeys(self.agents, True)
        self._paid = True
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]

    def _reward(self, outcome: Outcome) -> dict[str, float]:
        if self._rewards is None:
            return {}
        if self._scores is not None:
            return {p: float(s.of(outcome)) for p, s in self._scores.items()}
        assert callable(self._rewards)
        scenario = self.stepper.facts.scenario
        return paid(self._rewards(scenario, outcome), scenario)

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        chosen = action if type(action) is int else action_id(action, agent)
        stepper, walk = self._now, self._walk
        assert stepper is not None and walk is not None  # an agent is selected: reset() was called
        illegal: IllegalDecision | None = None
        node = self._node
        assert node is not None and node.walk is walk
        child: Node | None = None
        if 0 <= chosen < self._size and self._flags[chosen]:  # legal: the mask says so
            child = node.children.get(chosen)  # a point of the board's tree already reached from here
            if child is None:
                child = point(stepper, stepper.apply_unchecked(walk, chosen), self.auto)
                if self._keeps:
                    node.children[chosen] = child
                    self._trees.grown(o.root for o in self._openings.values())  # read only when dropped
        else:
            try:
                space_id(chosen, agent, self._size)
            except NotAnAction as exc:  # not of the space: refused whatever illegal_reward says
                raise NotAnAction(exc.decision, exc.reason, None, tuple(d.text for d in self.legal())) from None
            try:  # IllegalDecision: why, and what is legal (by id)
                child = point(stepper, stepper.apply(walk, chosen, self.legal()), self.auto)
            except IllegalDecision as exc:
                if self.illegal_reward is None:
                    raise
                illegal = exc
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # rewards are paid once, at the end: zeroed at the next step
            rewards = self.rewards
            for a in rewards:
                rewards[a] = 0.0
            self._paid = False
        if child is None:
            assert illegal is not None
            self._refuse(agent, illegal)
            return
        self._advance(child)
        if self.render_mode == "human":
            self.render()

    def _refuse(self, agent: str, illegal: IllegalDecision) -> None:
        """End the episode on ``agent`` 's illegal action, rewarded ``illegal_reward`` (the others 0)."""
        assert self.illegal_reward is not None
        for d in self._legal:
            self._flags[d.id] = False
        self._legal = []
        assert self._walk is not None
        self._node = Node(self._walk, [], 0)  # where it stands, no decision legal: observed so (off the tree)
        self.rewards[agent] = float(self.illegal_reward)
        self._illegal = str(illegal)
        for a in self.agents:
            self.infos[a] = {"illegal": str(illegal), **({"auto_applied": self.auto_applied} if self.auto else {})}
        self._end()

    def _was_dead_step(self, action: Any) -> None:
        """PettingZoo's step of an agent whose episode is over, for an environment whose agents'
        episodes all end at once: the agent leaves, and the next is the first left (its version
        searches the agents for the dead ones and keeps whom to come back to, 5 µs a step)."""
        if action is not None:
            raise ValueError("when an agent is dead, the only valid action is None")
        agent = self.agent_selection
        for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
            del table[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0

    def mask_row(self, row: NDArray[Any]) -> None:
        """Keep the action mask in ``row`` (int8 or bool, ``layout.size`` long, zeros: no episode
        yet), written in place decision by decision (the vector environment's row of its batch)."""
        self._mask = row
        self._flags = row.data  # an id's flag set or read as a Python bool, not a NumPy scalar
        self._size = len(row)

    def legal(self) -> list[Decision]:
        """The legal decisions now, for ``agent_selection``, sorted by id (empty once the episode
        is over)."""
        return sorted(self._legal, key=lambda d: d.id)

    def mask(self, agent: str | None = None) -> NDArray[np.int8]:
        """The action mask of ``agent`` (default: who decides): all zeros for the other agents (a
        name that is no agent's is refused, as ``observe`` refuses it)."""
        if (agent is None or agent == self.agent_selection) and self._legal:
            return self._mask.copy()
        if agent is not None:
            self._agent(agent)
        return np.zeros(self.layout.size, dtype=np.int8)

    def _synced(self) -> Tracker:
        """The observation's tracker where the walk stands: copied from the board's kept one the
        first time an episode on a kept board needs it, then following the walk from where it last did."""
        tracker = self._tracker
        if tracker is None:
            kept = self._kept
            assert kept is not None
            tracker = self._tracker = kept.copy(kept.walk)
        for walk in self._behind:  # walk by walk, as each was stood at (Tracker.update follows one step at a time)
            tracker.update(walk)
        self._behind.clear()
        return tracker

    def _seen(self, player: PlayerId) -> NDArray[np.int16]:
        """The observation from ``player`` 's seat where the walk stands, kept at its point of the
        tree (never to be changed: the doors give copies)."""
        node = self._node
        if node is None:
            raise RuntimeError("no episode yet: call reset() first")
        found = node.seen.get(player)
        if found is None:
            found = node.seen[player] = self._synced().observe(player, self._legal)
        return found

    def observe(self, agent: str) -> Observation:
        legal = self._legal
        if self._node is None:
            raise RuntimeError("no episode yet: call reset() first")
        # player() and mask() inline: every step of PettingZoo's loop asks
        player = self._player_of.get(agent) if isinstance(agent, str) else None
        if player is None:  # an empty seat observes nothing (a name that is no agent's is refused)
            self._agent(agent)
            observation = np.zeros(self.observer.size, dtype=np.int16 if self._key == "observation" else np.float32)
        elif self._key == "observation":
            observation = self._seen(player).copy()
        else:
            observation = self._seen(player).astype(np.float32)
        if legal and agent == self.agent_selection:
            return {self._key: observation, "action_mask": self._mask.copy()}
        return {self._key: observation, "action_mask": np.zeros(self._size, dtype=np.int8)}

    def observation(self, player: PlayerId, out: NDArray[np.int16] | None = None) -> NDArray[np.int16]:
        """The observation vector from ``player`` 's seat (kept up to date decision by decision),
        written into ``out`` if given."""
        found = self._seen(player)
        if out is None:
            return found.copy()
        out[:] = found
        return out

    def state(self) -> NDArray[np.int16]:
        """The observation from the active player's seat."""
        return self.observation(self.seats[0])

    def render(self) -> str | NDArray[np.uint8] | None:
        """The stack so far, top first, and who decides what (``ansi`` returns it, ``human`` prints it,
        ``rgb_array`` returns it drawn)."""
        if self.render_mode is None or self._walk is None:
            return None
        return shown(self.render_mode, self.stepper, self.walk, self.legal(), self._illegal)

    def close(self) -> None:
        """Nothing to release (no window, no process)."""


def raw_env(scenario: ScenarioSource, **kwargs: Any) -> TriggerStackEnv:
    """The environment without PettingZoo's wrappers (see :class:`TriggerStackEnv`)."""
    return TriggerStackEnv(scenario, **kwargs)
