"""Every page loads in Chromium without an error element, in the light and the dark
theme; the screenshots it takes stay out of the repository unless asked for
(``BPEVIZ_SCREENSHOTS``, see tests/browser/conftest.py)."""

from __future__ import annotations

import os

import pytest

from tests.support import ROOT
from tests.support.browser import HEATMAP_PANEL, go, heatmap_in_view, no_error, ready, shot

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")

PAGES = [("", "home"), ("Explore", "explore"), ("Tokenize", "tokenize"),
         ("Compare", "compare"), ("Vocabulary", "vocabulary")]


@pytest.mark.parametrize("path,name", PAGES)
def test_every_page_loads_without_an_error(page, server, path, name):
    go(page, server, f"{path}?step=24" if path else path)
    no_error(page)
    assert page.locator("h1").count() >= 1
    shot(page, name)
    if name == "explore":  # the README's picture of the pair heatmap, at the page's step
        heatmap_in_view(page, step=24)
        shot(page, "explore-heatmap")


def test_presentation_mode_in_the_dark_theme(browser, server):
    context = browser.new_context(viewport={"width": 1440, "height": 1000},
                                  color_scheme="dark")
    tab = context.new_page()
    try:
        tab.goto(f"{server}/Explore?present=1&step=12&sample=seed003&merges=23")
        ready(tab)
        no_error(tab)
        size = tab.evaluate("() => getComputedStyle(document.documentElement).fontSize")
        assert size == "21px"
        # the page whole in the picture (of its first screen): the heatmap drawn below too
        tab.locator(f'{HEATMAP_PANEL}[data-step="12"] .bv-hm-cell').first.wait_for()
        shot(tab, "presentation-dark")
        tab.goto(f"{server}/Tokenize?present=1&step=23&sample=seed003&merges=23")
        ready(tab)
        shot(tab, "presentation-dark-tokenize")
    finally:
        context.close()


def test_screenshots_stay_out_of_the_repository_unless_asked(screenshots):
    """A test run leaves the tree clean: only BPEVIZ_SCREENSHOTS writes into it."""
    if os.environ.get("BPEVIZ_SCREENSHOTS"):
        assert screenshots == ROOT / os.environ["BPEVIZ_SCREENSHOTS"]
    else:
        assert not screenshots.resolve().is_relative_to(ROOT), screenshots
