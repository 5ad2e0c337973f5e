"""The page in headless Chromium from the system's packages, driven by Selenium: create a
table with bots, play a hand by clicking, check the points-left labels and the Close
button against the library's own hints, and save screenshots as test artifacts.

Needs the server extra, Selenium, and ``chromium`` + ``chromedriver`` (Debian:
``apt-get install chromium chromium-driver``); nothing is downloaded at run time (the
driver is given by path, so Selenium Manager never runs). Without them the test is
skipped, except when ``CHINCHON_REQUIRE_SERVER_TESTS`` is set (``.ci/run``). Screenshots go to
``$CHINCHON_ARTIFACTS`` or ``tests/server/artifacts/`` (ignored by git).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

import chinchon  # noqa: E402

from .conftest import Server  # noqa: E402

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and os.path.exists(p)), None)
DRIVER = next((p for p in (shutil.which("chromedriver"), "/usr/bin/chromedriver",
                           "/usr/lib/chromium/chromedriver") if p and os.path.exists(p)), None)
try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

_missing = [what for what, ok in (("selenium", HAVE_SELENIUM), ("chromium", CHROMIUM),
                                  ("chromedriver", DRIVER)) if not ok]
if _missing:
    if os.environ.get("CHINCHON_REQUIRE_SERVER_TESTS"):
        raise RuntimeError(f"CHINCHON_REQUIRE_SERVER_TESTS is set, but the browser test "
                           f"cannot run; missing: {', '.join(_missing)}")
    pytest.skip(f"no headless browser here (missing {', '.join(_missing)})",
                allow_module_level=True)

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

ARTIFACTS = Path(os.environ.get("CHINCHON_ARTIFACTS") or Path(__file__).parent / "artifacts")

NAME = "Ana <b>&amp; \"quotes\""


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web") / "tables.sqlite3", "--bot-delay", "0.05")
    yield s
    s.stop()


@pytest.fixture
def browser() -> Iterator[Any]:
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1280,900", "--no-first-run", "--disable-extensions"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    try:
        yield driver
    finally:
        driver.quit()


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


def test_play_a_hand_by_clicking(web_server: Server, browser: Any) -> None:
    d = browser
    d.get(web_server.http + "/")
    wait = WebDriverWait(d, 20)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#players option"))
    d.find_element(By.ID, "name").send_keys(NAME)
    Select(d.find_element(By.ID, "players")).select_by_value("3")
    Select(d.find_element(By.ID, "bots")).select_by_value("2")
    Select(d.find_element(By.ID, "bot-kind")).select_by_value("greedy")
    d.find_element(By.ID, "create").click()
    wait.until(lambda d: d.find_element(By.ID, "table").is_displayed())

    # the name is shown as typed, as text: no element was made of it (the seat box is
    # re-drawn on every view, so read it inside the wait)
    steady = WebDriverWait(d, 20, ignored_exceptions=(StaleElementReferenceException,))
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
            state = WebDriverWait(d, 30).until(lambda d: d.execute_script(STATE_JS))
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
                WebDriverWait(d, 20).until(lambda d: d.find_element(By.ID, "bar-table").text != hand
                                           or d.execute_script(STATE_JS) == "over")
                continue
            if state == "draw":
                d.find_element(By.ID, "stock").click()
                WebDriverWait(d, 10).until(lambda d: d.execute_script(STATE_JS) != "draw")
                continue
            # discard: every card carries the points left; compare with the library
            cards = d.find_elements(By.CSS_SELECTOR, "#hand .card")
            held = [c.get_attribute("data-card") for c in cards]
            assert len(held) == 8
            hints = {str(h.card): h for h in chinchon.discard_hints(held)}
            for c in cards:
                label = c.find_element(By.CSS_SELECTOR, ".left")
                h = hints[c.get_attribute("data-card")]
                assert int(label.get_attribute("data-points")) == h.points
                assert (label.get_attribute("data-close") or None) == h.outcome
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
            WebDriverWait(d, 10).until(lambda d: d.execute_script(STATE_JS) != "discard"
                                       or not d.find_elements(By.CSS_SELECTOR, "#hand .card.selected"))

        except StaleElementReferenceException:
            continue  # a new view re-drew the page under us: look again
    assert checked_turns >= 1 and dim_seen
    if d.execute_script(STATE_JS) == "over":
        shot(d, "table-over")
        assert d.find_element(By.ID, "gameover-title").text
    else:
        assert lit_seen and summaries >= 1
