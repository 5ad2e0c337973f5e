"""The views a seat is sent, built without a server: what they hide, their JSON as the
server encodes it, the parts kept on the table following every change of the cards, a
void hand's summary and the hand arranged under the table's rules."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chinchon.rules import PRESETS
from chinchon.server.tables import Table
from chinchon.server.views import view_for

from .conftest import table_record


def test_views_hide_the_others_and_the_stock() -> None:
    records = [table_record(players=4, bots=3), {"kind": "start", "seed": 11, "now": 1}]
    t = Table.replay(records)
    state = t.game.to_dict()
    for seat in range(4):
        v = view_for(t, seat, connected=[True] * 4, now=1.0, summary_seconds=45)
        text = json.dumps({k: v[k] for k in v if k not in ("hand", "melds", "hints")})
        assert sorted(v["hand"]) == sorted(state["hands"][seat])
        for other in range(4):
            if other != seat:
                assert not any(f'"{c}"' in text or c in v["hand"] for c in state["hands"][other])
        assert not any(f'"{c}"' in json.dumps(v) for c in state["stock"])


def _next_event(t: Table, seed: int, now: float, rng: random.Random, *, drop: bool,
                seat: int) -> dict[str, Any]:
    """The table's next event in a scripted game: its start, ``seat`` dropping (when
    ``drop``) and coming back at the next event, else the first seat's scripted move
    (every seat connected), or the next hand."""
    from chinchon.server import scripted

    if t.game is None:
        r: dict[str, Any] = {"kind": "start", "seed": seed}
    elif drop and not t.game.disconnected:
        r = {"kind": "disconnect", "seat": seat}
    elif t.game.disconnected:
        r = {"kind": "reconnect", "seat": seat}
    else:
        views = [view_for(t, s, connected=[True] * 3, now=now, summary_seconds=45)
                 for s in range(3)]
        acts = [(s, scripted.choose(v, rng)) for s, v in enumerate(views)]
        acts = [(s, a) for s, a in acts if a is not None]
        if not acts:
            r = {"kind": "next_hand"}
        else:
            s, a = acts[0]
            r = {"kind": a.pop("type"), "seat": s, **a}
    r["now"] = now
    return r


def test_encoded_views_are_the_views_as_json() -> None:
    """The views the server sends, put together from parts encoded once and kept, are
    the JSON of :func:`view_for` (through hands, closes, summaries, disconnections)."""
    from chinchon.server.views import encode_views

    rng = random.Random(4)
    for seed in (3, 8):
        t = Table.replay([table_record(),
                          {"kind": "join", "seat": 1, "name": "Bé <b>", "token_sha256": "",
                           "now": 1},
                          {"kind": "join", "seat": 2, "name": "C", "token_sha256": "", "now": 1}])
        now = 2.0
        checked = 0
        for k in range(600):
            connected = [True, k % 5 != 0, True]
            texts = encode_views(t, [0, 1, 2], connected=connected, now=now, summary_seconds=45)
            for seat in range(3):
                assert texts[seat] == json.dumps(
                    view_for(t, seat, connected=connected, now=now, summary_seconds=45),
                    separators=(",", ":"), ensure_ascii=False)
            checked += 1
            if t.status == "over":
                break
            now += 0.7
            t.apply(_next_event(t, seed, now, rng, drop=k % 41 == 7, seat=1))
        assert checked > 50


def test_kept_parts_of_the_views_follow_every_change_of_the_cards() -> None:
    """The parts of the views kept on the table between events (each seat's cards, the
    last event, the seats, the last closed hand) are what a table with nothing kept
    encodes, after every event of whole games: draws, discards, closes, new hands,
    disconnections; and the state stored with each event restores the table."""
    from chinchon.server.views import encode_views

    rng = random.Random(11)
    for seed in (5, 21):
        t = Table.replay([table_record(),
                          {"kind": "join", "seat": 1, "name": "B", "token_sha256": "", "now": 1},
                          {"kind": "join", "seat": 2, "name": "C", "token_sha256": "", "now": 1}])
        now, kinds = 2.0, set()
        connected = [True] * 3
        for k in range(2000):
            kept = encode_views(t, [0, 1, 2], connected=connected, now=now, summary_seconds=45)
            t.encoded.clear()
            assert kept == encode_views(t, [0, 1, 2], connected=connected, now=now,
                                        summary_seconds=45), (k, t.last)
            # and the state stored with the event restores the table itself
            state = t.state_json()[0]
            restored = Table.restore(t.meta_json(), t.base_game_json(), state)
            assert restored.fingerprint() == t.fingerprint(), (k, t.last)
            if t.status == "over":
                break
            now += 0.5
            r = _next_event(t, seed, now, rng, drop=k % 37 == 5, seat=2)
            kinds.add(r["kind"])
            t.apply(r)
        assert {"draw", "discard", "close", "next_hand", "disconnect"} <= kinds


def test_a_void_hand_is_summed_up_without_a_settlement() -> None:
    """A hand voided at the stock (conga) has no closer and no settlement: the summary
    names it void, lays out no meld, and the encoded views are still the views."""
    from chinchon.server.views import encode_views

    from .conftest import void_hand_records

    t = Table.replay(void_hand_records("T1", "0" * 64))
    assert t.game is not None
    t.apply({"kind": "discard", "seat": 0, "card": str(t.game.held(0)[0]), "now": 5.0})
    assert t.game.phase == "summary" and t.game.last_hand.void
    assert t.summary_since == 5.0 and t.ready == [False] * 3
    connected = [True] * 3
    texts = encode_views(t, [0, 1, 2], connected=connected, now=9.0, summary_seconds=45)
    for seat in range(3):
        view = view_for(t, seat, connected=connected, now=9.0, summary_seconds=45)
        assert texts[seat] == json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        assert view["game"]["last_hand"]["outcome"] == "void"
        shown = view["game"]["last_hand_shown"]
        assert "void" in shown["title"] and "nobody scores" in shown["note"]
        assert shown["melds"] == [[] for _ in view["game"]["last_hand"]["order"]]


@pytest.mark.parametrize("preset, players", [("fifty", 3), ("conga", 2)])
def test_a_seats_hand_is_arranged_under_the_tables_rules(preset: str, players: int) -> None:
    """The private view's hand, melds and deadwood come from the table's rules (jokers
    meld), not the house rules: the same as best_melds under those rules."""
    import chinchon

    rules = PRESETS[preset]
    checked = jokers = 0
    for seed in range(40):
        record = Table.new_record("T1", players=players, preset=preset, rules=rules,
                                  name="Ana", token_sha256="0" * 64, bots=players - 1,
                                  bot="greedy", now=0.0)
        t = Table.replay([record, {"kind": "start", "seed": seed, "now": 1}])
        for seat in range(players):
            held = t.game.held(seat)
            want = chinchon.best_melds(held, decks=t.game.decks, rules=rules)
            v = view_for(t, seat, connected=[True] * players, now=1.0, summary_seconds=45)
            shown = [str(c) for c in want.table_order()]
            sizes = [len(m.cards) for m in want.melds]
            assert v["melds"] == [shown[sum(sizes[:i]):sum(sizes[:i + 1])]
                                  for i in range(len(sizes))]
            assert v["hand"] == shown
            assert v["deadwood"] == (want.points if len(held) == 7 else None)
            checked += 1
            jokers += any(rules.is_joker(c) for c in held)
    assert checked and jokers  # hands with a joker were among them


@pytest.mark.parametrize("players", [5, 6])
def test_encoded_views_of_two_decks_are_the_views_as_json(players: int) -> None:
    """With two decks a hand may hold two of a card: its hints have one key for both,
    as the view's dict has them, and the seat to act's half of the encoded view (kept
    parts, hints encoded one by one) is still the JSON of :func:`view_for`."""
    from chinchon.server import scripted
    from chinchon.server.views import encode_views

    rng = random.Random(players)
    twice = checked = 0
    for seed in range(3):
        t = Table.replay([table_record(players=players, bots=players - 1),
                          {"kind": "start", "seed": seed, "now": 1}])
        seats, connected = list(range(players)), [True] * players
        for _ in range(900):
            texts = encode_views(t, seats, connected=connected, now=2.0, summary_seconds=45)
            views = [view_for(t, s, connected=connected, now=2.0, summary_seconds=45)
                     for s in seats]
            for s in seats:
                assert texts[s] == json.dumps(views[s], separators=(",", ":"),
                                              ensure_ascii=False), (seed, s, t.seq)
                hints, hand = views[s]["hints"], views[s]["hand"]
                if hints is not None:  # a hint for each card of the hand, one for two
                    assert len(hints) == len(set(hand))
                    twice += len(set(hand)) < len(hand)
            checked += 1
            if t.status == "over":
                break
            acts = [(s, scripted.choose(views[s], rng)) for s in seats]
            acts = [(s, a) for s, a in acts if a is not None]
            r: dict[str, Any] = ({"kind": "next_hand"} if not acts else
                                 {"kind": acts[0][1].pop("type"), "seat": acts[0][0],
                                  **acts[0][1]})
            r["now"] = 2.0
            t.apply(r)
    assert checked > 300 and twice > 0


#: the scripted session of tests/server/transcript.py: its messages but the welcome
#: (which names the package's version), their count and the SHA-256 of their text
SESSION_MESSAGES = 16140
SESSION_SHA256 = "32eedb7a63b5ee15ab49aea48f6b31b994f16b5f2b68c7cc12524ec83a8ae1ab"


def test_a_scripted_sessions_messages_are_the_same_text() -> None:
    """Every message of a scripted session (every preset and player count the server
    seats, played to the end of each game with bots, drops, resumes, a restart,
    refusals; see tests/server/transcript.py), byte for byte: a change to the text of
    any view, or of any other message, fails here. Clients parse this text
    (docs/protocol.md): when a change to it is meant, compare the transcripts of the
    two versions (``python tests/server/transcript.py OUT`` on each) to see that only
    what was meant changed, then pin the new digest."""
    from .transcript import digest, session

    lines = [line for line in session()
             if not line.split(" ", 1)[1].startswith('{"type":"welcome"')]
    assert (len(lines), digest(lines)) == (SESSION_MESSAGES, SESSION_SHA256)


def test_the_servers_modules_run_compiled_where_the_core_is_native() -> None:
    """A native build compiles the server's modules that run on every message
    (chinchon.server.COMPILED_MODULES, CMakeLists.txt) and those are what Python
    imports; a pure-Python install, or CHINCHON_IMPLEMENTATION=python, runs their
    source. (Not run on a build configured without them, CHINCHON_COMPILED_SERVER=OFF:
    .ci/sanitize_pytest.sh.)"""
    import importlib

    import chinchon.server as server
    from chinchon import _backend

    forced = os.environ.get("CHINCHON_IMPLEMENTATION", "").strip().lower() == "python"
    native = _backend.IMPLEMENTATION == "native" and not forced
    assert server.compiled() == native
    for name in server.COMPILED_MODULES:
        path = importlib.import_module(f"chinchon.server.{name}").__file__ or ""
        assert path.endswith(".py") != native, (name, path)
    cmake = Path(__file__).resolve().parents[2] / "CMakeLists.txt"
    if cmake.exists():  # a checkout (not the tests run beside an installed wheel)
        listed = re.search(r"^set\(CHINCHON_SERVER_MODULES (.*)\)$", cmake.read_text(),
                           re.MULTILINE)
        assert listed is not None and tuple(listed.group(1).split()) == server.COMPILED_MODULES


def test_a_scripted_session_is_the_same_text_from_the_source(tmp_path: Path) -> None:
    """The scripted session of the test above with the server's modules imported
    from their source (CHINCHON_IMPLEMENTATION=python, in a process of its own): the
    same text byte for byte, so the compiled modules and their source do the same."""
    from .transcript import digest

    root = Path(__file__).resolve().parents[2]
    out = tmp_path / "session.txt"
    code = ("import sys; import chinchon.server as s; assert not s.compiled(); "
            "from tests.server.transcript import main; sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, CHINCHON_IMPLEMENTATION="python")
    subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", code, str(out)],
                   env=env, cwd=root, check=True, capture_output=True, timeout=600)
    lines = [line for line in out.read_text(encoding="utf-8").splitlines()
             if not line.split(" ", 1)[1].startswith('{"type":"welcome"')]
    assert (len(lines), digest(lines)) == (SESSION_MESSAGES, SESSION_SHA256)
