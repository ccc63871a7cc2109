"""Where a target phrase ends (601.2c): a word the reader knows to end it — never a prefix of one
("blocking" does not end "blocking it") — or a few words in a row ("and return", "this turn")."""

from __future__ import annotations

_END_TEXT = (
    "gets get gains gain has have deals deal loses lose can't cannot becomes become is are was were "
    "phases phase fights fight attacks attack blocks block doesn't explores explore connives connive "
    "mills discards draws reveals sacrifices sacrifice shuffles puts returns exiles searches scries "
    "surveils counts chooses plays casts pays adds assigns perpetually must may to into onto until twice "
    "copies unless instead where equal creates takes skips untaps taps untap during both"
    # "destroy target creature if it's tapped": the target is any creature, the "if" is checked as the
    # ability resolves (608.2c), not as its target is chosen (601.2c)
    " if"
)
_END_WORDS = frozenset(_END_TEXT.split())
_AND_TEXT = (
    "put return exile that you its it then tap untap target each draw create deal gain lose sacrifice destroy "
    "up all every goad another one two three x copy they this a an choose chooses "  # "and up to two target …",
    "investigate"  # "and all other …", "and goad it", "target player and they create …", "… hand and choose a card
    # from it", "support 4 and investigate four times"
)
_AND_WORDS = frozenset(_AND_TEXT.split())
_AMOUNTS = ("a", "an", "one", "two", "three", "four", "five", "x", "up", "any")
_END_RUNS = (
    ("this", "turn"),
    ("for", "each"),
    *(("for", n) for n in _AMOUNTS),  # "search target opponent's library for three cards"
    ("for", "as", "long"),
    ("as", "long", "as"),
    ("at", "random"),
    ("from", "combat"),  # "remove target attacking or blocking creature from combat"
    ("chosen", "at", "random"),  # "target opponent chosen at random": any opponent may be the one
    ("face", "down"),  # "exile the top card of target opponent's library face down"
    ("without", "paying"),
    ("in", "addition"),
    ("in", "its", "owner's"),
    ("from", "the", "top"),
    ("on", "top"),
    ("on", "the", "bottom"),
    ("that", "player's"),
    ("that", "creature's"),
    ("that", "permanent's"),
    ("that", "card's"),
    ("that", "spell's"),
)
# after a player: "all creatures target opponent controls", "have target player discard a card"
_PLAYER_VERBS = frozenset(
    {"controls", "control", "owns", "own", "discard", "mill", "draw", "reveal", "shuffle", "search", "look", "scry"}
    | {"looks", "exchange", "drafts", "faces"}  # "two target players exchange life totals"
)

_EACH_VERBS = frozenset(
    {"draw", "create", "discard", "sacrifice", "mill", "lose", "gain", "get", "put", "return", "exile"}
    | {"search", "shuffle", "reveal", "deal", "scry", "manifest", "secretly"}
)
"""Verbs after "each" in their plural form: "you and target opponent each draw a card"."""


def ends(low: list[str], pos: int, players: bool) -> int:
    """How many words from ``pos`` end the phrase ("." is one, "and return" two), 0 when they do not."""
    w, nxt = [*low[pos : pos + 2], "", ""][:2]
    if w in (".", ",", ";", ":") or w in _END_WORDS or (players and w in _PLAYER_VERBS):
        return 1
    if w == "and" and (nxt in _AND_WORDS or nxt.isdigit()):  # "and 2 damage to up to one target …"
        return 2
    if (w == "each" and (nxt in _END_WORDS or nxt in _EACH_VERBS)) or (w == "don't" and nxt != "control"):
        return 2
    return next((len(run) for run in _END_RUNS if tuple(low[pos : pos + len(run)]) == run), 0)
