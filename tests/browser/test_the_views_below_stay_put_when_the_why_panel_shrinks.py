"""Explore at 1280x720, in Chromium: "Why this merge?" keeps the tallest height it has
had, so a step whose panel is shorter (step 0's note) does not pull the heatmap a person
is watching up the page, and the next step push it down again."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.browser import HOOK, hook, no_error, settled
from tests.support.projector import blur, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: the top of the heatmap (the stage panel's Streamlit element, which stays while the
#: browser redraws its view), from the top of the page (not of the window)
HEATMAP_Y = """() => {
  const h = document.querySelector('.st-key-stage_heatmap');
  return h.getBoundingClientRect().top + document.querySelector(
    '[data-testid="stMain"]').scrollTop;
}"""
#: "Why this merge?": the first of the stage panels
PANEL = ".bv-stage-panel"
#: how many stage panels the page holds ("Why this merge?", the heatmap, the merges around
#: the step)
PANELS = f"() => document.querySelectorAll('{PANEL}').length"
#: how tall what the panel shows is, whatever height it keeps
CONTENT = f"""() => {{
  const p = document.querySelector('{PANEL}');
  return p.lastElementChild.getBoundingClientRect().bottom - p.getBoundingClientRect().top;
}}"""


@contextlib.contextmanager
def explore_at(browser, server, step):
    """Explore at ``step``, 1280x720, Python caught up, the panel's height measured
    (its minimum set); closed after."""
    context, page = open_page(browser, 1280, 720, "light")
    try:
        # the browser reports a resize loop (an observer that resizes what it watches)
        # as an error event on the window, not as an exception
        page.add_init_script("window.__errors = []; window.addEventListener('error', "
                             "(e) => window.__errors.push(String(e.message)));")
        page.goto(f"{server}/Explore?step={step}")
        page.wait_for_selector(HOOK, timeout=60_000)
        settled(page, step)
        blur(page)
        page.wait_for_function(f"() => document.querySelector('{PANEL}').style.minHeight")
        yield page
        no_error(page)
        assert page.evaluate("() => window.__errors") == []
    finally:
        context.close()


def panel_at(page, step):
    page.wait_for_function(
        f"() => document.querySelector('{PANEL}').dataset.step === '{step}'")
    page.wait_for_timeout(300)  # a frame for the observer, another for layout


def test_going_back_to_step_0_leaves_the_heatmap_where_it_was(browser, server):
    with explore_at(browser, server, 3) as page:
        tall = page.evaluate(f"() => document.querySelector('{PANEL}').offsetHeight")
        before = page.evaluate(HEATMAP_Y)
        page.keyboard.press("Home")
        panel_at(page, 0)
        assert hook(page) == 0
        # step 0's note alone is a few lines: the panel keeps step 3's height
        note = page.evaluate(CONTENT)
        assert page.evaluate(f"() => document.querySelector('{PANEL}').offsetHeight") == tall
        assert page.evaluate(HEATMAP_Y) == pytest.approx(before, abs=2)
        settled(page, 0)
        assert page.evaluate(HEATMAP_Y) == pytest.approx(before, abs=2), (
            "Python's rerun at step 0 does not move it either")
        assert note < tall - 50, "step 0's note is shorter than step 3's panel"


def test_the_first_key_from_step_0_leaves_the_heatmap_where_it_was(browser, server):
    with explore_at(browser, server, 0) as page:
        note = page.evaluate(CONTENT)
        before = page.evaluate(HEATMAP_Y)
        panels = page.evaluate(PANELS)
        # the views of the steps around were measured ahead: room for step 1's is kept
        room = page.evaluate(f"() => document.querySelector('{PANEL}').offsetHeight")
        assert room > note + 50, "step 0's panel keeps room for a merge's view"
        page.keyboard.press("ArrowRight")
        panel_at(page, 1)
        assert hook(page) == 1
        assert page.evaluate(CONTENT) > note + 50, "step 1's view is the taller one"
        assert page.evaluate(HEATMAP_Y) == pytest.approx(before, abs=2)
        settled(page, 1)
        assert page.evaluate(HEATMAP_Y) == pytest.approx(before, abs=2), (
            "nor does Python's rerun at step 1")
        assert page.evaluate(PANELS) == panels, "the views measured ahead were taken out"
