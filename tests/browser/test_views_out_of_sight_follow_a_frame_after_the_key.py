"""Explore at 1280x720, in Chromium: a key's frame draws what a person sees (the card,
the numbers beside it, the Why panel); the word splits below the first screen draw the
key's step in the frame after it, saying meanwhile which step they owe, so the key's
frame does not wait for the word table's layout. Scrolled into view, the splits draw in
the key's own frame."""

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


def test_the_word_splits_below_the_first_screen_follow_a_frame_after_the_key(browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Explore?step=0")
        ready(page, 120_000)
        page.wait_for_selector(HOOK, timeout=60_000)
        settled(page, 0)
        blur(page)
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
