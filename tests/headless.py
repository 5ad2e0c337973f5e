"""Headless Chromium for the browser tests (the server's page, the simulation report):
the system's ``chromium`` and ``chromedriver`` driven by Selenium."""

from __future__ import annotations

import contextlib
import importlib.util
import os
import shutil
import tempfile
from typing import Any, Iterator

import pytest

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and os.path.exists(p)), None)
DRIVER = next((p for p in (shutil.which("chromedriver"), "/usr/bin/chromedriver",
                           "/usr/lib/chromium/chromedriver") if p and os.path.exists(p)), None)

#: the switches every browser test runs Chromium with
ARGS = ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,900", "--no-first-run", "--disable-extensions")


def require_browser(env: str, what: str, modules: tuple[str, ...] = ()) -> None:
    """Called at a test module's top: skip the module when Selenium, Chromium, its driver
    or one of ``modules`` is missing, except under the environment variable ``env``
    (set by ``.ci/run``), where that is an error naming ``what`` cannot run."""
    missing = [name for name, ok in (
        ("selenium", importlib.util.find_spec("selenium") is not None),
        *((m, importlib.util.find_spec(m) is not None) for m in modules),
        ("chromium", CHROMIUM), ("chromedriver", DRIVER)) if not ok]
    if missing:
        if os.environ.get(env):
            raise RuntimeError(f"{env} is set, but {what} cannot run; missing: "
                               f"{', '.join(missing)}")
        pytest.skip(f"no headless browser here (missing {', '.join(missing)})",
                    allow_module_level=True)


@contextlib.contextmanager
def chrome(*extra: str) -> Iterator[Any]:
    """A headless Chromium (``ARGS`` and ``extra``) logging the page's console, quit on
    exit. Its temporary files go to a directory of its own, removed after it quits:
    Chromium leaves the directory of its singleton socket behind in the system's."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for arg in ARGS + extra:
        opts.add_argument(arg)
    with tempfile.TemporaryDirectory(prefix="chinchon-chromium-") as tmp:
        service = Service(executable_path=DRIVER, env={**os.environ, "TMPDIR": tmp})
        driver = webdriver.Chrome(service=service, options=opts)
        try:
            yield driver
        finally:
            driver.quit()
