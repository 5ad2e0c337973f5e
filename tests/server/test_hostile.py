"""A hostile client against a real server: text that is no text (lone surrogates),
numbers and booleans where the protocol wants its own integers, other spellings of the
cards, a person who drops before the game starts. Each gets the documented answer and
the connection (and the table) lives on."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from .conftest import Client, Server  # noqa: E402
from .test_protocol import new_table, wait_view  # noqa: E402


def still_usable(c: Client) -> None:
    """The connection answers a plain ping with its id."""
    reply = c.request({"type": "ping"}, timeout=10)
    assert reply["type"] == "pong", reply


def raw_reply(c: Client, raw: str) -> dict[str, Any]:
    c.send_raw(raw)
    return c.recv(10)


# ---------------------------------------------------------------------------- surrogates

def test_a_lone_surrogate_id_is_refused_and_the_connection_stays(
        server: Server, clients: list[Client]) -> None:
    c = server.client()
    clients.append(c)
    for raw in ('{"type":"ping","id":"\\ud800"}', '{"type":"hack","id":"\\udfff"}',
                '{"type":"ping","id":"a\\udbff"}'):
        reply = raw_reply(c, raw)
        # the id cannot be echoed (it is no text): the error carries none
        assert reply["type"] == "error" and reply["code"] == "bad_message", reply
        assert "id" not in reply and "surrogate" in reply["message"], reply
        still_usable(c)
    # a surrogate pair is a character like any other
    reply = raw_reply(c, '{"type":"ping","id":"\\ud83d\\ude00"}')
    assert reply == {"type": "pong", "id": "\U0001f600"}


def test_a_seated_person_sending_a_lone_surrogate_keeps_the_seat(
        server: Server, clients: list[Client]) -> None:
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    start = wait_view(people[1], lambda v: v["status"] == "playing")
    reply = raw_reply(people[1], '{"type":"ping","id":"\\ud800"}')
    assert reply["code"] == "bad_message"
    still_usable(people[1])
    assert "disconnect" not in [e["kind"] for e in server.events(table)]
    assert start["seats"][1]["connected"]


def test_create_with_a_lone_surrogate_id_makes_no_table(server: Server,
                                                        clients: list[Client]) -> None:
    c = server.client()
    clients.append(c)
    before = {t["id"] for t in c.request({"type": "lobby"})["tables"]}
    reply = raw_reply(c, '{"type":"create","name":"Ghost","players":3,"id":"\\ud800"}')
    assert reply["type"] == "error" and reply["code"] == "bad_message", reply
    after = c.request({"type": "lobby"})["tables"]
    assert {t["id"] for t in after} == before
    assert not any(s["name"] == "Ghost" for t in after for s in t["seats"])
    # and the same connection creates a table normally
    assert c.request({"type": "create", "name": "Real", "players": 3})["type"] == "seated"


def test_resume_with_a_lone_surrogate_token_is_refused_not_an_internal_error(
        server: Server, clients: list[Client]) -> None:
    (host,) = new_table(server, clients, humans=1, players=3)
    c = server.client()
    clients.append(c)
    reply = raw_reply(c, '{"type":"resume","table":"%s","seat":0,"token":"\\ud800","id":4}'
                      % host.table)
    assert reply["type"] == "error" and reply["code"] in ("bad_token", "bad_message"), reply
    assert reply["id"] == 4
    still_usable(c)


# ---------------------------------------------------------------------------- numbers

@pytest.mark.parametrize("v", ["true", "false", "1.0", "1e0", "10e-1", '"1"', "null", "[1]"])
def test_a_version_that_is_not_the_integer_1_is_refused(server: Server, clients: list[Client],
                                                          v: str) -> None:
    c = server.client()
    clients.append(c)
    reply = raw_reply(c, '{"type":"ping","v":%s,"id":7}' % v)
    assert reply["type"] == "error" and reply["code"] == "unsupported_version", reply
    assert reply["id"] == 7
    assert raw_reply(c, '{"type":"ping","v":1,"id":8}') == {"type": "pong", "id": 8}


# ---------------------------------------------------------------------------- cards

def other_spellings(card: str) -> list[str]:
    """Ways the engine reads ``card`` that are not the protocol's text of it."""
    rank, suit = card[:-1], card[-1]
    out = [f"{rank}{suit.upper()}", f" {card}", f"{card} "]
    letter = {"10": "S", "11": "C", "12": "R"}.get(rank)
    if letter is not None:
        out += [f"{letter}{suit}", f"{letter}{suit.upper()}", f"{letter.lower()}{suit}"]
    return out


def test_other_spellings_of_a_card_are_refused_and_the_canonical_text_is_shown(
        server: Server, clients: list[Client]) -> None:
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    start = wait_view(people[0], lambda v: v["status"] == "playing")
    mover = people[start["game"]["turn"]]
    drawn = mover.request({"type": "draw", "source": "stock"})
    seq = server.stored_seq(table)
    hand = drawn["hand"]
    # a figure (10-12) when the hand has one: it has the most other spellings
    card = next((c for c in hand if c[:-1] in ("10", "11", "12")), hand[0])
    for kind in ("discard", "close"):
        for text in other_spellings(card):
            reply = mover.request({"type": kind, "card": text})
            assert reply["type"] == "error" and reply["code"] == "bad_card", (text, reply)
            assert server.stored_seq(table) == seq
    done = mover.request({"type": "discard", "card": card})
    assert done["event"] == {"kind": "discard", "seat": mover.seat, "card": card}
    assert done["game"]["discard_top"] == card
    assert server.events(table)[-1]["card"] == card


# ---------------------------------------------------------------------------- seats

def test_a_person_gone_before_the_start_is_disconnected_from_the_start(
        server: Server, clients: list[Client]) -> None:
    """The server's reconnection wait is 2 s: the table cannot wait for ever."""
    host = server.client()
    clients.append(host)
    host.request({"type": "create", "name": "Host", "players": 3})
    gone = server.client()
    gone.request({"type": "join", "table": host.table, "name": "Gone"})
    gone.close()
    wait_view(host, lambda v: not v["seats"][1]["connected"])
    third = server.client()
    clients.append(third)
    third.request({"type": "join", "table": host.table, "name": "Third"})
    t0 = time.monotonic()
    seen = wait_view(host, lambda v: v["status"] == "playing" and "1" in v["game"]["disconnected"])
    assert 0 < seen["game"]["disconnected"]["1"] <= 2.0
    over = wait_view(host, lambda v: v["status"] == "over", timeout=15)
    assert over["result"]["status"] == "cancelled" and "seat 1" in over["result"]["reason"]
    assert time.monotonic() - t0 < 10
    kinds = [e["kind"] for e in server.events(host.table)]
    assert kinds[kinds.index("start") + 1] == "disconnect"


# ---------------------------------------------------------------------------- the fuzz

#: a valid JSON value for every field of every message type (a new field must be added
#: here, so that the fuzz below covers it)
VALID = {"name": '"Fuzz"', "players": "3", "rules": '"barajamos"', "bots": "0",
         "bot": '"greedy"', "table": '"nosuchtable"', "seat": "0", "token": '"x"',
         "source": '"stock"', "card": '"7o"'}
INT_FIELDS = {"players", "bots", "seat"}

#: what is not text, numbers that are not the protocol's integers, booleans
SURROGATES = ['"\\ud800"', '"a\\udfff"', '"\\udc00\\ud800"', '"\\ud83d"']
NUMBERS = ["3.0", "0.0", "1e0", "3E0", "30e-1", "-0.0", "1e400", "12345678901234567890.5"]
BOOLEANS = ["true", "false"]


def fuzz_cases() -> list[tuple[str, str, str, str, bool]]:
    """``(label, raw message, expected code, family, id echoed)`` for every field of
    every message type (``type``, ``id`` and ``v`` included) and every bad value."""
    from chinchon.server.protocol import SCHEMAS

    cases = []
    for kind, schema in SCHEMAS.items():
        assert set(schema) <= set(VALID), f"VALID lacks a field of {kind}"
        base = {"type": f'"{kind}"', "id": "77", **{f: VALID[f] for f in schema}}
        fields = ["type", "id", "v", *schema]
        for field in fields:
            for family, values in (("surrogate", SURROGATES), ("number", NUMBERS),
                                   ("boolean", BOOLEANS)):
                for value in values:
                    msg = dict(base, **{field: value})
                    code = ("unsupported_version" if field == "v" and family != "surrogate"
                            else "bad_message")
                    raw = "{" + ",".join(f'"{k}":{v}' for k, v in msg.items()) + "}"
                    cases.append((f"{kind}.{field}={value}", raw, code, family, field != "id"))
        # a field's name that is no text
        raw = "{" + ",".join(f'"{k}":{v}' for k, v in base.items()) + ',"\\ud800":1}'
        cases.append((f"{kind}.<name>", raw, "bad_message", "surrogate", True))
        if "card" in schema:
            for text in ("CO", "Ro", "SE", " 7O", "7O", "7o ", "13o", "*3", "o7"):
                raw = "{" + ",".join(f'"{k}":{v}' for k, v in
                                     dict(base, card=f'"{text}"').items()) + "}"
                cases.append((f"{kind}.card={text!r}", raw, "bad_card", "spelling", True))
    return cases


def test_fuzz_every_field_of_every_message(server: Server, clients: list[Client]) -> None:
    """Each bad value in each field gets its documented error, with the id echoed
    (but a bad id's); the connection, seated at a game in play, stays usable; the
    table neither changes nor sees the seat disconnected."""
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    start = wait_view(people[0], lambda v: v["status"] == "playing")
    fuzzer = people[start["game"]["turn"]]  # the seat to play: its draw would count
    wait_view(fuzzer, lambda v: v["seq"] == start["seq"])
    seq = server.stored_seq(table)
    cases = fuzz_cases()
    assert len(cases) > 400
    families: dict[str, int] = {}
    for n, (label, raw, code, family, echoed) in enumerate(cases):
        fuzzer.send_raw(raw)
        reply = fuzzer.recv(10)
        assert reply["type"] == "error" and reply["code"] == code, (label, reply)
        assert reply.get("id") == (77 if echoed else None), (label, reply)
        if n % 7 == 0 or family == "surrogate":  # and the connection answers on
            ping = f'{{"type":"ping","id":"p{n}"}}'
            fuzzer.send_raw(ping)
            assert fuzzer.recv(10) == {"type": "pong", "id": f"p{n}"}, label
        families[family] = families.get(family, 0) + 1
    assert set(families) == {"surrogate", "number", "boolean", "spelling"}
    assert server.stored_seq(table) == seq
    assert "disconnect" not in [e["kind"] for e in server.events(table)]
    # no other message came (no view: nothing changed), and the seat still plays
    assert fuzzer.request({"type": "draw", "source": "stock"})["seq"] == seq + 1
