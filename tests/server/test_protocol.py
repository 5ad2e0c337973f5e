"""The table server over real WebSockets: a server process on a loopback port, clients
speaking the JSON protocol of docs/protocol.md."""

from __future__ import annotations

import json
import random
import threading
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from chinchon.server import scripted  # noqa: E402

from .checks import check_messages, truths  # noqa: E402
from .conftest import Client, Server, close_clients  # noqa: E402


# ---------------------------------------------------------------------------- helpers

_rng = random.Random(14)


def choose(view: dict[str, Any]) -> Optional[dict[str, Any]]:
    return scripted.choose(view, _rng)


def play(client: Client, *, until: Any = None, max_actions: int = 5000) -> dict[str, Any]:
    """Act on every view until the game is over (or ``until(view)`` holds); one action
    in flight at a time. Any error fails the test. Returns the last view."""
    pending: Optional[int] = None
    view = client.view()
    actions = 0
    while True:
        if view is not None:
            if view["status"] == "over" or (until is not None and until(view)):
                return view
            if pending is None:
                action = choose(view)
                if action is not None:
                    assert actions < max_actions, "the game does not end"
                    actions += 1
                    pending = client.send(action)
        m = client.recv(30)
        if m["type"] == "error":
            raise AssertionError(f"seat {client.seat}: {m}")
        if m["type"] != "view":
            continue
        if pending is not None and m.get("ack") == pending:
            pending = None
        view = m


def new_table(server: Server, clients: list[Client], humans: int, players: int,
              bots: int = 0, **extra: Any) -> list[Client]:
    """Open a table: the first client creates it, the others join; returns the humans."""
    host = server.client()
    clients.append(host)
    msg = {"type": "create", "name": "Host", "players": players, "bots": bots, **extra}
    seated = host.request(msg)
    assert seated["type"] == "seated", seated
    seated_clients = [host]
    for k in range(1, humans):
        c = server.client()
        clients.append(c)
        m = c.request({"type": "join", "table": host.table, "name": f"Guest {k}"})
        assert m["type"] == "seated", m
        seated_clients.append(c)
    return seated_clients


def wait_view(client: Client, pred: Any, timeout: float = 15) -> dict[str, Any]:
    v = client.view()
    if v is not None and pred(v):
        return v
    return client.until(lambda m: m["type"] == "view" and pred(m), timeout)


def kill_and_resume(server: Server, person: Client, opened: list[Client],
                    since: int) -> tuple[Client, dict[str, Any]]:
    """SIGKILL the server, start it again on its database and resume ``person``'s seat on
    a new connection: that connection and its first view with every seat connected,
    the table's events after seq ``since`` being the restart and the reconnect."""
    server.kill()
    person.close()
    server.start()
    back = server.client()
    opened.append(back)
    assert back.request({"type": "resume", "table": person.table, "seat": person.seat,
                         "token": person.token})["type"] == "seated"
    after = wait_view(back, lambda v: not v["game"]["disconnected"])
    kinds = [e["kind"] for e in server.events(person.table)][since:]
    assert kinds == ["restart", "reconnect"]
    return back, after


@contextmanager
def mid_hand_table(tmp_path: Path) -> Iterator[tuple[Server, Client, list[Client], dict[str, Any]]]:
    """A server of its own on a fresh database (bots without delay, no rate limit to
    meet) and a table of one person and two bots, played into its second hand and
    stopped mid-hand on the person's turn to draw (the bots wait for it, nothing is in
    flight): the server, the person, the clients opened (the test appends its own; all
    are closed and the server stopped at the end) and the person's view then."""
    server = Server(tmp_path / "tables.sqlite3", "--bot-delay", "0", "--rate", "1000",
                    "--burst", "1000")
    opened: list[Client] = []
    try:
        (person,) = new_table(server, opened, humans=1, players=3, bots=2)
        view = play(person, until=lambda v: v["game"] is not None
                    and v["game"]["hand_number"] >= 2 and bool(v["can"]["draw"])
                    and v["game"]["stock_size"] < 24)
        yield server, person, opened, view
    finally:
        close_clients(opened)
        server.stop()


# ---------------------------------------------------------------------------- tests

def test_welcome_lists_presets_bots_and_seat_counts(server: Server, clients: list[Client]) -> None:
    from chinchon.rules import PRESET_DESCRIPTIONS, PRESETS

    c = server.client()
    clients.append(c)
    w = c.welcome
    assert w["v"] == 1
    assert set(w["presets"]) == set(PRESETS)
    assert w["presets"]["barajamos"]["close_limit"] == 5
    assert w["descriptions"] == dict(PRESET_DESCRIPTIONS)  # the same names as the presets
    assert "greedy" in w["bots"] and "random" in w["bots"]
    assert w["players"] == [n for n in range(1, 13) if 3 <= n <= 6] or 2 in w["players"]


def test_full_game_humans_and_bots_to_the_end(server: Server, clients: list[Client]) -> None:
    humans = new_table(server, clients, humans=2, players=3, bots=1)
    table = humans[0].table
    results: dict[int, dict[str, Any]] = {}
    errors: list[BaseException] = []

    def run(i: int, c: Client) -> None:
        try:
            results[i] = play(c)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(humans)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(240)
    assert not errors, errors
    assert len(results) == 2
    final = results[0]
    assert final["status"] == "over"
    assert final["result"]["status"] in ("won", "draw")
    assert results[1]["seq"] == final["seq"]

    events = server.events(table)
    assert server.stored_seq(table) == len(events) == final["seq"]
    kinds = {e["kind"] for e in events}
    assert {"create", "join", "start", "draw", "discard", "close"} <= kinds
    bot_seat = 2
    assert any(e.get("seat") == bot_seat and e["kind"] in ("draw", "discard") for e in events)
    # every message each person got shows their own cards and the public ones only
    truth = truths(events)
    for c in humans:
        assert check_messages(c.messages, table, truth) > 50
        # a view after every event since the seat was taken, in order, none skipped
        seqs = [m["seq"] for m in c.views()]
        assert seqs == list(range(seqs[0], final["seq"] + 1)), seqs[:20]


def test_illegal_actions_are_refused_and_change_nothing(server: Server,
                                                         clients: list[Client]) -> None:
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    start = wait_view(people[0], lambda v: v["status"] == "playing")
    turn = start["game"]["turn"]
    mover = people[turn]
    other = people[(turn + 1) % 3]
    wait_view(mover, lambda v: v["seq"] == start["seq"])
    seq = server.stored_seq(table)

    def refused(c: Client, msg: dict[str, Any], code: str, words: str) -> None:
        reply = c.request(msg)
        assert reply["type"] == "error", reply
        assert reply["code"] == code and words in reply["message"], reply
        assert server.stored_seq(table) == seq

    refused(other, {"type": "draw", "source": "stock"}, "illegal", "turn")
    refused(mover, {"type": "discard", "card": "1o"}, "illegal", "'draw' phase")
    refused(mover, {"type": "ready"}, "illegal", "summary")
    refused(mover, {"type": "draw", "source": "pile"}, "bad_message", "source")
    drawn = mover.request({"type": "draw", "source": "stock"})
    assert drawn["type"] == "view" and drawn["seq"] == seq + 1
    seq += 1
    hand = drawn["hand"]
    missing = next(f"{r}{s}" for s in "ocbe" for r in range(1, 13) if f"{r}{s}" not in hand)
    refused(mover, {"type": "discard", "card": missing}, "illegal", f"does not hold {missing}")
    refused(mover, {"type": "discard", "card": "13o"}, "bad_card", "13o")
    no_close = [c for c, h in drawn["hints"].items() if h["close"] is None]
    if no_close:
        refused(mover, {"type": "close", "card": no_close[0]}, "illegal", "cannot close")
    refused(other, {"type": "discard", "card": hand[0]}, "illegal", "turn")
    # the others saw no view for any refused message; the table moves on normally
    assert max(m["seq"] for m in other.views()) == seq
    done = mover.request({"type": "discard", "card": hand[0]})
    assert done["seq"] == seq + 1 and done["game"]["discard_top"] == hand[0]


def test_a_seat_token_only_opens_its_own_seat(server: Server, clients: list[Client]) -> None:
    people = new_table(server, clients, humans=2, players=3, bots=1)
    table = people[0].table
    token0, token1 = people[0].token, people[1].token
    assert token0 and token1 and token0 != token1 and len(token0) >= 32
    intruder = server.client()
    clients.append(intruder)
    # one character changed (never the token itself: "x" unless it already ends in "x")
    altered = token0[:-1] + ("y" if token0.endswith("x") else "x")
    for seat, token in ((1, token0), (0, token1), (2, token0), (0, altered), (7, token0)):
        reply = intruder.request({"type": "resume", "table": table, "seat": seat, "token": token})
        assert reply["type"] == "error" and reply["code"] == "bad_token", reply
    assert not intruder.views()
    reply = intruder.request({"type": "draw", "source": "stock"})
    assert reply["code"] == "illegal" and "no seat" in reply["message"]
    reply = intruder.request({"type": "resume", "table": "nosuchtable", "seat": 0, "token": token0})
    assert reply["code"] == "no_table"
    # the right token works, from a new connection, and the old one is told
    ok = intruder.request({"type": "resume", "table": table, "seat": 1, "token": token1})
    assert ok["type"] == "seated" and ok["seat"] == 1 and "token" not in ok
    view = wait_view(intruder, lambda v: True)
    assert view["you"] == 1
    people[1].until(lambda m: m["type"] == "replaced")


def test_unknown_rules_and_seat_counts_are_refused_with_the_games_words(
        server: Server, clients: list[Client]) -> None:
    c = server.client()
    clients.append(c)
    reply = c.request({"type": "create", "name": "A", "players": 4, "rules": "poker"})
    assert reply["code"] == "bad_rules"
    assert "poker" in reply["message"] and "barajamos" in reply["message"]
    for n in (1, 7, 12):
        reply = c.request({"type": "create", "name": "A", "players": n})
        assert reply["type"] == "error" and reply["code"] == "illegal"
        assert "seats" in reply["message"] and str(n) in reply["message"], reply
    reply = c.request({"type": "create", "name": "A", "players": 3, "bots": 3})
    assert reply["code"] == "illegal" and "bots" in reply["message"]
    reply = c.request({"type": "create", "name": "A", "players": 3, "bot": "genius"})
    assert reply["code"] == "bad_message" and "genius" in reply["message"]
    # a bot of any length, or none, names the forms (one over 16 characters said only
    # "1 to 16 characters long"); the spaces and zeros bot_name ignores fit
    for bot in ("search:1000000000", "", "x" * 33, 5):
        reply = c.request({"type": "create", "name": "A", "players": 2, "bot": bot})
        assert reply["code"] == "bad_message", reply
        assert "search:<playouts>" in reply["message"], reply
    reply = c.request({"type": "create", "name": "A", "players": 2,
                       "bot": " Search : 00000300 "})
    assert reply["type"] == "seated", reply
    reply = c.request({"type": "create", "name": "A", "players": 3, "rules": "BARAJAMOS"})
    assert reply["type"] == "seated"


def test_lobby_lists_waiting_tables_and_join_fills_them(server: Server,
                                                         clients: list[Client]) -> None:
    people = new_table(server, clients, humans=1, players=4, bots=1)
    table = people[0].table
    watcher = server.client()
    clients.append(watcher)
    lobby = watcher.request({"type": "lobby"})
    entry = next(t for t in lobby["tables"] if t["id"] == table)
    assert entry["status"] == "waiting" and entry["open"] == 2 and entry["players"] == 4
    assert [s["kind"] for s in entry["seats"]] == ["human", "open", "open", "bot"]
    watcher.request({"type": "join", "table": table, "name": "W"})
    # the host starts early: the open seat gets a bot, the game begins
    start = people[0].request({"type": "start"})
    assert start["status"] == "playing"
    assert [s["kind"] for s in start["seats"]] == ["human", "human", "bot", "bot"]
    late = server.client()
    clients.append(late)
    reply = late.request({"type": "join", "table": table, "name": "Late"})
    assert reply["code"] == "illegal" and "started" in reply["message"]


def test_a_guest_may_not_take_the_name_of_a_bot_at_the_table(
        server: Server, clients: list[Client]) -> None:
    """Refused by name (`illegal`), in any case: the table keeps its open seat and
    every seat's name tells a person from a bot."""
    people = new_table(server, clients, humans=1, players=4, bots=1)
    table = people[0].table
    bot = wait_view(people[0], lambda v: True)["seats"][3]
    assert bot["kind"] == "bot"
    guest = server.client()
    clients.append(guest)
    for name in (bot["name"], bot["name"].upper(), f" {bot['name'].lower()} "):
        reply = guest.request({"type": "join", "table": table, "name": name})
        assert reply["type"] == "error" and reply["code"] == "illegal", reply
        assert repr(name.strip()) in reply["message"] and "seat 3" in reply["message"]
    assert not guest.views()
    assert guest.request({"type": "join", "table": table, "name": "Ana"})["type"] == "seated"
    view = wait_view(guest, lambda v: True)
    assert [s["name"] for s in view["seats"]][:2] == ["Host", "Ana"]
    assert [e["kind"] for e in server.events(table)] == ["create", "join"]


def test_reconnect_within_the_wait_keeps_seat_and_cards(server: Server,
                                                        clients: list[Client]) -> None:
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    before = wait_view(people[1], lambda v: v["status"] == "playing")
    hand, seat, token = before["hand"], people[1].seat, people[1].token
    people[1].close()
    seen = wait_view(people[0], lambda v: v["game"] is not None
                     and str(seat) in v["game"]["disconnected"])
    assert 0 < seen["game"]["disconnected"][str(seat)] <= 2.0
    back = server.client()
    clients.append(back)
    assert back.request({"type": "resume", "table": table, "seat": seat,
                         "token": token})["type"] == "seated"
    view = wait_view(back, lambda v: True)
    assert view["hand"] == hand and view["you"] == seat
    assert view["status"] == "playing" and view["game"]["disconnected"] == {}
    kinds = [e["kind"] for e in server.events(table)]
    assert kinds[-2:] == ["disconnect", "reconnect"]


def test_resume_on_the_connection_holding_the_seat_answers_as_any_resume(
        server: Server, clients: list[Client]) -> None:
    """The seat's own connection resumes it again (a client unsure of its state):
    `seated` with the message's id, then the view acknowledging it; nothing changes
    at the table and nobody is replaced."""
    people = new_table(server, clients, humans=2, players=3, bots=1)
    host = people[0]
    table = host.table
    before = wait_view(host, lambda v: v["status"] == "playing")
    kinds = [e["kind"] for e in server.events(table)]
    rid = host.send({"type": "resume", "table": table, "seat": 0, "token": host.token})
    first = host.until(lambda m: m.get("id") == rid or m.get("ack") == rid)
    assert first == {"type": "seated", "table": table, "seat": 0, "id": rid}
    view = host.until(lambda m: m.get("ack") == rid)
    assert view["you"] == 0 and sorted(view["hand"]) == sorted(before["hand"])
    assert view["seats"][0]["connected"] and not view["game"]["disconnected"]
    assert not any(m["type"] == "replaced" for c in people for m in c.messages)
    assert host.request({"type": "ping"})["type"] == "pong"
    assert [e["kind"] for e in server.events(table)][:len(kinds)] == kinds
    assert not {"disconnect", "reconnect"} & {e["kind"] for e in server.events(table)}


def test_a_seat_not_back_in_time_cancels_the_table(server: Server, clients: list[Client]) -> None:
    people = new_table(server, clients, humans=3, players=3)
    table = people[0].table
    wait_view(people[2], lambda v: v["status"] == "playing")
    seat, token = people[2].seat, people[2].token
    people[2].close()
    t0 = time.monotonic()
    for c in people[:2]:
        over = wait_view(c, lambda v: v["status"] == "over", timeout=15)
        assert over["result"]["status"] == "cancelled" and over["result"]["winner"] is None
        assert f"seat {seat}" in over["result"]["reason"]
    assert time.monotonic() - t0 >= 1.5  # the 2 s wait, give or take the first view
    late = server.client()
    clients.append(late)
    late.request({"type": "resume", "table": table, "seat": seat, "token": token})
    view = wait_view(late, lambda v: True)
    assert view["status"] == "over" and view["result"]["status"] == "cancelled"
    assert server.events(table)[-1]["kind"] == "tick"


def test_page_and_static_files_are_served_with_a_strict_policy(server: Server) -> None:
    with urllib.request.urlopen(server.http + "/", timeout=10) as r:
        html = r.read().decode()
        csp = r.headers["content-security-policy"]
    assert "<title>Chinchón</title>" in html and "/static/app.js" in html
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    assert "http" not in html.replace("http-equiv", "")  # no CDN, nothing off the server
    for name in ("app.js", "cards.js", "state.js", "table.js", "app.css", "favicon.svg"):
        with urllib.request.urlopen(f"{server.http}/static/{name}", timeout=10) as r:
            assert r.status == 200 and len(r.read()) > 100
    with urllib.request.urlopen(server.http + "/healthz", timeout=10) as r:
        health = json.loads(r.read())
    assert health["ok"] is True and health["events"] > 0


def test_five_seats_two_decks_one_person_four_bots(server: Server, clients: list[Client]) -> None:
    """Two decks: a hand may hold a card twice; still only your own cards are shown."""
    (person,) = new_table(server, clients, humans=1, players=5, bots=4)
    final = play(person)
    assert final["status"] == "over"
    events = server.events(person.table)
    assert check_messages(person.messages, person.table, truths(events)) > 20


def test_the_bare_command_keeps_tables_in_the_user_data_folder(tmp_path: Any) -> None:
    """``chinchon serve`` with no --db: $XDG_DATA_HOME/chinchon/tables.sqlite3."""
    import os
    import signal
    import subprocess
    import sys

    from .conftest import free_port

    port = free_port()
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "chinchon", "serve", "--port", str(port),
                             "--log-level", "warning"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as r:
                    assert json.loads(r.read())["ok"] is True
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        assert (tmp_path / "chinchon" / "tables.sqlite3").exists()
    finally:
        proc.send_signal(signal.SIGINT)
        out = proc.communicate(timeout=15)[0].decode()
    assert "tables.sqlite3" in out and f"http://127.0.0.1:{port}/" in out
