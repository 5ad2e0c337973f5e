"""The HTML report opened from disk in headless Chromium (the system's, driven by
Selenium as tests/server/test_browser.py drives it), with every host unreachable: each
figure is decoded and drawn, the page fetches nothing, and logs no error.

Needs the plot extra, pyarrow, Selenium, ``chromium`` and ``chromedriver``; skipped
without them, except under ``CHINCHON_REQUIRE_PLOT_TESTS`` (``.ci/run``), where what is
missing is an error."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from tests.headless import chrome, require_browser
from tests.simulation.conftest import require_plot_extra

require_plot_extra()

require_browser("CHINCHON_REQUIRE_PLOT_TESTS", "the report's browser test",
                ("matplotlib", "pyarrow"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

import chinchon  # noqa: E402
from chinchon.cli import main  # noqa: E402
from chinchon.simulation import simulate  # noqa: E402
from chinchon.simulation.plot import KINDS  # noqa: E402

N = 40 if chinchon.IMPLEMENTATION == "native" else 6

FIGURES_JS = """
return Array.from(document.querySelectorAll('figure.plot')).map(f => {
  const img = f.querySelector('img');
  const box = img.getBoundingClientRect();
  return {id: f.id, complete: img.complete, width: img.naturalWidth,
          height: img.naturalHeight, shown: box.width > 100 && box.height > 50};
});
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # offline: no host resolves, so a page that needed one would show it
    with chrome("--host-resolver-rules=MAP * ~NOTFOUND") as driver:
        yield driver


def check_opened(d: Any, path: Any) -> None:
    d.get(path.resolve().as_uri())
    figures = d.execute_script(FIGURES_JS)
    assert [f["id"] for f in figures] == [f"figure-{k}" for k in KINDS]
    for f in figures:  # decoded (a natural size) and laid out on the page
        assert f["complete"] and f["width"] > 400 and f["height"] > 100 and f["shown"], f
    assert d.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name)") == []
    errors = [e for e in d.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == []
    assert d.find_element("css selector", "table.parameters").is_displayed()


def test_report_opens_offline_with_every_figure(browser, tmp_path, capsys):
    simulate(N, 3, bots="greedy,random,greedy", seed=8, records=tmp_path / "a")
    simulate(N, 3, bots="greedy,random,greedy", seed=9, records=tmp_path / "b",
             rules="fifty")
    one, two = tmp_path / "one.html", tmp_path / "two.html"
    assert main(["report", str(tmp_path / "a"), "--out", str(one)]) == 0
    assert main(["report", "--compare", str(tmp_path / "a"), str(tmp_path / "b"),
                 "--out", str(two)]) == 0
    capsys.readouterr()
    check_opened(browser, one)
    assert browser.title == "chinchon simulation: a"
    check_opened(browser, two)
    assert browser.find_element("css selector", "table.differences").is_displayed()
