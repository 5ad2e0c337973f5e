"""Every way a seat can lose its person -- before the start, during the game, in the
summary between hands, the host's leaving, a takeover, a restart -- and what the table
does then: it ends (cancelled, abandoned) or goes on, as docs/protocol.md says, and at
no moment does a table wait for someone who is gone without a deadline.

The manager runs on a real event loop and clock with a short reconnection wait; the
clients are in-process and refuse text a WebSocket could not carry (a lone surrogate).
Standard library only: these run without the server extra too."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Awaitable, Callable, Optional

import pytest

from chinchon.server import scripted
from chinchon.server.live import Live
from chinchon.server.manager import Manager, ServerConfig

WAIT = 0.4  # rules.reconnect_seconds on this server


class Person:
    """A person's connection: what it was sent (as a socket would carry it)."""

    def __init__(self, m: Manager, name: str) -> None:
        self.m = m
        self.name = name
        self.sent: list[dict[str, Any]] = []
        self.closed: Any = None
        self.conn = m.connect(self)
        self.table: Optional[str] = None
        self.seat: Optional[int] = None
        self.token: Optional[str] = None

    # the Client protocol of the manager
    def send(self, text: str) -> None:
        assert self.closed is None or self.closed[0] == 4000, "sent after the close"
        msg = json.loads(text.encode("utf-8"))  # strict: what a WebSocket can carry
        if msg["type"] == "seated":
            self.table, self.seat = msg["table"], msg["seat"]
            self.token = msg.get("token", self.token)
        self.sent.append(msg)

    def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)

    def say(self, **msg: Any) -> None:
        self.m.handle(self.conn, json.dumps(msg))

    def drop(self) -> None:
        """The socket closes (the app then tells the manager)."""
        self.closed = (1006, "gone")
        self.m.disconnect(self.conn)

    def view(self) -> dict[str, Any]:
        return [x for x in self.sent if x["type"] == "view"][-1]


async def turn() -> None:
    """Let the group commit (call_soon) and what it schedules run."""
    for _ in range(3):
        await asyncio.sleep(0)


def check_no_endless_wait(m: Manager) -> None:
    """No live table waits for someone gone without a timer that ends the wait."""
    for live in m.live.values():
        table = live.table
        humans_here = [s for s in table.humans() if live.conns.get(s)]
        if table.status == "waiting":
            assert humans_here or "abandon" in live.timers, (table.id, "waits for nobody")
            # only the host may start the table: its guests must not wait for it forever
            assert live.conns.get(0) or {"abandon", "host"} & set(live.timers), \
                (table.id, "waits for its host")
            continue
        assert "host" not in live.timers, (table.id, "the host's wait outlived the start")
        if table.status == "playing":
            game = table.game
            assert game is not None and game.result is None
            for seat in table.humans():
                if not live.conns.get(seat):
                    assert seat in game.disconnected, (table.id, seat, "gone, not disconnected")
            for seat in game.disconnected:
                if game.in_game[seat]:
                    assert f"deadline{seat}" in live.timers, (table.id, seat, "no deadline")
            if game.phase == "summary":
                assert "summary" in live.timers, (table.id, "a summary without its wait")
            elif game.turn is not None and table.seats[game.turn].kind == "bot":
                assert "bot" in live.timers, (table.id, "a bot's turn that never comes")


async def new_table(m: Manager, joined: int, players: int = 3) -> list[Person]:
    """A host and ``joined`` guests at a table of ``players`` (full: it starts)."""
    host = Person(m, "Host")
    host.say(type="create", name="Host", players=players)
    await turn()
    people = [host]
    for k in range(joined):
        p = Person(m, f"Guest {k + 1}")
        p.say(type="join", table=host.table, name=p.name)
        await turn()
        people.append(p)
        check_no_endless_wait(m)
    return people


async def play_until(m: Manager, people: list[Person], pred: Callable[[dict[str, Any]], bool],
                     rng: random.Random) -> dict[str, Any]:
    """Every connected person acts on its last view until ``pred`` holds of a view."""
    for _ in range(5000):
        views = [p.view() for p in people if p.closed is None]
        done = [v for v in views if pred(v)]
        if done:
            return done[0]
        for p in people:
            if p.closed is None:
                action = scripted.choose(p.view(), rng)
                if action is not None:
                    p.say(**action)
                    await turn()
        check_no_endless_wait(m)
    raise AssertionError("the game never got there")


def live_of(m: Manager, people: list[Person]) -> Live:
    assert people[0].table is not None
    return m.live[people[0].table]


async def ends_cancelled(m: Manager, watcher: Person, seat: int) -> None:
    """The table is cancelled when the gone seat's wait runs out, and everyone left
    is told."""
    check_no_endless_wait(m)
    await asyncio.sleep(WAIT + 0.3)
    await turn()
    last = watcher.view()
    assert last["status"] == "over", last["status"]
    assert last["result"]["status"] == "cancelled" and f"seat {seat}" in last["result"]["reason"]


# ---------------------------------------------------------------------------- the cases

async def before_start_guest_drops(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    guest.drop()
    await turn()
    check_no_endless_wait(m)
    third = Person(m, "Third")
    third.say(type="join", table=host.table, name="Third")
    await turn()
    start = host.view()
    assert start["status"] == "playing" and "1" in start["game"]["disconnected"]
    await ends_cancelled(m, host, 1)


async def before_start_guest_drops_and_resumes(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    guest.drop()
    await turn()
    back = Person(m, "Back")
    back.say(type="resume", table=host.table, seat=1, token=guest.token)
    await turn()
    third = Person(m, "Third")
    third.say(type="join", table=host.table, name="Third")
    await turn()
    await asyncio.sleep(WAIT + 0.3)
    view = host.view()
    assert view["status"] == "playing" and view["game"]["disconnected"] == {}
    check_no_endless_wait(m)


async def before_start_host_drops(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    host.drop()
    await turn()
    check_no_endless_wait(m)
    third = Person(m, "Third")
    third.say(type="join", table=guest.table, name="Third")
    await turn()
    assert "0" in guest.view()["game"]["disconnected"]
    await ends_cancelled(m, guest, 0)


async def before_start_host_drops_and_nobody_joins(m: Manager) -> None:
    host, guest = await new_table(m, joined=1, players=4)
    host.drop()
    await turn()
    check_no_endless_wait(m)
    await asyncio.sleep(WAIT * 0.6)
    late = Person(m, "Late")  # a join does not make the host's wait longer
    late.say(type="join", table=guest.table, name="Late")
    await turn()
    assert guest.view()["status"] == "waiting"
    check_no_endless_wait(m)
    await asyncio.sleep(WAIT * 0.6)
    await turn()
    view = guest.view()
    assert view["status"] == "over"
    assert view["result"] == {"status": "cancelled", "winner": None,
                              "reason": "the host did not come back"}
    check_no_endless_wait(m)


async def before_start_host_drops_and_resumes(m: Manager) -> None:
    host, guest = await new_table(m, joined=1, players=4)
    host.drop()
    await turn()
    back = Person(m, "Back")
    back.say(type="resume", table=guest.table, seat=0, token=host.token)
    await turn()
    check_no_endless_wait(m)
    await asyncio.sleep(WAIT + 0.3)
    await turn()
    assert guest.view()["status"] == "waiting"  # the host is back: the table waits on
    back.say(type="start")
    await turn()
    assert guest.view()["status"] == "playing"
    check_no_endless_wait(m)


async def before_start_host_starts_with_a_guest_gone(m: Manager) -> None:
    host, guest = await new_table(m, joined=1, players=4)
    guest.drop()
    await turn()
    host.say(type="start")
    await turn()
    view = host.view()
    assert view["status"] == "playing" and "1" in view["game"]["disconnected"]
    await ends_cancelled(m, host, 1)


async def before_start_guest_leaves(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    guest.say(type="leave")
    await turn()
    assert guest.sent[-1]["type"] == "left"
    view = host.view()
    assert view["status"] == "waiting" and view["seats"][1]["kind"] == "open"
    check_no_endless_wait(m)  # the host is there: the table waits for a join
    again = Person(m, "Again")
    again.say(type="join", table=host.table, name="Again")
    third = Person(m, "Third")
    third.say(type="join", table=host.table, name="Third")
    await turn()
    assert host.view()["status"] == "playing" and host.view()["game"]["disconnected"] == {}
    check_no_endless_wait(m)


async def before_start_host_leaves(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    host.say(type="leave")
    await turn()
    view = guest.view()
    assert view["status"] == "over"
    assert view["result"] == {"status": "cancelled", "winner": None, "reason": "the host left"}
    check_no_endless_wait(m)


async def before_start_everyone_drops(m: Manager) -> None:
    host, guest = await new_table(m, joined=1)
    table = host.table
    host.drop()
    guest.drop()
    await turn()
    check_no_endless_wait(m)
    await asyncio.sleep(WAIT + 0.3)
    await turn()
    assert table not in m.live
    stored = m.store.load(table)
    assert stored is not None and stored.status == "over"
    assert json.loads(stored.state)["reason"] == "nobody stayed at the table"


async def during_the_game_a_drop(m: Manager) -> None:
    people = await new_table(m, joined=2)
    people[2].drop()
    await turn()
    assert "2" in people[0].view()["game"]["disconnected"]
    await ends_cancelled(m, people[0], 2)


async def during_the_game_a_leave(m: Manager) -> None:
    people = await new_table(m, joined=2)
    people[1].say(type="leave")
    await turn()
    assert people[1].sent[-1]["type"] == "left"
    assert "1" in people[0].view()["game"]["disconnected"]
    await ends_cancelled(m, people[0], 1)


async def during_the_game_the_host_leaves(m: Manager) -> None:
    people = await new_table(m, joined=2)
    people[0].say(type="leave")
    await turn()
    assert "0" in people[1].view()["game"]["disconnected"]
    await ends_cancelled(m, people[1], 0)


async def during_the_game_a_drop_and_a_resume_in_time(m: Manager) -> None:
    people = await new_table(m, joined=2)
    people[1].drop()
    await turn()
    back = Person(m, "Back")
    back.say(type="resume", table=people[0].table, seat=1, token=people[1].token)
    await turn()
    await asyncio.sleep(WAIT + 0.3)
    assert people[0].view()["status"] == "playing"
    assert people[0].view()["game"]["disconnected"] == {}
    check_no_endless_wait(m)


async def during_the_game_a_takeover(m: Manager) -> None:
    """A second connection resumes the seat: the first is replaced, the seat never
    goes."""
    people = await new_table(m, joined=2)
    other = Person(m, "Other")
    other.say(type="resume", table=people[0].table, seat=2, token=people[2].token)
    await turn()
    assert people[2].closed is not None and people[2].closed[0] == 4000
    assert people[2].sent[-1]["type"] == "replaced"
    await asyncio.sleep(WAIT + 0.3)
    assert people[0].view()["status"] == "playing"
    assert people[0].view()["game"]["disconnected"] == {}
    check_no_endless_wait(m)


async def to_the_summary(m: Manager) -> list[Person]:
    """Three people at a table played to the summary after its first hand."""
    people = await new_table(m, joined=2)
    rng = random.Random(5)
    for _ in range(20):  # a hand that ends the game at once (a chinchón) is rare
        view = await play_until(m, people, lambda v: v["game"]["phase"] in ("summary", "over"),
                                rng)
        if view["game"]["phase"] == "summary":
            return people
        people = await new_table(m, joined=2)
    raise AssertionError("no hand ended in a summary")  # pragma: no cover


async def in_the_summary(m: Manager, how: str) -> None:
    people = await to_the_summary(m)
    gone = people[1]
    if how == "drop":
        gone.drop()
    else:
        gone.say(type="leave")
    await turn()
    for p in (people[0], people[2]):  # the others press ready: the next hand may open
        if p.view()["can"]["ready"]:
            p.say(type="ready")
            await turn()
    assert "1" in people[0].view()["game"]["disconnected"]
    await ends_cancelled(m, people[0], 1)


async def in_the_summary_a_drop(m: Manager) -> None:
    await in_the_summary(m, "drop")


async def in_the_summary_a_leave(m: Manager) -> None:
    await in_the_summary(m, "leave")


CASES: dict[str, Callable[[Manager], Awaitable[None]]] = {
    "before the start: a guest drops, the last join starts": before_start_guest_drops,
    "before the start: a guest drops and resumes": before_start_guest_drops_and_resumes,
    "before the start: the host drops, the last join starts": before_start_host_drops,
    "before the start: the host drops, nobody else joins": before_start_host_drops_and_nobody_joins,
    "before the start: the host drops and resumes": before_start_host_drops_and_resumes,
    "before the start: a guest drops, the host starts": before_start_host_starts_with_a_guest_gone,
    "before the start: a guest leaves": before_start_guest_leaves,
    "before the start: the host leaves": before_start_host_leaves,
    "before the start: everyone drops": before_start_everyone_drops,
    "during the game: a drop": during_the_game_a_drop,
    "during the game: a leave": during_the_game_a_leave,
    "during the game: the host leaves": during_the_game_the_host_leaves,
    "during the game: a drop and a resume in time": during_the_game_a_drop_and_a_resume_in_time,
    "during the game: another connection takes the seat": during_the_game_a_takeover,
    "in the summary: a drop": in_the_summary_a_drop,
    "in the summary: a leave": in_the_summary_a_leave,
}


def _config(tmp_path: Path) -> ServerConfig:
    return ServerConfig(db=str(tmp_path / "s.sqlite3"), bot_delay=0, reconnect_seconds=WAIT,
                        summary_seconds=30, rate=1e6, burst=10**6)


@pytest.mark.parametrize("case", list(CASES))
def test_a_seat_that_loses_its_person(tmp_path: Path, case: str) -> None:
    async def scenario() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        try:
            await CASES[case](m)
            check_no_endless_wait(m)
        finally:
            m.stop()

    asyncio.run(scenario())


def test_a_bot_leads_the_hand_that_opens_at_once(tmp_path: Path) -> None:
    """``--summary-seconds 0``: the summary's time opens the next hand while a bot's
    step of the summary is still pending. That step stood under the ``bot`` timer, so a
    bot leading the new hand got no move and the table waited forever (every game of
    a person and two bots stalled). The games now run to their end."""
    async def scenario() -> None:
        m = Manager(replace(_config(tmp_path), summary_seconds=0))
        m.start()
        try:
            for game in range(3):
                host = Person(m, "Host")
                host.say(type="create", name="Host", players=3, bots=2)
                await turn()
                rng, hands = random.Random(game), set()
                for _ in range(50_000):  # a bound on a stall, not on the time
                    view = host.view()
                    if view["status"] == "over":
                        break
                    if view.get("game"):
                        hands.add(view["game"]["hand_number"])
                    action = scripted.choose(view, rng)
                    if action is not None:
                        host.say(**action)
                    await asyncio.sleep(0.0005)  # the timers' turn
                    check_no_endless_wait(m)
                assert host.view()["status"] == "over", (game, host.view()["game"])
                assert len(hands) > 1, hands  # a next hand was opened at once
        finally:
            m.stop()

    asyncio.run(scenario())


def test_a_restart_loses_every_person_and_each_seat_waits_afresh(tmp_path: Path) -> None:
    """The server stops with a game in play: the restarted one disconnects every
    person (a restart event) and the table ends unless someone comes back."""
    async def first() -> str:
        m = Manager(_config(tmp_path))
        m.start()
        people = await new_table(m, joined=2)
        m.stop()
        return str(people[0].table)

    table = asyncio.run(first())

    async def second() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        try:
            live = m.live[table]
            assert live.table.game is not None
            assert sorted(live.table.game.disconnected) == [0, 1, 2]
            check_no_endless_wait(m)
            await asyncio.sleep(WAIT + 0.3)
            await turn()
            assert m.store.load(table).status == "over"  # type: ignore[union-attr]
        finally:
            m.stop()

    asyncio.run(second())


def test_a_restart_puts_every_table_under_the_servers_reconnect_seconds(tmp_path: Path) -> None:
    """A server started again with another ``--reconnect-seconds`` plays every table it
    resumes under it, one not started too, as it does the tables it creates; its
    ``restart`` event says so, so that the table's events still replay to the table. A
    server started without the option keeps the wait each table has."""
    from chinchon.server.tables import Table

    async def first() -> tuple[list[Person], Person]:
        m = Manager(_config(tmp_path))
        m.start()
        people = await new_table(m, joined=2)
        host = Person(m, "Waiting host")
        host.say(type="create", name=host.name, players=3)
        await turn()
        m.stop()
        return people, host

    people, waiting = asyncio.run(first())

    async def again(reconnect_seconds: Optional[float]) -> None:
        m = Manager(replace(_config(tmp_path), reconnect_seconds=reconnect_seconds))
        m.start()
        try:
            for person in (people[1], waiting):
                live = m.live[str(person.table)]
                table = live.table
                assert table.rules.reconnect_seconds == 5.0, (table.status, reconnect_seconds)
                assert table.game is None or table.game.rules.reconnect_seconds == 5.0
                back = Person(m, person.name)
                back.say(type="resume", table=person.table, seat=person.seat,
                         token=person.token)
                await turn()
                assert back.view()["rules"]["reconnect_seconds"] == 5.0
                records = [json.loads(r) for _, r in m.store.events(table.id)]
                assert Table.replay(records).fingerprint() == table.fingerprint()
                back.drop()
            check_no_endless_wait(m)
        finally:
            m.stop()

    asyncio.run(again(5.0))
    asyncio.run(again(None))


def test_a_restart_in_the_summary_gives_the_people_its_time_again(tmp_path: Path) -> None:
    """The server stops in the summary between hands: the restarted one holds the
    summary for its time (counted afresh) for the people, all gone at first, rather
    than deal the next hand to nobody; a person back and ready opens it."""
    async def first() -> list[Person]:
        m = Manager(_config(tmp_path))
        m.start()
        people = await to_the_summary(m)
        m.stop()
        return people

    people = asyncio.run(first())
    hand = people[0].view()["game"]["hand_number"]

    async def second() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        try:
            for _ in range(5):
                await turn()
            table = m.live[str(people[0].table)].table
            game = table.game
            assert game is not None
            assert (game.phase, game.hand_number) == ("summary", hand)
            check_no_endless_wait(m)  # the summary's own timer ends the wait
            # one who had not pressed ready before the restart comes back
            seat = table.ready.index(False)
            back = Person(m, people[seat].name)
            back.say(type="resume", table=table.id, seat=seat, token=people[seat].token)
            await turn()
            view = back.view()
            assert view["game"]["phase"] == "summary" and view["can"]["ready"]
            assert view["game"]["summary"]["seconds_left"] > 0
            back.say(type="ready")
            for _ in range(3):
                await turn()
            assert back.view()["game"]["hand_number"] == hand + 1
        finally:
            m.stop()

    asyncio.run(second())


def test_a_wrong_token_for_a_finished_table_does_not_keep_it_in_memory(tmp_path: Path) -> None:
    """A finished table is not held once nobody is at it; a ``resume`` loads it back to
    check the token, and a wrong one leaves it out again (a client naming finished
    tables must not fill the memory), while the right one shows the table's end."""
    async def scenario() -> None:
        m = Manager(_config(tmp_path))
        m.start()
        try:
            host, guest = await new_table(m, joined=1)
            table = str(host.table)
            host.say(type="leave")  # the host leaves before the start: the table is over
            await turn()
            guest.drop()
            await turn()
            assert table not in m.live
            stranger = Person(m, "Stranger")
            for seat in (0, 1, 2, 7):
                stranger.say(type="resume", table=table, seat=seat, token="x" * 32)
                await turn()
                assert stranger.sent[-1]["code"] == "bad_token"
                assert table not in m.live, seat
            back = Person(m, host.name)
            back.say(type="resume", table=table, seat=0, token=host.token)
            await turn()
            assert back.view()["status"] == "over" and table in m.live
            back.drop()
            await turn()
            assert table not in m.live
        finally:
            m.stop()

    asyncio.run(scenario())
