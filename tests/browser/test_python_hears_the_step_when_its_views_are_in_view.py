"""Explore at 1280x720, in Chromium: while Python's views of the settled step (the word
list, the tables, Pair details below the heatmap) are all below the first screen, a
speaker's keys start no Python run between them, however uneven their pace; Python hears
the step once the keys stop, and at once when those views are scrolled into view. The
"Go to step" box beside the bar shows the bar's step all along.

The heatmap itself follows the bar in the browser, from the steps Python sent it: the
step Python heard is read from Pair details, which each of Python's runs draws for its
own step."""

from __future__ import annotations

import contextlib

import pytest

from bench.stage import HEATMAP_STEP  # the step the heatmap's caption names
from tests.support.browser import HOOK, SENT, hook, settled, uneven_keys_unheard
from tests.support.projector import blur, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


#: the step of Python's last run below the first screen: the Pair details box is keyed
#: by the step it was drawn for (bpeviz.ui.explore.pair_box_key: "w_pair_<step>_...")
PAIR_DETAILS_STEP = """() => {
  for (const e of document.querySelectorAll('[class*="st-key-w_pair_"]')) {
    const m = /st-key-w_pair_(\\d+)_/.exec(e.className);
    if (m) return Number(m[1]);
  }
  return null;
}"""


def heard_below(page) -> int | None:
    return page.evaluate(PAIR_DETAILS_STEP)


def heard_below_is(page, step: int) -> None:
    page.wait_for_function(f"() => ({PAIR_DETAILS_STEP})() === {step}", timeout=30_000)


@contextlib.contextmanager
def quiet_explore(browser, server):
    """Explore at step 0, Python caught up, the stage's trail cleared; closed after."""
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.add_init_script("window.__bvDebug = [];")
        page.goto(f"{server}/Explore?step=0")
        page.wait_for_selector(HOOK, timeout=60_000)
        settled(page, 0)
        blur(page)
        page.evaluate("() => { window.__bvDebug.length = 0; }")
        yield page
    finally:
        context.close()


def test_a_speakers_keys_start_no_run_until_they_stop(browser, server):
    with quiet_explore(browser, server) as page:
        box = page.locator('[class*="st-key-bv_settles"]').first.bounding_box()
        assert box["y"] >= 720 - 100, "Python's views of the step start below the first screen"
        uneven_keys_unheard(page, "Go to step")
        # (the panels' own small runs may fetch the steps ahead: the page is not redrawn)
        assert heard_below(page) == 0, "Python's views below still show the step it heard"
        settled(page, 6)  # once they stop
        heard_below_is(page, 6)
        assert page.evaluate(SENT) == [6]
        assert page.locator('[data-testid="stException"]').count() == 0


def test_a_step_typed_into_the_box_after_keys_is_where_the_bar_goes(browser, server):
    with quiet_explore(browser, server) as page:
        for _ in range(4):
            page.keyboard.press("ArrowRight")
        box = page.locator('input[aria-label="Go to step"]')
        assert box.input_value() == "4"
        box.fill("37")
        box.press("Enter")
        settled(page, 37)
        assert hook(page) == 37
        assert box.input_value() == "37"
        blur(page)
        page.keyboard.press("ArrowLeft")
        assert hook(page) == 36 and box.input_value() == "36"
        assert page.locator('[data-testid="stException"]').count() == 0


def test_scrolling_to_the_heatmap_brings_it_the_bars_step(browser, server):
    with quiet_explore(browser, server) as page:
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        heading = page.get_by_text("Pairs at this step", exact=True)
        heading.scroll_into_view_if_needed()
        settled(page, 3)
        kinds = page.evaluate("() => window.__bvDebug.map(d => d[1])")
        assert "in-view" in kinds, "the scroll, not the quiet time, sent the step"
        assert kinds.index("in-view") < kinds.index("send")
        heard_below_is(page, 3)
        assert page.evaluate(HEATMAP_STEP) == 3, "the heatmap shows the bar's step"


def test_with_the_heatmap_in_view_python_sends_it_before_the_first_screen(browser, own_server):
    from bpeviz.ui import trace

    def log() -> str:
        return own_server.log.read_text(encoding="utf-8", errors="replace")

    def order(after: int) -> list[str]:
        return trace.events(log(), ("bar", "heatmap"), after)

    with quiet_explore(browser, own_server) as page:
        page.get_by_text("Pairs at this step", exact=True).scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        seen = len(trace.lines(log()))
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"() => ({HEATMAP_STEP})() === 1", timeout=30_000)
        settled(page, 1)
        heard_below_is(page, 1)
        assert order(seen)[:2] == ["heatmap", "bar"], "the views watched come first"
        assert hook(page) == 1
        # back on the first screen, a key's run draws the first screen first again
        page.locator(HOOK).first.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        box = page.locator('[class*="st-key-bv_settles"]').first.bounding_box()
        assert box["y"] >= 720 - 100, "the views below are out of view again"
        seen = len(trace.lines(log()))
        page.keyboard.press("ArrowRight")
        settled(page, 2)
        heard_below_is(page, 2)
        assert order(seen)[:2] == ["bar", "heatmap"]
