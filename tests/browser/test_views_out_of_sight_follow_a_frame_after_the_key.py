"""Explore at 1280x720, in Chromium: a key's frame draws what a person sees (the card,
the numbers beside it, the Why panel); the word splits below the first screen draw the
key's step in the frame after it, saying meanwhile which step they owe, so the key's
frame does not wait for the word table's layout. Scrolled into view, the splits draw in
the key's own frame. While Play runs, a panel below the first screen asks Python for no
steps ahead: nobody sees it, and each answer is a run drawn between Play's steps."""

from __future__ import annotations

import pytest

from tests.support.browser import HOOK, blur, no_error, ready, settled
from tests.support.projector import open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: what the card and the words show when the stage's own key handler is done, just
#: before the key's frame is drawn, and in the frame after it (window.__bvFrames)
WATCH_ONE_KEY = """() => {
  const card = () => document.querySelector('.bv-stage-card').getAttribute('data-bpeviz-card');
  const words = () => document.querySelector('.bv-stage-words');
  const hook = () => document.querySelector('[data-bpeviz-step]').getAttribute('data-bpeviz-step');
  const look = () => ({ hook: hook(), card: card(),
                        owed: words().getAttribute('data-bpeviz-follows'),
                        split: words().innerText });
  window.__bvFrames = null;
  // bubbling, on the window: after the stage's own (capture) handler has moved the step
  window.addEventListener('keydown', () => {
    const seen = { key: look() };
    requestAnimationFrame(() => {  // runs before the key's frame is drawn
      seen.keyFrame = look();
      setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => {
        seen.later = look();
        window.__bvFrames = seen;
      })), 0);
    });
  }, { once: true });
}"""


def one_key(page) -> dict:
    page.evaluate(WATCH_ONE_KEY)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => window.__bvFrames !== null", timeout=10_000)
    return page.evaluate("() => window.__bvFrames")


def explore_at_step_zero(browser, server):
    """Explore at 1280x720 on the default sample, Python at step 0, no focus in a box."""
    context, page = open_page(browser, 1280, 720, "light")
    page.goto(f"{server}/Explore?step=0")
    ready(page, 120_000)
    page.wait_for_selector(HOOK, timeout=60_000)
    settled(page, 0)
    blur(page)
    return context, page


def test_the_word_splits_below_the_first_screen_follow_a_frame_after_the_key(browser, server):
    context, page = explore_at_step_zero(browser, server)
    try:
        words = page.locator(".bv-stage-words")
        assert words.bounding_box()["y"] >= 720, "the word splits start below the first screen"
        before = words.inner_text()

        seen = one_key(page)
        assert seen["key"]["card"] == "1", "the card is drawn by the key's handler"
        assert seen["key"]["owed"] == "1", "the words say which step they still owe"
        assert seen["keyFrame"]["split"] == before, "the key's frame leaves the words as they were"
        assert seen["later"]["owed"] is None
        assert seen["later"]["split"] != before, "the frame after draws merge 1's splits"

        # in view, the splits are drawn with the key, in its frame (the card, scrolled
        # out of view now, is the one that follows a frame later)
        words.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        in_view = words.inner_text()
        seen = one_key(page)
        assert seen["key"]["hook"] == "2"
        assert seen["later"]["card"] == "2"
        assert seen["key"]["owed"] is None
        assert seen["key"]["split"] != in_view, "drawn by the key's handler"
        page.wait_for_timeout(1500)
        no_error(page)
    finally:
        context.close()


#: each panel Python draws per step (its stage root, not a measuring probe): where it
#: starts, the step it shows, whether that is its waiting note, and the last step it
#: asked Python for
PANELS = """() => [...document.querySelectorAll('.bv-stage-panel')]
  .filter((e) => e.parentElement.__bvFollower?.root === e)
  .map((e) => { const f = e.parentElement.__bvFollower;
    return { top: e.getBoundingClientRect().top + window.scrollY, step: e.dataset.step,
             waiting: !!e.querySelector('.bv-panel-waiting'),
             asked: f.asked ? f.asked.step : null }; })"""


def test_a_panel_below_the_first_screen_asks_for_no_steps_while_play_runs(browser, server):
    """Explore at 1280x720 playing at 10 steps/s: the Why panel on the first screen asks
    Python for the steps ahead as Play nears the edge of the ones it holds; the merges
    table below the first screen asks for none (each answer is a run the browser draws
    between Play's steps, for a view nobody sees), and once Play stops Python sends it
    the steps around the bar's, so it shows the bar's step."""
    context, page = explore_at_step_zero(browser, server)
    try:
        panels = page.evaluate(PANELS)
        below = [p for p in panels if p["top"] >= 720]
        seen = [p for p in panels if p["top"] < 720]  # the Why panel
        assert below and seen, f"a panel on the first screen and one below it: {panels}"
        asked_below = [p["asked"] for p in below]

        page.locator('.bv-stage-speed[data-speed="10"]').first.click()
        page.locator(".bv-stage-play").first.click()
        blur(page)
        page.wait_for_function(
            f"() => Number(document.querySelector('{HOOK}')"
            ".getAttribute('data-bpeviz-step')) >= 40", timeout=30_000)
        playing = page.evaluate(PANELS)
        page.locator(".bv-stage-play").first.click()  # pause
        step = int(page.locator(HOOK).first.get_attribute("data-bpeviz-step"))

        assert [p["asked"] for p in playing if p["top"] >= 720] == asked_below, \
            "the panel below the first screen asked for nothing while Play ran"
        assert any(p["asked"] is not None and p["asked"] >= 16
                   for p in playing if p["top"] < 720), \
            f"the Why panel in view asked for the steps ahead: {playing}"
        # paused, Python hears the bar's step and sends the panels the steps around it
        page.wait_for_function(
            f"() => ({PANELS})().filter((p) => p.top >= 720)"
            f".every((p) => p.step === '{step}' && !p.waiting)", timeout=30_000)
        no_error(page)
    finally:
        context.close()
