"""Fixtures of the browser tests: one real ``streamlit run app.py`` and one Chromium
(Debian's /usr/bin/chromium, driven by Playwright) for the whole session, a fresh tab per
test, and the screenshot folder.

The server starts on first use (only tests that ask for ``server`` pay for it); its log
goes to a temporary folder. Every test in this folder is marked ``browser``
(``-m "not browser"`` leaves them out).

Screenshots go to a temporary folder, so a test run leaves the tree clean. To refresh the
committed ones (docs/screenshots/, shown in the README), name the folder in
``BPEVIZ_SCREENSHOTS`` (relative to the repository):

    BPEVIZ_SCREENSHOTS=docs/screenshots python -m pytest tests/browser
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.browser import CHROMIUM, close_shared_browser, shared_browser, use_shots_dir
from tests.support.server import streamlit_server

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items):
    for item in items:
        if HERE in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def screenshots(tmp_path_factory) -> Path:
    """The folder for screenshots: ``BPEVIZ_SCREENSHOTS`` if set, else a temporary one."""
    chosen = os.environ.get("BPEVIZ_SCREENSHOTS")
    folder = ROOT / chosen if chosen else tmp_path_factory.mktemp("screenshots")
    use_shots_dir(folder)
    return folder


@pytest.fixture(scope="session")
def browser():
    """The session's one Chromium (a second sync Playwright in one session fails)."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    pytest.importorskip("playwright.sync_api")
    yield shared_browser()
    close_shared_browser()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The URL of the session's shared ``streamlit run app.py``."""
    with streamlit_server(tmp_path_factory.mktemp("streamlit")) as url:
        yield url


@pytest.fixture
def own_server(tmp_path_factory):
    """A server of the test's own (a load test leaves nothing behind for the others),
    tracing what Python does for each session's step bar (bpeviz.ui.trace)."""
    with streamlit_server(tmp_path_factory.mktemp("streamlit_own"),
                          env={"BPEVIZ_TRACE": "1"}) as url:
        yield url


@pytest.fixture
def page(browser):
    """A fresh browser context (a new Streamlit session); any JS dialog fails the test."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000})
    tab = context.new_page()
    dialogs: list[str] = []

    def on_dialog(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    tab.on("dialog", on_dialog)
    yield tab
    context.close()
    assert not dialogs, f"a dialog opened: {dialogs}"


@pytest.fixture(params=["light", "dark"])
def scheme(request) -> str:
    return request.param


@pytest.fixture
def narrow(browser):
    """A 1400 x 900 window, a common laptop's: what fits there fits most screens."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


@pytest.fixture
def small(browser):
    """A 1280x720 page (a laptop or a projector)."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    tab = context.new_page()
    yield tab
    context.close()
