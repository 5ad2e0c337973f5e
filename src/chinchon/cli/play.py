"""``chinchon play``: a person against bots in the terminal (reads stdin)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, cast

from .._backend import outlook as solver_outlook
from ..bots import SearchBot, bots_rejoin, make_bot
from ..game.hand_end import close_refused
from ..game.text import hand_result_lines, hand_text, rules_summary, table_lines
from ..cards import Card
from ..errors import ChinchonError
from ..game import Game
from ..results import one_per_card
from ._common import rules_of, rules_options


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "play",
        help="play a game against bots in the terminal",
        description="You are seat 0; the bots take the other seats. Reads your moves "
                    "from stdin (q or end of input quits).",
    )
    p.add_argument("--players", type=int, default=3, choices=range(2, 7), metavar="2-6",
                   help="players at the table, you included (3)")
    p.add_argument("--bots", default="greedy",
                   help="the bots' kind: random, greedy, expert, search, "
                        "search:<playouts> or search:<ms>ms (docs/bots.md)")
    p.add_argument("--outlook", action="store_true",
                   help="show each discard's outlook: the expected points and chances of "
                        "a close after the next draw, over the cards you have not seen")
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable game")
    p.add_argument("--search-threads", type=int, default=1, metavar="N",
                   help="threads of each decision of search bots, 1..64 (1): the same "
                        "moves in less time where cores are free")
    rules_options(p, table=True)
    p.set_defaults(func=run)


class _EndOfInput(Exception):
    pass


def _ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    if sys.stdin is None:  # started with stdin closed: the end of the input
        print()
        raise _EndOfInput
    try:
        line = sys.stdin.readline()
    except UnicodeDecodeError as exc:  # bytes that are not text: stop with one line
        print()
        raise ChinchonError(f"the input is not {exc.encoding} text ({exc.reason})") from None
    if not line:
        print()
        raise _EndOfInput
    return line.strip().lower()


def _yes(prompt: str) -> bool:
    """A yes or no, asked until it is one; ``q`` quits as at every prompt."""
    while True:
        answer = _ask(prompt)
        if answer in ("q", "quit"):
            raise _EndOfInput
        if answer in ("y", "yes", "n", "no"):
            return answer[0] == "y"
        print("Answer y or n (q quits).")


def _show_hand_result(game: Any, names: Sequence[str]) -> None:
    print()
    print("\n".join(hand_result_lines(game, names, you=0)))


def _human_turn(game: Any, me: int, outlook: bool = False) -> None:
    top = game.discard_top
    print()
    print("\n".join(table_lines(game, me)))
    while True:
        choice = _ask(f"Draw from [s]tock or [d]iscard ({top})? " if top is not None
                      else "Draw from [s]tock? ")
        if choice in ("q", "quit"):
            raise _EndOfInput
        source = {"s": "stock", "stock": "stock", "d": "discard", "discard": "discard"}.get(
            choice)
        if source is None or (source == "discard" and top is None):
            print("  type s or d")
            continue
        card = game.draw(source)
        print(f"You drew {card}.")
        break
    options: list[Any] = one_per_card(game.hints())
    best = min(h.points for h in options)
    print("Your hand: " + hand_text(game, me))
    ahead: dict[Any, Any] = {}
    unseen = game.unseen(me) if outlook else None
    if outlook and not unseen:  # every card placed: there is no next draw to look at
        print("(no card is unseen: no outlook this turn)")
        outlook = False
    if outlook:
        ahead = {x.card: x for x in solver_outlook(game.held(me), unseen,
                                                   decks=game.decks, rules=game.rules)}
        print("   #  discard  points left  | after the next draw: expected  close   -10"
              "  chinchon")
    else:
        print("   #  discard  points left")
    for k, h in enumerate(options, 1):
        close_note = f"   [c] Close: {h.outcome.replace('_', ' ')}" if h.can_close else ""
        star = " *" if h.points == best else "  "
        more = ""
        if outlook:
            x = ahead[h.card]
            more = (f"   | {x.expected_points:>28.2f}  {x.p_close:>5.0%}  {x.p_minus_ten:>4.0%}"
                    f"  {x.p_chinchon:>8.1%}")
        print(f"  {k:>2}  {str(h.card):>6}  {h.points:>6}{star}{more}{close_note}")
    can_close = any(h.can_close for h in options)
    prompt = ("Discard which card (number or card; add c to Close)? " if can_close
              else "Discard which card (number or card)? ")
    while True:
        words = _ask(prompt).replace(",", " ").split()
        if words[:1] in (["q"], ["quit"]):
            raise _EndOfInput
        close = any(w in ("c", "close") for w in words)
        rest = [w for w in words if w not in ("c", "close")]
        if len(rest) != 1:
            print("  give one card")
            continue
        pick = None
        if (rest[0].isascii() and rest[0].isdigit() and len(rest[0]) <= 3
                and 1 <= int(rest[0]) <= len(options)):
            pick = options[int(rest[0]) - 1]
        else:
            for h in options:
                if str(h.card) == rest[0] or str(h.card) == str(_try_card(rest[0])):
                    pick = h
        if pick is None:
            print("  not a card you hold")
            continue
        if close and not game.may_close:
            print(f"  you cannot close yet: "
                  f"{close_refused(game.rules, game.turns_this_hand, sum(game.in_game))}")
            continue
        if close and not pick.can_close:
            print(f"  you cannot close discarding {pick.card}: the 7 cards kept leave "
                  f"{pick.points} points, over the close limit {game.rules.close_limit}")
            continue
        game.discard(pick.card, close)
        print(f"You {'close with' if close else 'discard'} {pick.card}.")
        return


def _try_card(text: str) -> Any:
    try:
        return Card.parse(text)
    except ValueError:
        return None


def _bot_seed(seed: int, seat: int) -> int:
    """Seat ``seat``'s bot's seed of the game's ``seed``: ``seed + seat``, taken back
    into the seeds (at most 256 bits) past the largest."""
    return seed + seat if seed + seat < 2**256 else seed + seat - 2**256


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    game = Game(args.players, seed=args.seed, rules=rules)
    me = 0
    names = ["You"] + [f"Bot {i}" for i in range(1, args.players)]
    # the game's own seed, drawn when none was given: the seed printed repeats the bots too
    bots = [make_bot(args.bots, _bot_seed(game.seed, s), threads=args.search_threads)
            for s in range(args.players)]
    if any(isinstance(b, SearchBot) for b in bots):  # said before the game, not in it
        SearchBot.check_rules(rules)
    print(f"Chinchón, {args.players} players, {game.decks} deck"
          f"{'s' if game.decks > 1 else ''}. You are seat 0. Seed {game.seed}.")
    print(f"Rules: {rules_summary(rules)}")
    shown = 0
    try:
        while game.result is None:
            if game.hand_number != shown and game.phase == "draw":
                shown = game.hand_number
                print(f"\n--- hand {shown}: {names[game.lead]} lead"
                      f"{'' if game.lead == me else 's'} ---")
            phase = game.phase
            if phase == "summary":
                _show_hand_result(game, names)
                if not game.in_game[me] and game.chips[me] > 0:
                    high = max(t for t, i in zip(game.totals, game.in_game) if i)
                    if _yes(f"You are out. Rejoin at {high} points "
                            f"({game.chips[me]} chips left)? [y/n] "):
                        game.rejoin(me)
                for seat in bots_rejoin(game, bots, range(1, args.players)):
                    print(f"{names[seat]} rejoins at {game.totals[seat]}.")
                game.next_hand()
                continue
            seat = cast(int, game.turn)  # draw or discard phase: someone's turn
            if seat == me:
                _human_turn(game, me, args.outlook)
            elif phase == "draw":
                source = bots[seat].choose_draw(game.observe(seat), seat)
                card = game.draw(source)
                print(f"{names[seat]} draws from the {source}"
                      + (f" ({card})" if source == "discard" else "") + ".")
            else:
                card, close = bots[seat].choose_discard(game.observe(seat), seat)
                game.discard(card, close)
                print(f"{names[seat]} {'closes' if close else 'discards ' + str(card)}.")
            if game.result is not None and game.last_hand is not None:
                _show_hand_result(game, names)
        r = game.result
        if r.status == "won":
            winner = cast(int, r.winner)  # a won game always names its winner
            print(f"\n{names[winner]} win{'' if winner == me else 's'} the game!")
        else:
            print(f"\nThe game ends: {r.status}.")
    except _EndOfInput:
        print("Bye.")
    return 0
