"""Explore at 1280x720, in Chromium: "Why this merge?" keeps the tallest height it has
had, so a step whose panel is shorter (step 0's note) does not pull the heatmap a person
is watching up the page, and the next step push it down again; and it measures the steps
next to the bar's ahead, so the first key from step 0 does not push it down either."""

from __future__ import annotations

import contextlib

import pytest

from tests.support.browser import HOOK, hook, no_error, settled
from tests.support.projector import blur, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: the heatmap's heading, from the top of the page (not of the window)
HEADING_Y = """() => {
  const h = [...document.querySelectorAll('h3')].find((e) => e.textContent.trim()
    === 'Pairs at this step');
  return h.getBoundingClientRect().top + document.querySelector(
    '[data-testid="stMain"]').scrollTop;
}"""
PANEL = ".bv-stage-panel"
#: how tall what the panel shows is, whatever height it keeps
CONTENT = f"""() => {{
  const p = document.querySelector('{PANEL}');
  const shown = [...p.children].filter((c) => !c.classList.contains('bv-stage-probe'));
  return shown.at(-1).getBoundingClientRect().bottom - p.getBoundingClientRect().top;
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
        measured(page)
        yield page
        no_error(page)
        assert page.evaluate("() => window.__errors") == []
    finally:
        context.close()


def measured(page):
    """Wait until the panel's height is set and the steps next to the bar's measured (the
    probe the panel lays them out in, when the page is idle, is there and emptied)."""
    page.wait_for_function(f"""() => {{
      const p = document.querySelector('{PANEL}'), probe = p.querySelector('.bv-stage-probe');
      return p.style.minHeight && probe && probe.children.length === 0;
    }}""")
    page.wait_for_timeout(100)  # the height is set in the frame after the measure


def panel_at(page, step):
    page.wait_for_function(
        f"() => document.querySelector('{PANEL}').dataset.step === '{step}'")
    page.wait_for_timeout(300)  # a frame for the observer, another for layout


def test_going_back_to_step_0_leaves_the_heatmap_where_it_was(browser, server):
    with explore_at(browser, server, 3) as page:
        tall = page.evaluate(f"() => document.querySelector('{PANEL}').offsetHeight")
        before = page.evaluate(HEADING_Y)
        page.keyboard.press("Home")
        panel_at(page, 0)
        assert hook(page) == 0
        # step 0's note alone is a few lines: the panel keeps step 3's height
        note = page.evaluate(CONTENT)
        assert page.evaluate(f"() => document.querySelector('{PANEL}').offsetHeight") == tall
        assert page.evaluate(HEADING_Y) == pytest.approx(before, abs=2)
        settled(page, 0)
        assert page.evaluate(HEADING_Y) == pytest.approx(before, abs=2), (
            "Python's rerun at step 0 does not move it either")
        assert note < tall - 50, "step 0's note is shorter than step 3's panel"


def test_the_first_key_from_step_0_leaves_the_heatmap_where_it_was(browser, server):
    # step 1's panel, measured ahead while the page was idle, makes the room
    with explore_at(browser, server, 0) as page:
        note = page.evaluate(CONTENT)
        before = page.evaluate(HEADING_Y)
        page.keyboard.press("ArrowRight")
        panel_at(page, 1)
        assert page.evaluate(CONTENT) > note + 50, "step 1's panel is taller than step 0's note"
        assert page.evaluate(HEADING_Y) == pytest.approx(before, abs=2)
