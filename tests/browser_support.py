"""One Chromium (Playwright's sync API) for the whole test session.

Browser test modules import the ``browser`` fixture from tests/test_browser.py, and each
import registers the fixture again; a second ``sync_playwright()`` in the same session
fails ("Sync API inside the asyncio loop"). Every registration returns this one browser
instead; conftest.py closes it when the session ends.
"""

from __future__ import annotations

from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
_started: list[Any] = []  # [the started sync Playwright, its Chromium], made on first use


def shared_browser() -> Any:
    """The session's one Chromium, started on first use."""
    if not _started:
        from playwright.sync_api import sync_playwright

        driver = sync_playwright().start()
        _started.extend([driver, driver.chromium.launch(executable_path=CHROMIUM,
                                                        args=CHROMIUM_ARGS)])
    return _started[1]


def close_shared_browser() -> None:
    if _started:
        driver, chromium = _started
        _started.clear()
        chromium.close()
        driver.stop()
