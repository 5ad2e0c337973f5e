"""The page in headless Chromium from the system's packages, driven by Selenium: create a
table with bots, play a hand by clicking, check the points-left labels and the Close
button against the library's own hints, and save screenshots as test artifacts. Then,
for every rules preset, a table dealt so that its player holds melds (with a joker where
the preset has jokers): the page shows the melds and cards the server sent, without a
script error.

Needs the server extra, Selenium, and ``chromium`` + ``chromedriver`` (Debian:
``apt-get install chromium chromium-driver``); nothing is downloaded at run time (the
driver is given by path, so Selenium Manager never runs). Without them the test is
skipped, except when ``CHINCHON_REQUIRE_SERVER_TESTS`` is set (``.ci/run``). Screenshots go to
``$CHINCHON_ARTIFACTS`` or ``tests/server/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import chinchon  # noqa: E402
from chinchon.rules import PRESET_DESCRIPTIONS, PRESETS  # noqa: E402
from chinchon.server._json import encode  # noqa: E402
from chinchon.server.faces import close_card, shown_melds  # noqa: E402
from chinchon.server.store import Store, TableWrite  # noqa: E402
from chinchon.server.tables import Table  # noqa: E402

from ..headless import chrome, require_browser  # noqa: E402
from .conftest import Server, void_hand_records  # noqa: E402

require_browser("CHINCHON_REQUIRE_SERVER_TESTS", "the browser test")

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ARTIFACTS = Path(os.environ.get("CHINCHON_ARTIFACTS") or Path(__file__).parent / "artifacts")

NAME = "Ana <b>&amp; \"quotes\""

#: how often a wait looks at the page again, in seconds (Selenium's default, 0.5, would
#: sleep half a second at each of the hundreds of waits of a hand played by clicking)
POLL = 0.02


def waiting(driver: Any, seconds: float, **kwargs: Any) -> WebDriverWait:
    """A wait of up to ``seconds`` that looks at the page every :data:`POLL` seconds."""
    return WebDriverWait(driver, seconds, poll_frequency=POLL, **kwargs)


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web") / "tables.sqlite3", "--bot-delay", "0.05")
    yield s
    s.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    with chrome() as driver:
        yield driver


def shot(driver: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


STATE_JS = """
if (!document.getElementById('gameover').hidden) return 'over';
if (!document.getElementById('summary').hidden) return 'summary';
if (document.getElementById('stock').classList.contains('clickable')) return 'draw';
if (document.querySelector('#hand .left')) return 'discard';
return null;
"""

#: the hand as drawn, in one round trip (the page draws a view in one go): each card's
#: data-card and its points-left label's data-points and data-close ("" where the card
#: closes nothing), the two null where the card has no label
HAND_JS = """
return Array.from(document.querySelectorAll('#hand .card'), (c) => {
  const label = c.querySelector('.left');
  return [c.getAttribute('data-card'), label && label.getAttribute('data-points'),
          label && label.getAttribute('data-close')];
});
"""

#: at the draw: the hand's cards and the discard pile's top (null when the pile is empty)
DRAW_JS = """
const top = document.querySelector('#discard[data-card]');
return [Array.from(document.querySelectorAll('#hand .card'), (c) => c.getAttribute('data-card')),
        top && top.getAttribute('data-card')];
"""


def test_play_a_hand_by_clicking(web_server: Server, browser: Any) -> None:
    d = browser
    d.get(web_server.http + "/")
    wait = waiting(d, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#players option"))
    d.find_element(By.ID, "name").send_keys(NAME)
    # the note under the rules is the chosen preset's description, as the server sent it
    rules = Select(d.find_element(By.ID, "rules"))
    first = rules.first_selected_option.get_attribute("value")
    assert d.find_element(By.ID, "rules-note").text == PRESET_DESCRIPTIONS[first]
    for name in PRESETS:
        rules.select_by_value(name)
        assert d.find_element(By.ID, "rules-note").text == PRESET_DESCRIPTIONS[name]
    rules.select_by_value(first)  # the table below is created with the rules offered first
    Select(d.find_element(By.ID, "players")).select_by_value("3")
    Select(d.find_element(By.ID, "bots")).select_by_value("2")
    Select(d.find_element(By.ID, "bot-kind")).select_by_value("greedy")
    d.find_element(By.ID, "create").click()
    wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())

    # the name is shown as typed, as text: no element was made of it (the seat box is
    # re-drawn on every view, so read it inside the wait)
    steady = waiting(d, 20, ignored_exceptions=(StaleElementReferenceException,))
    assert steady.until(lambda d: d.find_element(By.CSS_SELECTOR, "#me-seat .name").text) == NAME
    assert not d.find_elements(By.CSS_SELECTOR, "#me-seat b, #opponents b")

    checked_turns = 0
    lit_seen = dim_seen = False
    summaries = 0
    saved = set()
    # play by clicking, hand after hand, until Close has been seen both lit and dark
    # and a hand has been settled after that (or the game ends)
    for _ in range(1500):
        try:
            state = waiting(d, 30).until(lambda d: d.execute_script(STATE_JS))
            if state == "over":
                break
            if state == "summary":
                rows = d.find_elements(By.CSS_SELECTOR, "#settlement .srow")
                assert 2 <= len(rows) <= 3  # one per player in the hand, the closer first
                assert "closer" in rows[0].get_attribute("class")
                assert d.find_element(By.ID, "summary-title").text.startswith("Hand ")
                summaries += 1
                if "summary" not in saved:
                    shot(d, "table-summary")
                    saved.add("summary")
                if lit_seen and dim_seen:
                    break
                hand = d.find_element(By.ID, "bar-table").text
                button = d.find_elements(By.CSS_SELECTOR, "#btn-rejoin:not([hidden])") or \
                    d.find_elements(By.CSS_SELECTOR, "#btn-ready:not([hidden])")
                button[0].click()
                waiting(d, 20).until(lambda d: d.find_element(By.ID, "bar-table").text != hand
                                     or d.execute_script(STATE_JS) == "over")
                continue
            if state == "draw":
                # much as the greedy bot draws (without its first-round rule): the
                # pile's top where it lowers the points or may close, so Close is lit
                # sooner and the pile is clicked too
                held, top = d.execute_script(DRAW_JS)
                source = "stock"
                if top is not None:
                    after = chinchon.discard_hints(held + [top])
                    if (min(h.points for h in after) < chinchon.deadwood(held)
                            or any(h.can_close for h in after)):
                        source = "discard"
                d.find_element(By.ID, source).click()
                waiting(d, 10).until(lambda d: d.execute_script(STATE_JS) != "draw")
                continue
            # discard: every card carries the points left; compare with the library
            shown = d.execute_script(HAND_JS)
            held = [card for card, _, _ in shown]
            assert len(held) == 8
            hints = {str(h.card): h for h in chinchon.discard_hints(held)}
            for card, points, outcome in shown:
                assert points is not None, f"{card} has no points-left label"
                assert int(points) == hints[card].points
                assert (outcome or None) == hints[card].outcome
            any_close = any(h.can_close for h in hints.values())
            close = d.find_element(By.ID, "btn-close")
            assert ("lit" in close.get_attribute("class")) == any_close
            assert close.is_enabled() == any_close
            # select a card of each kind: Close is lit exactly for the cards that may close
            for card in {h.can_close: c for c, h in hints.items()}.values():
                d.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{card}"]').click()
                close = d.find_element(By.ID, "btn-close")
                assert ("lit" in close.get_attribute("class")) == hints[card].can_close
                assert close.is_enabled() == hints[card].can_close
                d.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{card}"]').click()
            checked_turns += 1
            if "discard" not in saved:
                shot(d, "table-discard")
                saved.add("discard")
            if any_close:
                lit_seen = True
                if "close" not in saved:
                    shot(d, "table-can-close")
                    saved.add("close")
                d.find_element(By.ID, "btn-close").click()
            else:
                dim_seen = True
                best = min(hints.values(), key=lambda h: h.points)
                d.find_element(By.CSS_SELECTOR, f'#hand .card[data-card="{best.card}"]').click()
                d.find_element(By.ID, "btn-discard").click()
            # until the server's next view is drawn: the hand is down to 7 cards (the page
            # may clear its selection before that view comes, so a selection gone proves
            # nothing), or the hand is settled
            waiting(d, 10).until(
                lambda d: d.execute_script(STATE_JS) in ("summary", "over")
                or len(d.find_elements(By.CSS_SELECTOR, "#hand .card")) != 8)

        except StaleElementReferenceException:
            continue  # a new view re-drew the page under us: look again
    assert checked_turns >= 1 and dim_seen
    if d.execute_script(STATE_JS) == "over":
        shot(d, "table-over")
        assert d.find_element(By.ID, "gameover-title").text
    else:
        assert lit_seen and summaries >= 1


# ---------------------------------------------------------------- every preset, jokers

PLAYERS = 3
TOKEN = "t" * 32

#: run in the page before its own script: keep every message the server sends and every
#: script error (the page's Content-Security-Policy does not apply to this)
CAPTURE_JS = """
window.__errors = [];
window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));
window.__received = [];
const Native = window.WebSocket;
function Capturing(url, protocols) {
  const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
  ws.addEventListener('message', (ev) => {
    try { window.__received.push(JSON.parse(ev.data)); } catch (e) {}
  });
  return ws;
}
Capturing.prototype = Native.prototype;
for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Capturing[k] = Native[k];
window.WebSocket = Capturing;
"""


def _joker_inside(melds: list[dict[str, Any]]) -> bool:
    """Whether a meld laid out for the table holds a joker after a natural card."""
    return any(m["joker"] is not None and m["cards"].index(m["joker"]) > 0 for m in melds)


def _deal(preset: str) -> list[dict[str, Any]]:
    """The create and start records of a table of ``preset`` where seat 0 (a person; the
    others are bots) leads holding a meld, draws from the stock a card that lets it
    close, and closes with melds on the table; under rules with jokers, a meld of its
    seven cards, of its eight and of the close hold a joker after a natural card
    (``7o 7c *1``, ``5c *1 7c``): the first such seed."""
    rules = PRESETS[preset]
    create = Table.new_record(f"T-{preset}", players=PLAYERS, preset=preset, rules=rules,
                              name=NAME, token_sha256=hashlib.sha256(TOKEN.encode()).hexdigest(),
                              bots=PLAYERS - 1, bot="greedy", now=0.0)
    has_jokers = rules.jokers > 0 or rules.wild_ace_of_coins
    for seed in range(20000):
        start = {"kind": "start", "seed": seed, "now": 1.0}
        table = Table.replay([create, start])
        game = table.game
        assert game is not None
        seven = shown_melds(chinchon.best_melds(game.held(0), rules=rules).melds)
        if game.turn != 0 or not seven or (has_jokers and not _joker_inside(seven)):
            continue
        table.apply({"kind": "draw", "seat": 0, "source": "stock", "now": 1.0})
        card = close_card(game.hints(), rules)
        eight = shown_melds(chinchon.best_melds(game.held(0), rules=rules).melds)
        if card is None or (has_jokers and not _joker_inside(eight)):
            continue
        table.apply({"kind": "close", "seat": 0, "card": card, "now": 1.0})
        assert game.last_hand is not None
        closed = shown_melds(game.last_hand.settlement.closer.melds)
        if closed and (not has_jokers or _joker_inside(closed)):
            return [create, start]
    raise AssertionError(f"no deal of {preset} in 20000 seeds has the melds wanted")


@pytest.fixture(scope="module")
def dealt_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, str]]]:
    """A server holding, for every preset, a table dealt by :func:`_deal`, and a conga
    table whose hand the player's next discard voids, stored before the server starts
    (which resumes them). Bots wait long before moving, so that the seat's cards stay
    as dealt."""
    db = tmp_path_factory.mktemp("dealt") / "tables.sqlite3"
    token_sha256 = hashlib.sha256(TOKEN.encode()).hexdigest()
    stored = {preset: _deal(preset) for preset in PRESETS}
    stored["void"] = void_hand_records("T-void", token_sha256, NAME)
    store = Store(str(db))
    tables = {}
    try:
        for key, records in stored.items():
            table = Table.from_create(records[0])
            state, _ = table.state_json()
            store.create(table.id, table.status, table.meta_json(), state, encode(records[0]))
            for record in records[1:]:
                table.apply(dict(record))
            state, _ = table.state_json()
            store.write([TableWrite(table.id, 1, table.seq, table.status, state,
                                    (table.meta_json(), table.base_game_json()))],
                        [(table.id, seq, encode(r)) for seq, r in enumerate(records[1:], 2)])
            tables[key] = table.id
    finally:
        store.close()
    s = Server(db, "--bot-delay", "600", "--reconnect-seconds", "600", "--summary-seconds", "600")
    yield s, tables
    s.stop()


def _open_table(d: Any, server: Server, table: str) -> WebDriverWait:
    """Open the page at ``table`` holding seat 0's token, every message and script error
    kept (:data:`CAPTURE_JS`); a wait that looks again at a re-drawn element."""
    d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE_JS})
    d.get(server.http + "/")
    d.execute_script("localStorage.setItem('chinchon.seats', JSON.stringify(arguments[0]))",
                     {table: {"seat": 0, "token": TOKEN, "at": 0}})
    d.get(f"{server.http}/?{table}#t={table}")
    return waiting(d, 20, ignored_exceptions=(StaleElementReferenceException,))


def _page_errors(d: Any) -> list[str]:
    errors = list(d.execute_script("return window.__errors || []"))
    errors += [e["message"] for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    return errors


def _last_view(d: Any) -> dict[str, Any]:
    views = d.execute_script("return window.__received.filter((m) => m.type === 'view')")
    return views[-1]


def _check_hand(d: Any, rules: chinchon.Rules) -> dict[str, Any]:
    """The page shows the hand of the last view it received: each meld a group labelled
    with its kind, its cards in the order sent; the rest in a group of its own; each
    card drawn with the face the welcome gave it. The melds are the library's (kinds
    included), under the table's rules."""
    view = _last_view(d)
    faces = d.execute_script("return window.__received.find((m) => m.type === 'welcome').cards")
    groups = d.find_elements(By.CSS_SELECTOR, "#hand .group")
    shown = [(g.get_attribute("data-label") or None,
              [c.get_attribute("data-card") for c in g.find_elements(By.CSS_SELECTOR, ".card")])
             for g in groups]
    arrangement = chinchon.best_melds(view["hand"], rules=rules)
    want = [(m["kind"], m["cards"]) for m in shown_melds(arrangement.melds)]
    if arrangement.unmatched:
        want.append((None, [str(c) for c in arrangement.unmatched]))
    assert shown == want
    sent = view["arranged"]
    assert shown == [(m["kind"], m["cards"]) for m in sent["melds"]] + \
        ([(None, sent["unmatched"])] if sent["unmatched"] else [])
    assert [c for _, cards in shown for c in cards] == view["hand"]
    for node in d.find_elements(By.CSS_SELECTOR, "#hand .card"):
        face = faces[node.get_attribute("data-card")]
        assert node.find_element(By.CSS_SELECTOR, ".rank").text == face["rank"]
        assert face["suit"] in node.get_attribute("class").split("s-", 1)[1]
        assert node.get_attribute("title").startswith(face["name"])
        # a screen reader's name: the suit too, not only the rank the card shows
        assert node.accessible_name.startswith(face["name"]), node.accessible_name
    return view


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_shows_its_melds_jokers_included(
        dealt_server: tuple[Server, dict[str, str]], browser: Any, preset: str) -> None:
    server, tables = dealt_server
    table = tables[preset]
    rules = PRESETS[preset]
    has_jokers = rules.jokers > 0 or rules.wild_ace_of_coins
    d = browser
    wait = _open_table(d, server, table)

    # seat 0 leads: its turn to draw, seven cards
    wait.until(lambda d: _page_errors(d) or d.execute_script(STATE_JS) == "draw")
    assert _page_errors(d) == []
    view = wait.until(lambda d: _check_hand(d, rules))
    assert len(view["hand"]) == 7
    assert _joker_inside(view["arranged"]["melds"]) or (view["melds"] and not has_jokers)
    shot(d, f"preset-{preset}-draw")

    # it draws: eight cards, each with the points left, a meld with a joker inside
    d.find_element(By.ID, "stock").click()
    wait.until(lambda d: _page_errors(d) or d.execute_script(STATE_JS) == "discard")
    assert _page_errors(d) == []
    view = wait.until(lambda d: _check_hand(d, rules))
    assert len(view["hand"]) == 8
    assert _joker_inside(view["arranged"]["melds"]) or not has_jokers
    labels = {c.get_attribute("data-card"): c.find_element(By.CSS_SELECTOR, ".left")
              for c in d.find_elements(By.CSS_SELECTOR, "#hand .card")}
    assert sorted(labels) == sorted(view["hints"])
    for card, label in labels.items():
        assert int(label.get_attribute("data-points")) == view["hints"][card]["points"]
    close = d.find_element(By.ID, "btn-close")
    assert "lit" in close.get_attribute("class")
    assert close.get_attribute("data-card") == view["close_card"]
    # the prompt names the card the button closes with (not "you can close" with any)
    named = close.text.removeprefix("Close with ")
    assert named != close.text
    assert d.find_element(By.ID, "prompt").text == (
        f"You can close with the {named}, or choose a card to discard.")
    shot(d, f"preset-{preset}-discard")

    # it closes: the summary lays out every player's melds as the server sent them
    close.click()
    wait.until(lambda d: _page_errors(d) or d.execute_script(STATE_JS) == "summary")
    assert _page_errors(d) == []
    view = _last_view(d)
    shown = view["game"]["last_hand_shown"]
    assert d.find_element(By.ID, "summary-sub").text == shown["note"]
    rows = d.find_elements(By.CSS_SELECTOR, "#settlement .srow")
    assert len(rows) == len(shown["melds"])
    for row, melds in zip(rows, shown["melds"]):
        assert [[c.get_attribute("data-card") for c in m.find_elements(By.CSS_SELECTOR, ".mini-card")]
                for m in row.find_elements(By.CSS_SELECTOR, ".minis.meld")] == \
            [m["cards"] for m in melds]
    assert _joker_inside(shown["melds"][0]) or not has_jokers
    shot(d, f"preset-{preset}-summary")
    assert _page_errors(d) == []


def test_a_void_hand_shows_its_summary(dealt_server: tuple[Server, dict[str, str]],
                                       browser: Any) -> None:
    """A hand voided at the stock (conga: the player's discard leaves 2 cards in it) has
    no settlement: the summary says so, shows every seat's points, and the page throws
    nothing."""
    server, tables = dealt_server
    d = browser
    wait = _open_table(d, server, tables["void"])
    wait.until(lambda d: _page_errors(d) or d.execute_script(STATE_JS) == "discard")
    assert _page_errors(d) == []
    d.find_element(By.CSS_SELECTOR, "#hand .card").click()
    d.find_element(By.ID, "btn-discard").click()
    wait.until(lambda d: _page_errors(d) or d.execute_script(STATE_JS) == "summary")
    assert _page_errors(d) == []
    shown = _last_view(d)["game"]["last_hand_shown"]
    assert d.find_element(By.ID, "summary-title").text == f"Hand 1: {shown['title']}"
    assert d.find_element(By.ID, "summary-sub").text == shown["note"]
    rows = d.find_elements(By.CSS_SELECTOR, "#settlement .srow")
    assert len(rows) == 3 and not d.find_elements(By.CSS_SELECTOR, "#settlement .minis")
    shot(d, "void-summary")
    assert _page_errors(d) == []


OFFERED_JS = """
const shown = (id) => { const e = document.getElementById(id); return e && !e.hidden && !e.disabled; };
return document.querySelectorAll('#table .clickable').length
  + ['btn-ready', 'btn-rejoin', 'btn-discard', 'btn-close'].filter(shown).length;
"""


def test_a_window_whose_seat_another_took_offers_no_move(
        dealt_server: tuple[Server, dict[str, str]], browser: Any) -> None:
    """Two windows on one seat: the newer one plays it. The older one kept its moves lit
    (the stock clickable at the seat's turn), and a click there only said 'Not
    connected; trying again' from a window that never tries again."""
    server, tables = dealt_server
    table = tables["classic"]
    d = browser
    wait = _open_table(d, server, table)
    wait.until(lambda d: d.execute_script(STATE_JS) in ("draw", "summary"))
    assert d.execute_script(OFFERED_JS) > 0  # its turn, or the summary's ready
    first = d.current_window_handle
    d.switch_to.new_window("tab")  # the same browser: the seat's token is shared
    d.get(f"{server.http}/?{table}#t={table}")
    wait.until(lambda d: d.execute_script(STATE_JS) in ("draw", "summary"))
    assert d.execute_script(OFFERED_JS) > 0
    d.close()
    d.switch_to.window(first)
    wait.until(lambda d: d.execute_script(OFFERED_JS) == 0)
    assert d.find_element(By.ID, "stock").get_attribute("disabled") is not None
    assert _page_errors(d) == []
