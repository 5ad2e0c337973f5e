"""One simulated game: :func:`play_game` plays game ``index`` of a simulation with
``seed`` between bots and returns its :class:`GameRecord`. Game ``i`` depends on
``(seed, i)`` alone (its table and its bots), which is what makes a simulation's
result independent of how its games are spread over processes or machines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Optional, Union

from ..bots import Bot, make_bot, play_turn
from ..game.rng import derive
from ..game.state import GameState
from ..rules import Rules

__all__ = ["GameRecord", "play_game", "game_seed", "BotSpec", "DEFAULT_MAX_TURNS", "MAX_HANDS"]

BotSpec = Union[str, type]

DEFAULT_MAX_TURNS = 1000
#: a game that has played this many hands is stalled too: under rules where no total
#: can grow (every card worth nothing and no winning seven-card run) no game ends
#: (the C engine's ENG_MAX_HANDS)
MAX_HANDS = 10_000


def game_seed(seed: int, index: int, stream: int = 0) -> int:
    """The 63-bit seed of game ``index`` of a simulation with ``seed``: stream 0 seeds
    the table, stream ``1 + s`` the bot at seat ``s``. It is
    ``derive(seed, index, stream) >> 1`` (:func:`chinchon.game.rng.derive`, the
    splitmix64 fold of docs/rules.md#the-shuffle-and-the-generator): 64-bit arithmetic a C
    engine repeats exactly."""
    return derive(seed, index, stream) >> 1


@dataclass
class GameRecord:
    """What one simulated game did."""

    index: int
    status: str  # 'won', 'draw', 'cancelled' or 'stalled'
    winner: Optional[int]
    hands: int
    turns: list[int]  # turns of each closed hand
    outcomes: list[str]  # outcome of each closed hand
    points: list[int]  # hand points of every player in every closed hand
    rejoins: list[int]  # per seat
    totals: list[int]  # final totals per seat
    point_seats: list[int] = field(default_factory=list)  # the seat of each of points


def play_game(players: int, bots: Sequence[BotSpec], seed: int, index: int = 0, *,
              rules: Optional[Rules] = None, max_turns: int = DEFAULT_MAX_TURNS) -> GameRecord:
    """Play one whole game between bots; game ``index`` of a simulation with ``seed``."""
    # the rules' state machine alone: a simulated game needs no clock and no event log
    game = GameState(players, seed=game_seed(seed, index), rules=rules)
    seats = [make_bot(b, game_seed(seed, index, 1 + s)) for s, b in enumerate(bots)]
    return _drive(game, seats, index, max_turns)


def _drive(game: GameState, seats: list[Bot], index: int, max_turns: int) -> GameRecord:
    turns: list[int] = []
    outcomes: list[str] = []
    points: list[int] = []
    point_seats: list[int] = []
    rejoins = [0] * game.players
    stalled = False
    hand_seen = 0
    while game.result is None:
        phase = game.phase
        if phase == "summary":
            if game.hand_number >= MAX_HANDS:
                stalled = True
                break
            chips_before = game.chips
            play_turn(game, seats)
            for s, (a, b) in enumerate(zip(chips_before, game.chips)):
                rejoins[s] += a - b
            continue
        if game.turns_this_hand >= max_turns:
            stalled = True
            break
        play_turn(game, seats)
        last = game.last_hand
        if last is not None and last.number != hand_seen:
            hand_seen = last.number
            turns.append(game.turns_this_hand)
            outcomes.append(last.outcome)
            if not last.void:  # a void hand scores nothing: no hand points to count
                points.extend(last.points[s] for s in last.order)
                point_seats.extend(last.order)
    result = game.result
    return GameRecord(
        index=index,
        status="stalled" if stalled or result is None else result.status,
        winner=None if result is None else result.winner,
        hands=game.hand_number,
        turns=turns,
        outcomes=outcomes,
        points=points,
        rejoins=rejoins,
        totals=list(game.totals),
        point_seats=point_seats,
    )
