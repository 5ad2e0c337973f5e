"""Damaged snapshots and logs are refused with an error that names the damage: the
JSON limits, each field out of range, cards twice or missing, a settlement that is not
the cards, the event of a log that does not replay. (The random damage is in
test_snapshot_fuzz.py.)"""

from __future__ import annotations

import json

import pytest

from chinchon import Game, IllegalAction, Rules
from chinchon.bots import GreedyBot, play_turn


@pytest.mark.parametrize("text", [
    "[" * 100_000, "{" * 100_000, '{"a":' * 100_000, "[" * 30 + "]" * 30,
    '{"format":2,' + '"x":[' * 40 + "]" * 40 + "}",
])
def test_deep_nesting_is_refused_before_parsing(text):
    with pytest.raises(IllegalAction, match="nests deeper|not JSON|missing|unknown"):
        Game.from_json(text)


def test_json_limits():
    g = Game(3, seed=1)
    text = g.to_json()
    for bad in ["", "not json", "NaN", "[1]", "5", "null", b"\xff\xfe", b"\x80"]:
        with pytest.raises(IllegalAction):
            Game.from_json(bad)
    with pytest.raises(IllegalAction, match="over the limit"):
        Game.from_json(text + " " * Game.MAX_JSON_BYTES)
    with pytest.raises(IllegalAction, match="hand_number"):
        Game.from_json(text.replace('"hand_number":1', '"hand_number":1e400'))
    with pytest.raises(IllegalAction, match="not JSON"):
        Game.from_json(text.replace('"hand_number":1', '"hand_number":' + "9" * 5000))
    with pytest.raises(IllegalAction):
        Game.from_json(text.replace('"turns":0', '"turns":NaN'))
    for bad in (5, None, 3.5, [text]):
        with pytest.raises(IllegalAction):
            Game.from_json(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("field,value,words", [
    ("names", ["a"], "names must hold 2 to 6"),
    ("names", ["a", 5, "c"], r"names\[1\] must be a string"),
    ("totals", [0, 0, "x"], r"totals\[2\] must be an int"),
    ("totals", [0, 0, 1.5], r"totals\[2\] must be an int"),
    ("totals", [0, 0], "totals must hold 3 entries"),
    ("chips", [2, 2, -1], r"chips\[2\] must be 0..2"),
    ("chips", [2, 2, 3], r"chips\[2\] must be 0..2"),
    ("in_game", [True, True, 1], r"in_game\[2\] must be true or false"),
    ("lead", 3, "lead must be 0..2"),
    ("turn", 7, "turn must be 0..2"),
    ("turn", None, "turn must be a seat"),
    ("phase", "play", "phase must be one of"),
    ("phase", "over", "result must be set exactly when"),
    ("result", {"status": "won", "winner": 0}, "result must be set exactly when"),
    ("hand_number", 0, "hand_number must be 1"),
    ("hand_number", True, "hand_number must be an int"),
    ("seed", 2**300, "seed must be an int of at most 256 bits"),
    ("rng", [3, [0] * 625, None], "all zeros"),
    ("rng", [2, [1] * 625, None], r"rng\[0\] must be 3..3"),
    ("rng", [3, [1] * 624 + [625], None], r"rng\[1\]\[624\] must be 0..624"),
    ("rng", [3, [2**32] + [1] * 624, None], r"rng\[1\]\[0\] must be an int 0..4294967295"),
    ("rng", [3, [1] * 625, float("nan")], r"rng\[2\]"),
    ("rng", ["xoshiro256**"] + ["0" * 16] * 4, "rng is all zeros"),
    ("rng", ["xoshiro256**"] + ["1" * 16] * 3, r"rng must be \['xoshiro256\*\*'"),
    ("rng", ["pcg64"] + ["1" * 16] * 4, r"rng must be \['xoshiro256\*\*'"),
    ("rng", ["xoshiro256**", "1" * 16, "1" * 15, "1" * 16, "1" * 16],
     r"rng\[2\] must be 16 lowercase hex digits"),
    ("rng", ["xoshiro256**", "1" * 16, "1" * 16, "ABCDEF0123456789", "1" * 16],
     r"rng\[3\] must be 16 lowercase hex digits"),
    ("rng", ["xoshiro256**", "1" * 16, "1" * 16, "1" * 16, 5],
     r"rng\[4\] must be 16 lowercase hex digits"),
    ("rules", {"close_limit": 10**400}, "close_limit must be an int 0..255"),
    ("rules", {"reconnect_seconds": 10**400}, "reconnect_seconds must be a number"),
    ("rules", {"colour": 1}, "not a valid rule set: .*unknown field .colour."),
    ("disconnected", [[0, float("nan")]], r"disconnected\[0\]\[1\] must be a finite"),
    ("disconnected", [[0, 1], [0, 2]], "lists seat 0 twice"),
    ("disconnected", [[5, 1]], r"disconnected\[0\]\[0\] must be 0..2"),
    ("face_down", "1o", "appears 2 times|face_down"),
    ("format", 4, "format must be one of"),
    ("format", True, "format must be one of"),
    ("log", [], "log must hold 1 to"),
    ("log", [{"event": "draw", "source": "stock"}], r"log\[0\].event must be one of"),
    ("extra", 1, "unknown field 'extra'"),
])
def test_each_damaged_field_is_named(field, value, words):
    g = Game(3, seed=1, lead=0)
    d = json.loads(g.to_json())
    d[field] = value
    with pytest.raises(IllegalAction, match=words):
        Game.from_json(d)


def test_card_damage_is_named():
    g = Game(3, seed=1, lead=0)
    d = json.loads(g.to_json())
    d["hands"][1][0] = d["hands"][0][0]  # one card twice, another missing
    with pytest.raises(IllegalAction, match="appears 2 times in the game; expected 1"):
        Game.from_json(d)
    d = json.loads(g.to_json())
    d["stock"].append(d["hands"][2].pop())  # a hand one card short
    with pytest.raises(IllegalAction, match=r"hands\[2\] must hold 7 cards"):
        Game.from_json(d)
    d = json.loads(g.to_json())
    d["hands"][0][3] = "13o"
    with pytest.raises(IllegalAction, match=r"hands\[0\]\[3\] is not a card"):
        Game.from_json(d)


def test_a_settlement_that_is_not_the_cards_is_refused():
    g = Game(3, seed=4)
    bots = [GreedyBot(s) for s in range(3)]
    while g.phase != "summary":
        play_turn(g, bots)
        if g.result is not None:
            pytest.skip("the game ended on its first close")
    d = json.loads(g.to_json())
    d["last_hand"]["settlement"]["closer"]["points"] += 1
    d["last_hand"]["settlement"]["points"][0] += 1
    seat = d["last_hand"]["closer"]
    d["last_hand"]["points"][seat] += 1
    with pytest.raises(IllegalAction, match="last_hand.settlement is not the settlement"):
        Game.from_json(d)


def test_replay_names_the_event_that_does_not_replay():
    g = Game(3, seed=2, lead=0)
    g.discard(g.draw("stock"))
    log = g.log
    log[2]["card"] = str(g.held(1)[0])  # seat 1's card, not seat 0's to throw
    with pytest.raises(IllegalAction, match=r"log\[2\] \(discard\) does not replay"):
        Game.replay(log)
    with pytest.raises(IllegalAction, match=r"log\[1\].source must be a string"):
        Game.replay([log[0], {"event": "draw", "source": ["stock"]}])
    with pytest.raises(IllegalAction, match=r"log\[1\].seat is missing"):
        Game.replay([log[0], {"event": "rejoin"}])
    with pytest.raises(IllegalAction, match=r"log\[1\] \(reshuffle\)|not empty"):
        Game.replay([log[0], {"event": "reshuffle"}, {"event": "draw", "source": "stock"}])
    with pytest.raises(IllegalAction, match="no disconnected seat"):
        Game.replay([log[0], {"event": "timeout", "now": 5}])
    with pytest.raises(IllegalAction, match="log must be a list"):
        Game.replay(None)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match=r"log\[0\].players"):
        Game.replay([dict(log[0], players=[1, 2, 3])])
    with pytest.raises(IllegalAction, match=r"log\[0\].rules"):
        Game.replay([dict(log[0], rules={"close_limit": -1})])


def test_states_the_rules_never_reach_are_refused():
    """Who is in, the totals, the turn and the void as the rules leave them: a seat in
    over the limit loaded, and a rejoin then put another seat in at 95 of 70."""
    g = Game(3, seed=1, lead=0)
    d = json.loads(g.to_json())
    d["totals"][2] = 95
    with pytest.raises(IllegalAction, match=r"totals\[2\] is 95, over eliminate_above "
                                            r"\(70\), for a seat in the game"):
        Game.from_json(d)
    d = json.loads(g.to_json())
    d["in_game"][1] = False
    d["stock"] += d["hands"][1]
    d["hands"][1] = []
    with pytest.raises(IllegalAction, match=r"in_game\[1\] is false for a total of 0"):
        Game.from_json(d)
    d["totals"][1] = 71  # out over the limit: a state the rules reach
    assert Game.from_json(d).in_game == (True, False, True)
    d = json.loads(g.to_json())
    d["turn"] = 2  # no turn played: the lead's
    with pytest.raises(IllegalAction, match=r"turn is seat 2, but 0 turn\(s\) after the "
                                            r"lead \(seat 0\) it is seat 0's"):
        Game.from_json(d)
    d = json.loads(g.to_json())
    d["discard"] += d["stock"][:5]
    d["stock"] = d["stock"][5:]
    with pytest.raises(IllegalAction, match="discard holds 6 cards before the first"):
        Game.from_json(d)


def _closed(players, rules, seed=1):
    """A game whose first hand has just closed (the first close any turn allows)."""
    g = Game(players, seed=seed, rules=rules)
    while g.last_hand is None or g.last_hand.void:
        actions = g.legal_actions()
        closes = [a for a in actions if a.kind == "discard" and a.close]
        g.apply(closes[0] if closes else actions[0])
    return g


def test_the_closed_hand_agrees_with_the_lead_turns_and_result():
    """The closer is the seat the lead and the turns give; a close that puts every seat
    out ends the game as all_out says (both loaded before, whatever they said)."""
    g = _closed(3, None, seed=2)
    d = json.loads(g.to_json())
    assert d["phase"] == "summary" and Game.from_json(d).to_json() == g.to_json()
    for key, step in (("lead", 1), ("turns", 1), ("turns", -1)):
        e = json.loads(g.to_json())
        e[key] = (e[key] + step) % 3 if key == "lead" else e[key] + step
        with pytest.raises(IllegalAction, match=r"turns is \d+: turn \d+ of a hand led by "
                                                r"seat \d is not the closer's"):
            Game.from_json(e)
    g = _closed(2, Rules(first_round_close=False))
    d = json.loads(g.to_json())
    assert d["turns"] >= 3
    d["turns"] = 1 + (d["turns"] - 1) % 2  # the same closer, in the first round
    with pytest.raises(IllegalAction, match=r"the hand closed before every player had "
                                            r"played a turn \(first_round_close=False\)"):
        Game.from_json(d)
    g = _closed(2, Rules(all_out="lowest", eliminate_above=0))
    low = min(range(2), key=lambda s: g.totals[s])
    assert g.result.status == "won" and g.result.winner == low and len(set(g.totals)) == 2
    for result in ({"status": "won", "winner": 1 - low, "reason": "x"},
                   {"status": "draw", "winner": None, "reason": "x"}):
        d = json.loads(g.to_json())
        d["result"] = result
        with pytest.raises(IllegalAction, match=r"result is .* where every player went "
                                                r"out at once \(all_out='lowest'\): it is "
                                                rf"'won' \(winner {low}\)"):
            Game.from_json(d)


def test_a_close_that_ended_the_game_keeps_its_result():
    """A close that left fewer than two players in, or a chinchón, set the result at
    once, and nothing cancels a finished game: another result (cancelled, a draw for a
    chinchón) loaded."""
    g = _closed(2, Rules(all_out="lowest", eliminate_above=0))
    d = json.loads(g.to_json())
    d["result"] = {"status": "cancelled", "winner": None, "reason": "x"}
    with pytest.raises(IllegalAction, match=r"result is 'cancelled' where the close of "
                                            r"hand 1 left 0 player\(s\) in the game"):
        Game.from_json(d)
    chinchon = Game(2, seed=1, lead=0, deck=_chinchon_deck())
    chinchon.draw("stock")
    chinchon.discard("12e", close=True)
    assert chinchon.result.status == "won" and chinchon.last_hand.outcome == "chinchon"
    for result in ({"status": "cancelled", "winner": None, "reason": "x"},
                   {"status": "draw", "winner": None, "reason": "x"}):
        d = json.loads(chinchon.to_json())
        d["result"] = result
        if result["status"] == "draw":  # as a draw would need: nobody in
            d["totals"], d["in_game"] = [71, 71], [False, False]
        with pytest.raises(IllegalAction, match=r"where the chinchón of hand 1 ended the "
                                                r"game, won by its closer \(seat 0\)"):
            Game.from_json(d)


def _chinchon_deck():
    """Seat 0 holds 1c-7c, 9e is turned up and 12e starts the stock: seat 0 draws it and
    closes with a chinchón."""
    from chinchon.cards import full_deck

    first = ["1c", "2c", "3c", "4c", "5c", "6c", "7c"]
    second = ["1o", "3o", "5o", "7o", "10e", "11b", "2b"]
    dealt = first + second + ["9e", "12e"]
    return dealt + [str(c) for c in full_deck() if str(c) not in dealt]


def _first_card(seat):
    """The list holding a kept card of a seat's record, and its index there."""
    if seat["melds"]:
        return seat["melds"][0]["cards"], 0
    if seat.get("layoffs"):
        return seat["layoffs"][0], 0
    return seat["unmatched"], 0


def test_the_last_hands_record_is_settled_again():
    """In the next hand the last hand's record is no longer the cards held: it was read
    for types only (a joker the rules lack, a card twice in one deck loaded, and every
    seat saw them). The hands it lays out are settled again."""
    g = _closed(3, Rules.preset("classic"), seed=2)
    g.next_hand()
    base = json.loads(g.to_json())
    assert Game.from_json(base).to_json() == g.to_json()
    closer_cards, k = _first_card(base["last_hand"]["settlement"]["closer"])
    for damage in ("*1", closer_cards[k]):
        d = json.loads(g.to_json())
        cards, k = _first_card(d["last_hand"]["settlement"]["opponents"][0])
        cards[k] = damage
        with pytest.raises(IllegalAction, match=r"last_hand is not the settlement of the "
                                                r"hands it lays out: .*opponent 1"):
            Game.from_json(d)


def test_a_stock_that_voided_the_hand_is_refused():
    """Under conga (void at 2 cards) a draw with 2 left in the stock loaded, and the
    game then turned the pile over, which those rules never do."""
    for seed in range(100):  # a first hand still open after 4 turns
        g = Game(2, seed=seed, rules="conga", lead=0)
        bots = [GreedyBot(s) for s in range(2)]
        while g.phase in ("draw", "discard") and g.turns_this_hand < 4:
            play_turn(g, bots)
        if g.phase == "draw" and g.hand_number == 1:
            break
    assert g.phase == "draw" and g.turns_this_hand == 4
    d = json.loads(g.to_json())
    keep = len(d["stock"]) - 3
    d["discard"] = d["stock"][:keep] + d["discard"]  # 3 left: still a hand
    d["stock"] = d["stock"][keep:]
    assert Game.from_json(d).stock_size == 3
    d["discard"] = d["stock"][:1] + d["discard"]  # 2 left: the hand was void
    d["stock"] = d["stock"][1:]
    with pytest.raises(IllegalAction, match=r"stock holds 2 cards in the 'draw' phase: "
                                            r"the hand is void once a discard leaves 2"):
        Game.from_json(d)


def test_names_are_bounded_so_that_every_game_saves():
    """A name of millions of characters made a game whose own snapshot was over the
    size from_json reads; names are now at most MAX_NAME_CHARS, both ways."""
    from chinchon.game.capture import MAX_NAME_CHARS

    longest = "é" * MAX_NAME_CHARS
    g = Game([longest, "b"])
    assert Game.from_json(g.to_json()).names == (longest, "b")
    with pytest.raises(IllegalAction, match=rf"names\[1\] must be a str of at most "
                                            rf"{MAX_NAME_CHARS} characters"):
        Game(["a", "b" * (MAX_NAME_CHARS + 1)])
    d = json.loads(g.to_json())
    d["names"][0] += "x"
    with pytest.raises(IllegalAction, match=rf"names\[0\] must be at most {MAX_NAME_CHARS}"):
        Game.from_json(d)
