"""Reading a saved game back: :func:`read_state` checks a snapshot of the state
completely and gives its fields (the counterpart of :meth:`GameState.to_dict`; what
:meth:`GameState.from_dict` builds the state from).

A snapshot is input like any other: every field's type and range, the cards, the hand
sizes of the phase, the turn, the result and the last hand's record are checked before
anything is set, and anything wrong raises :class:`~chinchon.IllegalAction` naming the
field.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Optional

from .. import _backend as solver
from ..cards import Card
from ..errors import ChinchonError, shown
from ..results import Settlement
from ..rules import Rules
from . import _checks as check
from .capture import MAX_NAME_CHARS, MAX_SEED_BITS, MAX_TOTAL, PHASES
from .deck import (MAX_PLAYERS, MIN_PLAYERS, card_order, deck_for, decks_for, multiset_problem,
                   play_order)
from .records import RESULT_STATUSES, GameResult, HandResult
from .rng import from_state

__all__ = ["read_state"]


def read_state(d: dict[str, Any], field: str = "") -> dict[str, Any]:
    """The fields of :meth:`GameState.to_dict`'s data, checked completely, as
    :meth:`GameState.fields` gives them (but ``rng``: the generator itself).

    ``d`` is input like any other: each field's type and range, the cards (exactly
    the game's deck across the hands, the stock, the discard pile and the face-down
    card), the hand sizes of the phase, the turn, the result and the last hand's
    record (recomputed from the cards when the hand is closed) are checked before
    anything is set, and anything wrong raises :class:`IllegalAction` naming the
    field (``field`` prefixes the names: where ``d`` sits in a larger document). A
    state that loads is one the rules can reach, in the sense that every move
    :meth:`legal_actions` then offers works.
    """
    def at(key: str) -> str:
        return f"{field}.{key}" if field else key

    def get(key: str) -> Any:
        return check.get(d, key, field)

    names = tuple(check.read_str(v, f"{at('names')}[{i}]")
                  for i, v in enumerate(check.read_list(get("names"), at("names"),
                                                        min_len=MIN_PLAYERS, max_len=MAX_PLAYERS)))
    for i, name in enumerate(names):
        if len(name) > MAX_NAME_CHARS:
            raise check.bad(f"{at('names')}[{i}]", f"must be at most {MAX_NAME_CHARS} "
                                                   f"characters, got {len(name)}")
    n = len(names)
    decks = decks_for(n)
    rules = check.read_rules(get("rules"), at("rules"))
    want = deck_for(rules, decks)
    seed = get("seed")
    if type(seed) is not int or seed.bit_length() > MAX_SEED_BITS:
        raise check.bad(at("seed"), f"must be an int of at most {MAX_SEED_BITS} bits, "
                                    f"got {shown(seed)}")
    generator, rng_state = check.read_rng(get("rng"), at("rng"))
    phase = check.read_str(get("phase"), at("phase"), PHASES)
    turn = get("turn")
    if turn is not None:
        turn = check.read_int(turn, at("turn"), 0, n - 1)
    lead = check.read_int(get("lead"), at("lead"), 0, n - 1)
    hand_number = check.read_int(get("hand_number"), at("hand_number"), 1)
    turns = check.read_int(get("turns"), at("turns"), 0)
    hands = [sorted(check.read_cards(h, f"{at('hands')}[{s}]", 8), key=card_order)
             for s, h in enumerate(check.read_list(get("hands"), at("hands"), length=n))]
    stock = check.read_cards(get("stock"), at("stock"), len(want))
    discard = check.read_cards(get("discard"), at("discard"), len(want))
    face_down = get("face_down")
    if face_down is not None:
        face_down = check.read_card(face_down, at("face_down"))
    totals = [check.read_int(t, f"{at('totals')}[{s}]", -MAX_TOTAL, MAX_TOTAL)
              for s, t in enumerate(check.read_list(get("totals"), at("totals"), length=n))]
    in_game = [check.read_bool(b, f"{at('in_game')}[{s}]")
               for s, b in enumerate(check.read_list(get("in_game"), at("in_game"),
                                                     length=n))]
    chips = [check.read_int(c, f"{at('chips')}[{s}]", 0, rules.rejoin_chips)
             for s, c in enumerate(check.read_list(get("chips"), at("chips"), length=n))]
    taken: list[list[Any]] = [[] for _ in range(n)]
    if "taken" in d:  # optional: the cards each seat took from the pile and still holds
        taken = [sorted(check.read_cards(t, f"{at('taken')}[{s}]", 8), key=card_order)
                 for s, t in enumerate(check.read_list(d["taken"], at("taken"), length=n))]
        for s, t in enumerate(taken):
            if Counter(t) - Counter(hands[s]):
                raise check.bad(f"{at('taken')}[{s}]", "must be cards of that seat's hand")
    restocked = None
    if "restocked" in d:  # optional: the cards of the last reshuffle's new stock
        restocked = sorted(check.read_cards(d["restocked"], at("restocked"), len(want)),
                           key=card_order)
        if Counter(stock) - Counter(restocked) or Counter(restocked) - Counter(want):
            raise check.bad(at("restocked"), "must hold the stock's cards, of the deck")
    result = _read_result(get("result"), at("result"), n)
    last = _read_hand_result(get("last_hand"), at("last_hand"), n)

    # the cards: exactly the deck, and each hand's size as the phase says
    held = [c for h in hands for c in h] + stock + discard
    if face_down is not None:
        held.append(face_down)
    problem = multiset_problem(held, want, "in the game")
    if problem is not None:
        raise check.bad("the cards", f"of the hands, stock, discard pile and face-down "
                                     f"card are not the game's deck: {problem}")
    closed = last is not None and last.number == hand_number
    if last is None:
        if hand_number != 1:
            raise check.bad(at("last_hand"), f"is null in hand {hand_number} (only "
                                             f"hand 1 has no last hand)")
    elif not hand_number - 1 <= last.number <= hand_number:
        raise check.bad(at("last_hand.number"), f"must be {hand_number - 1} or "
                                                f"{hand_number}, got {last.number}")
    if (phase == "over") != (result is not None):
        raise check.bad(at("result"), f"must be set exactly when the phase is 'over' "
                                      f"(phase {phase!r}, result {_shown_result(result)})")
    playing = phase in ("draw", "discard")
    if playing and closed or phase == "summary" and not closed:
        raise check.bad(at("last_hand"), f"says hand {hand_number} is "
                                         f"{'closed' if closed else 'open'} in the "
                                         f"{phase!r} phase")
    closed_by_a_close = closed and last is not None and not last.void
    if (face_down is not None) != closed_by_a_close:
        raise check.bad(at("face_down"), "must be a card exactly when the hand is closed "
                                         "(not when it ended void)")
    if playing:
        if turn is None or not in_game[turn]:
            raise check.bad(at("turn"), f"must be a seat in the game in the {phase!r} "
                                        f"phase, got {shown(turn)}")
        if sum(in_game) < 2:
            raise check.bad(at("in_game"), "must hold two players or more during a hand")
        for s in range(n):
            size = 0 if not in_game[s] else 8 if phase == "discard" and s == turn else 7
            if len(hands[s]) != size:
                raise check.bad(f"{at('hands')}[{s}]", f"must hold {size} cards in the "
                                                       f"{phase!r} phase, got "
                                                       f"{len(hands[s])}")
        just_restocked = restocked is not None and Counter(stock) == Counter(restocked)
        if phase == "draw" and not discard and not just_restocked:
            raise check.bad(at("discard"), "is empty at a draw (a turn always ends "
                                           "with a discard, and only a reshuffle, "
                                           "before its draw, empties it)")
    else:
        if turn is not None:
            raise check.bad(at("turn"), f"must be null in the {phase!r} phase, got "
                                        f"{shown(turn)}")
        if phase == "summary" and sum(in_game) < 2:
            raise check.bad(at("in_game"), "must hold two players or more in the summary")
        if closed:
            assert last is not None
            if turns < 1:
                raise check.bad(at("turns"), "must be 1 or more once the hand is closed")
            for s in range(n):
                size = 7 if s in last.order else 0
                if len(hands[s]) != size:
                    raise check.bad(f"{at('hands')}[{s}]", f"must hold {size} cards "
                                                           f"after the close, got "
                                                           f"{len(hands[s])}")
        else:  # cancelled in the middle of a hand
            for s in range(n):
                sizes = (7, 8) if in_game[s] else (0,)
                if len(hands[s]) not in sizes:
                    raise check.bad(f"{at('hands')}[{s}]", f"must hold "
                                                           f"{' or '.join(map(str, sizes))}"
                                                           f" cards, got {len(hands[s])}")
            if sum(len(h) == 8 for h in hands) > 1:
                raise check.bad(at("hands"), "hold 8 cards in more than one seat")
    _check_seats(rules, phase, lead, turn, turns, totals, in_game, stock, discard, at)
    if result is not None:
        alive = sum(in_game)
        if result.status != "cancelled" and not closed:
            raise check.bad(at("result"), f"is {result.status!r} but no hand was closed")
        if result.status == "won":
            assert result.winner is not None and last is not None
            lowest_of_all_out = rules.all_out == "lowest" and alive == 0
            if not in_game[result.winner] and not lowest_of_all_out:
                raise check.bad(at("result.winner"), "is not in the game")
            if last.outcome == "chinchon" and result.winner != last.closer:
                raise check.bad(at("result.winner"), "is not the closer of the chinchón")
            if last.outcome != "chinchon" and alive != 1 and not lowest_of_all_out:
                raise check.bad(at("result"), f"is 'won' with {alive} players in the game")
        elif result.status == "draw" and alive:
            raise check.bad(at("result"), f"is a draw with {alive} players in the game")
    if last is not None:
        _check_hand_result(last, at("last_hand"), n)
        _check_hand_and_table(last, closed, rules, lead, turns, totals, in_game, result, at)
        if closed and last.settlement is not None:
            _check_close_result(last, in_game, result, at)
        if last.closer is not None and last.settlement is not None:
            _check_settled(last, hands if closed else None, decks, rules, at)
        if not closed and last.outcome == "chinchon":
            raise check.bad(at("last_hand.outcome"), "is a chinchón, which ends the game")
    try:  # an old snapshot's random.Random stays one: the game continues as it would have
        rng = from_state(generator, rng_state)
    except ValueError as exc:  # pragma: no cover - checked
        raise check.bad(at("rng"), f"is not a generator state: {exc}") from None

    return {
        "names": names, "rules": rules, "seed": seed, "rng": rng, "phase": phase,
        "turn": turn, "lead": lead, "hand_number": hand_number, "turns": turns,
        "hands": hands, "stock": stock, "discard": discard, "face_down": face_down,
        "taken": taken, "restocked": restocked, "totals": totals, "in_game": in_game,
        "chips": chips, "result": result, "last_hand": last,
    }


def _check_seats(rules: Rules, phase: str, lead: int, turn: Optional[int], turns: int,
                 totals: list[int], in_game: list[bool], stock: list[Any],
                 discard: list[Any], at: Callable[[str], str]) -> None:
    """What the rules make of the totals, who is in and the turn: a seat is in exactly
    while its total is within ``eliminate_above``; during a hand the turn is the seat
    ``turns`` turns after the lead, the pile holds the one card turned up before the
    first discard, and a stock at the void's size has voided the hand. (The totals
    themselves are any: a snapshot may start a table from a score, as the tests'
    tables do.)"""
    limit = rules.eliminate_above
    for s, (total, is_in) in enumerate(zip(totals, in_game)):
        if is_in and total > limit:
            raise check.bad(f"{at('totals')}[{s}]", f"is {total}, over eliminate_above "
                                                    f"({limit}), for a seat in the game")
        if not is_in and total <= limit:
            raise check.bad(f"{at('in_game')}[{s}]", f"is false for a total of {total}, "
                                                     f"within eliminate_above ({limit})")
    if phase not in ("draw", "discard"):
        return
    if not in_game[lead]:
        raise check.bad(at("lead"), f"is seat {lead}, out of the game, during a hand")
    order = play_order(in_game, lead)
    if turn != order[turns % len(order)]:
        raise check.bad(at("turn"), f"is seat {turn}, but {turns} turn(s) after the lead "
                                    f"(seat {lead}) it is seat {order[turns % len(order)]}'s")
    void = rules.void_at_stock
    if turns == 0 and (len(discard) > 1 or phase == "draw" and len(discard) != 1):
        raise check.bad(at("discard"), f"holds {len(discard)} cards before the first "
                                       f"discard (the one card turned up, or none once "
                                       f"the lead took it)")
    if turns and void is not None and len(stock) < void + (phase == "draw"):
        raise check.bad(at("stock"), f"holds {len(stock)} cards in the {phase!r} phase: "
                                     f"the hand is void once a discard leaves "
                                     f"{void} or fewer (void_at_stock)")


def _shown_result(result: Optional[GameResult]) -> str:
    return "null" if result is None else repr(result.status)


def _read_result(value: object, field: str, n: int) -> Optional[GameResult]:
    """A :class:`GameResult` from its ``to_dict`` form (or None), checked."""
    if value is None:
        return None
    d = check.read_object(value, field)
    check.only_keys(d, field, ("status", "winner"), optional=("reason",))
    status = check.read_str(d["status"], f"{field}.status", RESULT_STATUSES)
    winner = d["winner"]
    if status == "won":
        winner = check.read_int(winner, f"{field}.winner", 0, n - 1)
    elif winner is not None:
        raise check.bad(f"{field}.winner", f"must be null when the game ends in a {status!r}, "
                                           f"got {shown(winner)}")
    reason = check.read_str(d.get("reason", ""), f"{field}.reason")
    return GameResult(status, winner, reason)


def _read_hand_result(value: object, field: str, n: int) -> Optional[HandResult]:
    """A :class:`HandResult` from its ``to_dict`` form (or None), each field's type and
    range checked (the record's coherence: :func:`_check_hand_result`)."""
    if value is None:
        return None
    d = check.read_object(value, field)
    check.only_keys(d, field, ("number", "closer", "order", "outcome", "settlement", "points",
                               "eliminated"))
    number = check.read_int(d["number"], f"{field}.number", 1)
    order = tuple(check.read_int(s, f"{field}.order[{i}]", 0, n - 1)
                  for i, s in enumerate(check.read_list(d["order"], f"{field}.order",
                                                        min_len=2, max_len=n)))
    outcome = check.read_str(d["outcome"], f"{field}.outcome")
    closer: Optional[int]
    settlement: Optional[Settlement]
    if outcome == "void":  # no close: no closer, no settlement
        for key in ("closer", "settlement"):
            if d[key] is not None:
                raise check.bad(f"{field}.{key}", "must be null for a void hand")
        closer = settlement = None
    else:
        closer = check.read_int(d["closer"], f"{field}.closer", 0, n - 1)
        settlement = check.read_settlement(d["settlement"], f"{field}.settlement", n)
        if outcome != settlement.outcome:
            raise check.bad(f"{field}.outcome", f"is {outcome!r} but the settlement's is "
                                                f"{settlement.outcome!r}")
    points = tuple(check.read_int(p, f"{field}.points[{s}]")
                   for s, p in enumerate(check.read_list(d["points"], f"{field}.points",
                                                         length=n)))
    eliminated = tuple(check.read_int(s, f"{field}.eliminated[{i}]", 0, n - 1)
                       for i, s in enumerate(check.read_list(d["eliminated"],
                                                             f"{field}.eliminated",
                                                             max_len=n)))
    return HandResult(number, closer, order, settlement, points, eliminated)


def _check_hand_and_table(last: HandResult, closed: bool, rules: Rules, lead: int,
                          turns: int, totals: list[int], in_game: list[bool],
                          result: Optional[GameResult], at: Callable[[str], str]) -> None:
    """The hand just closed against the table: its lead and turns give its closer (and
    under ``first_round_close=False`` a close after every seat's turn), and a close that
    put every seat out ends the game as ``all_out`` says. (Who is in and the totals are
    checked against each other only: a snapshot may set a table's score, and with it who
    is out, without the hands that led there.)"""
    if not closed:
        return
    hand_seats = set(last.order)
    if lead not in hand_seats:
        raise check.bad(at("lead"), f"is seat {lead}, not a seat of the hand")
    order = play_order([s in hand_seats for s in range(len(in_game))], lead)
    if last.settlement is None:  # void: its record lists the seats from the lead
        if last.order[0] != lead:
            raise check.bad(at("last_hand.order"), f"must start with the lead {lead} (a "
                                                   f"void hand)")
        return
    if turns < 1 or last.closer != order[(turns - 1) % len(order)]:
        raise check.bad(at("turns"), f"is {turns}: turn {turns} of a hand led by seat "
                                     f"{lead} is not the closer's (seat {last.closer})")
    if not rules.first_round_close and turns - 1 < len(order):
        raise check.bad(at("turns"), f"is {turns}: the hand closed before every player "
                                     f"had played a turn (first_round_close=False)")
    if result is None or result.status == "cancelled" or any(in_game) \
            or last.outcome == "chinchon":
        return
    low = min(totals[s] for s in last.order)
    lowest = [s for s in last.order if totals[s] == low]
    status, winner = (("won", lowest[0]) if rules.all_out == "lowest" and len(lowest) == 1
                      else ("draw", None))
    if (result.status, result.winner) != (status, winner):
        raise check.bad(at("result"), f"is {result.status!r} (winner {result.winner}) "
                                      f"where every player went out at once "
                                      f"(all_out={rules.all_out!r}): it is {status!r} "
                                      f"(winner {winner})")


#: the last hand record settled again from the cards it lays out, with its rules and
#: decks: a snapshot's log repeats the record in its checkpoint, settled once (compared
#: by value, so another thread's entry is only a miss or a true hit)
_last_settled: Optional[tuple[Settlement, Rules, int]] = None


def _check_settled(last: HandResult, hands: Optional[list[list[Card]]], decks: int,
                   rules: Rules, at: Callable[[str], str]) -> None:
    """The record's settlement is the settlement of the hands: ``hands``, the seats'
    cards while the hand is closed, else each seat's 7 kept cards as the record lays
    them out."""
    global _last_settled
    settlement = last.settlement
    assert settlement is not None and last.closer is not None
    if hands is None:
        if _last_settled == (settlement, rules, decks):
            return
        kept = ([c for m in settlement.closer.melds for c in m.cards]
                + list(settlement.closer.unmatched))
        others = [[c for m in o.melds for c in m.cards] + [c for c, _ in o.layoffs]
                  + list(o.unmatched) for o in settlement.opponents]
        what = "it lays out"
    else:
        kept, others, what = hands[last.closer], [hands[s] for s in last.order[1:]], "held"
    try:
        again = solver.settle(kept, others, decks=decks, rules=rules)
    except ChinchonError as exc:
        raise check.bad(at("last_hand"), f"is not the settlement of the hands {what}: "
                                         f"{exc}") from None
    # the values first (cheap); their JSON forms where the types differ
    if again != settlement and again.to_dict() != settlement.to_dict():
        raise check.bad(at("last_hand.settlement"), f"is not the settlement of the hands "
                                                    f"{what}")
    if hands is None:
        _last_settled = (settlement, rules, decks)


def _check_close_result(last: HandResult, in_game: list[bool],
                        result: Optional[GameResult], at: Callable[[str], str]) -> None:
    """A close that ended the game (a chinchón, or fewer than two players left in) set
    its result at once, and nothing cancels a finished game: the result is the close's."""
    if last.outcome == "chinchon":
        if result is None or (result.status, result.winner) != ("won", last.closer):
            raise check.bad(at("result"), f"is {_shown_result(result)} where the chinchón "
                                          f"of hand {last.number} ended the game, won by "
                                          f"its closer (seat {last.closer})")
    elif sum(in_game) < 2 and (result is None or result.status == "cancelled"):
        raise check.bad(at("result"), f"is {_shown_result(result)} where the close of hand "
                                      f"{last.number} left {sum(in_game)} player(s) in the "
                                      f"game and so ended it")


def _check_hand_result(last: HandResult, field: str, n: int) -> None:
    """The record of a closed hand agrees with itself: the closer leads the order, the
    order is the table's play order, the points per seat are the settlement's, and the
    eliminated seats are seats of the hand."""
    order = last.order
    seats = set(order)
    if last.settlement is None:  # a void hand: the seats of the hand, nobody scores
        if len(seats) != len(order) or list(order) != [
                s for s in ((order[0] + k) % n for k in range(n)) if s in seats]:
            raise check.bad(f"{field}.order", "must list distinct seats in play order")
        if any(last.points) or last.eliminated:
            raise check.bad(f"{field}", "is a void hand with points or eliminations")
        return
    if order[0] != last.closer:
        raise check.bad(f"{field}.order", f"must start with the closer {last.closer}")
    if len(seats) != len(order) or list(order) != [
            s for s in ((last.closer + k) % n for k in range(n)) if s in seats]:
        raise check.bad(f"{field}.order", "must list distinct seats in play order from the "
                                          "closer")
    if len(order) != len(last.settlement.points):
        raise check.bad(f"{field}.order", f"has {len(order)} seats but the settlement "
                                          f"{len(last.settlement.points)}")
    want = [0] * n
    if last.outcome != "chinchon":
        for s, p in zip(order, last.settlement.points):
            want[s] = p
    if list(last.points) != want:
        raise check.bad(f"{field}.points", "are not the settlement's points by seat")
    gone = set(last.eliminated)
    if (len(gone) != len(last.eliminated)
            or list(last.eliminated) != [s for s in order if s in gone]
            or (gone and last.outcome == "chinchon")):
        raise check.bad(f"{field}.eliminated", "must be seats of the hand, in play order "
                                               "(none after a chinchón)")
