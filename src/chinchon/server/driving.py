"""What happens next at a table without anyone's message: the timers on the table's
clock (a disconnected seat's deadline, the summary's wait, the end of a table nobody
waits at, a retry of the disconnections and reconnections a failed save lost) and
the bots' moves.

A search bot's decision takes milliseconds (docs/bots.md): it is played on a worker
thread (``ServerConfig.search_workers``), the event loop serving the other tables
meanwhile, and its move is made on the loop when it is found, if the table is still
where it was (the same game, hand, turn and phase; otherwise the table is driven
again). The other bots answer in microseconds and move on the loop itself."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
from typing import Any, Callable, Optional

from ..bots import Bot, SearchBot, make_bot
from ..errors import IllegalAction
from ..game.observation import Observation
from .commit import GroupCommit
from .live import Live
from .store import StoreError

__all__ = ["Driving"]

log = logging.getLogger("chinchon.server")

#: after a failed save, how long until the server stores again the disconnections and
#: reconnections it lost, in seconds (and again after that while saves fail)
RETRY_SECONDS = 1.0


def _moment(game: Any) -> tuple[Any, ...]:
    """Where a game is: its hand, the turns played in it, the phase and whose turn (a
    search's move is made only at the moment it was asked for)."""
    return (game.hand_number, game.turns_this_hand, game.phase, game.turn)


class Driving(GroupCommit):
    """The clock and the bots of :class:`~chinchon.server.manager.Manager`."""

    #: the worker threads of the search bots' decisions (made at the first one)
    _thinkers: Optional[concurrent.futures.ThreadPoolExecutor] = None

    def stop_thinking(self) -> None:
        """Let the worker threads go (a decision under way finishes; its move is not
        made: its table's timer was cancelled)."""
        if self._thinkers is not None:
            self._thinkers.shutdown(wait=False, cancel_futures=True)
            self._thinkers = None

    def _unload_if_done(self, live: Live) -> None:
        """A table that is over and has nobody left is dropped from memory (it stays in
        the store; ``resume`` loads it again to show its end)."""
        if live.table.status == "over" and not live.conns:
            live.cancel_all()
            if self.live.get(live.table.id) is live:
                del self.live[live.table.id]

    def _later(self, live: Live, name: str, delay: float, fn: Callable[[], None]) -> None:
        live.cancel(name)
        loop = self._loop or asyncio.get_running_loop()
        live.timers[name] = loop.call_later(max(0.0, delay), self._fire, live, name, fn)

    def _fire(self, live: Live, name: str, fn: Callable[[], None]) -> None:
        live.timers.pop(name, None)
        if self.live.get(live.table.id) is not live:
            return
        try:
            fn()
        except (IllegalAction, StoreError) as exc:
            log.error("table %s: %s refused: %s", live.table.id, name, exc)
        except Exception:  # pragma: no cover - a bug in a timer must not stop the loop
            log.exception("table %s: error in %s", live.table.id, name)

    def _drive(self, live: Live) -> None:
        """Schedule the table's next automatic event, if any: a bot's move, a bot's
        choice in the summary, the next hand, a disconnected seat's deadline, the end
        of a table nobody waits at or whose host is gone before the start."""
        table = live.table
        if table.status == "over":
            live.cancel_all()
            self._unload_if_done(live)
            return
        if table.status == "waiting":
            wait = table.rules.reconnect_seconds
            if not any(live.conns.get(s) for s in table.humans()):
                if "abandon" not in live.timers:
                    self._later(live, "abandon", wait,
                                lambda: self._auto(live, {"kind": "abandon",
                                                          "reason": "nobody stayed at the table"}))
            elif not live.conns.get(0):
                # only the host may start: its guests would wait for it forever
                if "host" not in live.timers:
                    self._later(live, "host", wait, lambda: self._host_gone(live))
            return
        game = table.game
        assert game is not None
        wait = table.rules.reconnect_seconds
        now = self.now(live)
        timers = live.timers
        if "host" in timers:  # the host's wait, set before the start, is over
            live.cancel("host")
        away = game.disconnected
        if timers:
            for name in [n for n in timers if n.startswith("deadline")]:
                if int(name[len("deadline"):]) not in away:
                    live.cancel(name)
        for seat, since in away.items():
            name = f"deadline{seat}"
            if name not in timers and game.in_game[seat]:
                self._later(live, name, since + wait - now, lambda: self._deadline(live))
        phase = game.phase
        if phase in ("draw", "discard"):
            turn = game.turn
            if not timers:  # the common case under load: a person to act, no timer set
                if turn is not None and table.seats[turn].kind == "bot":
                    self._later(live, "bot", self.config.bot_delay, lambda: self._bot_move(live))
                return
            live.cancel("summary")
            live.cancel("step")
            if turn is not None and table.seats[turn].kind == "bot":
                if "bot" not in timers:
                    self._later(live, "bot", self.config.bot_delay, lambda: self._bot_move(live))
            else:
                live.cancel("bot")
        elif phase == "summary":
            live.cancel("bot")
            # its own timer: one still pending when the summary's time opens the next
            # hand must not stand for a bot's move there (the table would wait forever)
            self._later(live, "step", 0.0, lambda: self._summary_step(live))
            if "summary" not in live.timers:
                since = table.summary_since if table.summary_since is not None else now
                self._later(live, "summary", since + self.config.summary_seconds - now,
                            lambda: self._auto(live, {"kind": "next_hand"}))

    def _host_gone(self, live: Live) -> None:
        """The host's wait before the start is over: the table ends (for the reason of
        the table nobody waits at when its guests have gone since)."""
        here = any(live.conns.get(s) for s in live.table.humans())
        self._auto(live, {"kind": "abandon", "reason": "the host did not come back" if here
                          else "nobody stayed at the table"})

    def _auto(self, live: Live, record: dict[str, Any]) -> None:
        self._commit(live, record)
        self._publish(live, None, None)

    def _bot(self, live: Live, seat: int) -> Bot:
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = make_bot(live.table.seats[seat].bot or "greedy",
                                             threads=self.config.search_threads)
        return bot

    def _bot_move(self, live: Live) -> None:
        game = live.table.game
        if game is None or game.result is not None:
            return
        seat = game.turn
        if seat is None or live.table.seats[seat].kind != "bot":
            return
        bot = self._bot(live, seat)
        obs = game.observe(seat)  # only what the seat sees
        if isinstance(bot, SearchBot) and self.config.search_workers != 0:
            self._think(live, bot, obs, seat)
        elif game.phase == "draw":
            self._bot_act(live, seat, "draw", bot.choose_draw(obs, seat))
        else:
            self._bot_act(live, seat, "discard", bot.choose_discard(obs, seat))

    def _bot_act(self, live: Live, seat: int, phase: str, choice: Any) -> None:
        """The bot's move: ``choice`` is the draw's source or the discard's (card, close)."""
        if phase == "draw":
            self._auto(live, {"kind": "draw", "seat": seat, "source": choice})
        else:
            card, close = choice
            self._auto(live, {"kind": "close" if close else "discard", "seat": seat,
                              "card": str(card)})

    def _think(self, live: Live, bot: SearchBot, obs: Observation, seat: int) -> None:
        """The search's decision on a worker thread; the move when it is found (on the
        loop, by :meth:`_thought`). It stands as the table's ``bot`` timer meanwhile, so
        the table schedules no other bot move, and cancelling the timer drops it."""
        game = live.table.game
        assert game is not None
        phase = game.phase
        decide = bot.draw_decision(obs, seat) if phase == "draw" \
            else bot.discard_decision(obs, seat)
        if self._thinkers is None:
            self._thinkers = concurrent.futures.ThreadPoolExecutor(
                max_workers=self.config.search_workers or os.cpu_count() or 1,
                thread_name_prefix="chinchon-search")
        loop = self._loop or asyncio.get_running_loop()
        where = (game, _moment(game))
        future = loop.run_in_executor(self._thinkers, decide)
        live.timers["bot"] = future
        future.add_done_callback(lambda f: self._thought(live, where, f))

    def _thought(self, live: Live, where: tuple[Any, tuple[Any, ...]],
                 future: asyncio.Future[Any]) -> None:
        """A search's decision found: the move, if the table is where it was when the
        search began; else drive the table again (a new decision if still a bot's)."""
        if live.timers.get("bot") is not future:
            return  # cancelled: the table moved on, ended or the server stopped
        del live.timers["bot"]
        if self.live.get(live.table.id) is not live or future.cancelled():
            return
        game, moment = where
        if live.table.game is not game or _moment(game) != moment:
            self._drive(live)
            return
        phase, seat = moment[2], moment[3]
        try:
            self._bot_act(live, seat, phase, future.result())
        except (IllegalAction, StoreError) as exc:
            log.error("table %s: bot %s refused: %s", live.table.id, phase, exc)
        except Exception:  # pragma: no cover - a bug in a search must not stop the loop
            log.exception("table %s: error in the bot's %s", live.table.id, phase)

    def _summary_step(self, live: Live) -> None:
        """One automatic event of the summary: a bot's rejoin or 'ready', or the next
        hand once every connected person is ready. With no person connected who is
        still in the game or may rejoin it (after a restart, every person at first) the
        next hand waits for the summary's time."""
        table = live.table
        game = table.game
        if game is None or game.phase != "summary":
            return
        for seat in table.bot_seats():
            if not table.ready[seat]:
                if (("rejoin", seat) in game.legal_actions()
                        and self._bot(live, seat).choose_rejoin(game.observe(seat), seat)):
                    self._auto(live, {"kind": "rejoin", "seat": seat})
                else:
                    self._auto(live, {"kind": "ready", "seat": seat})
                return
        people = table.humans()
        if any(live.conns.get(s) and not table.ready[s] for s in people):
            return
        if not any(live.conns.get(s) for s in people):
            actions = game.legal_actions()
            if any(game.in_game[s] or ("rejoin", s) in actions for s in people):
                return  # nobody is here to be ready yet: the summary's timer deals
        self._auto(live, {"kind": "next_hand"})

    @staticmethod
    def _misrecorded(live: Live) -> list[tuple[str, int]]:
        """The events that would make the game's disconnected seats those of the people
        with no connection: a ``disconnect`` of each person gone whom the game does
        not have disconnected, a ``reconnect`` of each one here whom it does (a drop
        before the start; a disconnection or reconnection whose save failed)."""
        table = live.table
        game = table.game
        if table.status != "playing" or game is None or game.result is not None:
            return []
        away = game.disconnected
        return [("reconnect" if live.conns.get(seat) else "disconnect", seat)
                for seat in table.humans() if bool(live.conns.get(seat)) == (seat in away)]

    def _record_connections(self, live: Live) -> None:
        """Store the events of :meth:`_misrecorded`: the game has away the people
        with no connection, each with its deadline, and no one else."""
        for kind, seat in self._misrecorded(live):
            game = live.table.game
            if game is None or game.result is not None:
                return
            self._commit(live, {"kind": kind, "seat": seat})
            self._publish(live, None, None)

    def _retry_seats(self, live: Live) -> None:
        if self._misrecorded(live):
            self._later(live, "retry", RETRY_SECONDS, lambda: self._record_connections(live))

    def _deadline(self, live: Live) -> None:
        """A disconnected seat's wait may be over: tick the game, and store the tick
        only if it cancelled the game."""
        table = live.table
        game = table.game
        if game is None or game.result is not None:
            return
        now = self.now(live)
        wait = table.rules.reconnect_seconds
        late = [s for s, t in game.disconnected.items() if game.in_game[s] and now >= t + wait]
        if late:
            self._auto(live, {"kind": "tick"})
        else:  # woke a little early (timer granularity): look again
            for s, t in game.disconnected.items():
                live.cancel(f"deadline{s}")
            self._drive(live)
