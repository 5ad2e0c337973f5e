"""Writes snapshots_format2.json: format-2 snapshots (the Mersenne Twister generator's
state inside) and, for each, a digest of how the game continues, so that
tests/game/test_snapshots.py can check that an old snapshot still loads and continues
exactly as it did. It was run once with the code of commit 68772b7 (the last with
``random.Random`` as the game's generator); running it again today writes snapshots of
the current format, not format 2."""

import hashlib
import json
import pathlib
import sys

from chinchon import Game, Rules
from chinchon.bots import GreedyBot, play_turn


class NoShake:
    """A bot generator that never shakes (so the continuation needs no bot randomness)."""

    def random(self):
        return 0.99

    def randrange(self, n):  # pragma: no cover - not reached without a shake
        raise AssertionError


def seats(n):
    bots = [GreedyBot(0) for _ in range(n)]
    for b in bots:
        b.rng = NoShake()
    return bots


def continuation(g, moves=600):
    """A digest of the next ``moves`` moves of ``g`` under never-shaking greedy bots
    (every state seen: the cards, the turn, the totals), and the moves made."""
    h = hashlib.sha256()
    bots = seats(g.players)
    made = 0
    while g.result is None and made < moves:
        play_turn(g, bots)
        made += 1
        view = [g.phase, g.turn, g.hand_number, [[str(c) for c in h] for h in g.fields()["hands"]],
                [str(c) for c in g.fields()["stock"]], [str(c) for c in g.fields()["discard"]], list(g.totals)]
        h.update(json.dumps(view).encode())
    return h.hexdigest(), made


def main():
    out = []
    for players, seed, rules, moves in [(4, 42, None, 30), (2, 7, "conga", 40), (5, 123, "fifty", 90),
                                        (3, 2**70 + 5, "classic", 100), (4, -9, None, 0)]:
        g = Game(players, seed=seed, rules=Rules.preset(rules) if rules else None)
        bots = seats(players)
        for _ in range(moves):
            if g.result is not None:
                break
            play_turn(g, bots)
        text = g.to_json()
        digest, made = continuation(Game.from_json(text))
        out.append({"snapshot": text, "continuation": digest, "moves": made})
    pathlib.Path(sys.argv[1]).write_text(json.dumps(out, indent=0) + "\n")


if __name__ == "__main__":
    main()
