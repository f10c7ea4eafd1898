"""Explore at 1280x720, in Chromium: while Python's views of the settled step (the word
list, the tables, the heatmap) are all below the first screen, a speaker's keys start
no Python run between them, however uneven their pace; Python hears the step once the
keys stop, and at once when those views are scrolled into view."""

from __future__ import annotations

import time

import pytest

from tests.support.browser import HOOK, hook, settled
from tests.support.projector import blur, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: counts the page's Python runs (Streamlit's script state turning to "running")
RUNS = """() => {
  window.__runs = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.__runs += 1;
  }).observe(app, { attributes: true, attributeFilter: ['data-test-script-state'] });
}"""

SENT = "() => window.__bvDebug.filter(d => d[1] === 'send').map(d => d[2])"


def open_quiet_explore(browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    page.add_init_script("window.__bvDebug = [];")
    page.goto(f"{server}/Explore?step=0")
    page.wait_for_selector(HOOK, timeout=60_000)
    settled(page, 0)
    blur(page)
    page.evaluate(RUNS)
    page.evaluate("() => { window.__bvDebug.length = 0; }")
    return context, page


def test_a_speakers_keys_start_no_run_until_they_stop(browser, server):
    context, page = open_quiet_explore(browser, server)
    try:
        box = page.locator('[class*="st-key-bv_settles"]').first.bounding_box()
        assert box["y"] >= 720 - 100, "Python's views of the step start below the first screen"
        for pause in (0.35, 0.5, 0.2, 0.35, 0.7, 0.35):  # uneven, as a hand is
            page.keyboard.press("ArrowRight")
            time.sleep(pause)
        assert hook(page) == 6
        assert page.evaluate(SENT) == [], "no step reported between the keys"
        assert page.evaluate("() => window.__runs") == 0, "no Python run between the keys"
        settled(page, 6)  # once they stop
        assert page.evaluate(SENT) == [6]
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        context.close()


def test_scrolling_to_the_heatmap_brings_it_the_bars_step(browser, server):
    context, page = open_quiet_explore(browser, server)
    try:
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        heading = page.get_by_text("Pairs at this step", exact=True)
        heading.scroll_into_view_if_needed()
        settled(page, 3)
        kinds = page.evaluate("() => window.__bvDebug.map(d => d[1])")
        assert "in-view" in kinds, "the scroll, not the quiet time, sent the step"
        assert kinds.index("in-view") < kinds.index("send")
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
            ".some(c => /step 3\\b/.test(c.textContent))", timeout=30_000)
    finally:
        context.close()
