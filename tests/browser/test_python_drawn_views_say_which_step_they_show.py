"""The Vocabulary page at 1280x720, in Chromium: its table, merge tree and charts are
Streamlit widgets only Python draws, and Python hears the bar's step when it settles. In
the frame of the key that leaves their step they are dimmed and a note over them names
the step they show and the one that follows; Python's run for the new step clears it."""

from __future__ import annotations

import pytest

from tests.support.browser import HOOK, blur, hook, no_error, ready, settled
from tests.support.projector import open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

VIEWS = ".st-key-bv_drawn_vocabulary"

#: the views' state in the frame of the next key (a frame callback runs before the key's
#: frame is drawn): the bar's step, whether they are dimmed, what the note says
WATCH_ONE_KEY = """(views) => {
  window.__bvSeen = null;
  // the opacity the table is seen with: its own and every ancestor's up to the views'
  const seenOpacity = (e, top) => {
    let o = 1;
    for (let x = e; x && x !== top.parentElement; x = x.parentElement) {
      o *= Number(getComputedStyle(x).opacity);
    }
    return o;
  };
  window.addEventListener('keydown', () => requestAnimationFrame(() => {
    const box = document.querySelector(views);
    const note = box.querySelector('.bv-drawn-note');
    window.__bvSeen = {
      step: document.querySelector('[data-bpeviz-step]').getAttribute('data-bpeviz-step'),
      behind: box.classList.contains('bv-behind'),
      follows: box.getAttribute('data-bpeviz-follows'),
      note: note ? note.innerText : null,
      table: seenOpacity(box.querySelector('[data-testid="stDataFrame"]'), box),
    };
  }), { once: true });
}"""


def test_the_views_python_draws_are_marked_in_the_keys_frame_until_python_catches_up(
        browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Vocabulary?step=20")
        ready(page, 120_000)
        page.wait_for_selector(HOOK, timeout=60_000)
        settled(page, 20)
        views = page.locator(VIEWS)
        assert views.locator('[data-testid="stDataFrame"]').count() == 1
        assert views.get_by_text("tokens at step 20").count() == 1
        assert views.evaluate("e => e.classList.contains('bv-behind')") is False
        blur(page)
        page.evaluate(WATCH_ONE_KEY, VIEWS)
        page.keyboard.press("ArrowRight")
        page.wait_for_function("() => window.__bvSeen !== null", timeout=10_000)
        seen = page.evaluate("() => window.__bvSeen")
        assert seen["step"] == "21" and seen["behind"] is True and seen["follows"] == "21"
        assert seen["note"] == ("These views show step 20; step 21 follows when the step "
                                "settles.")
        assert seen["table"] < 0.6, "the table is dimmed"
        # the note sits over the views' top right corner, on the first screen
        box = page.locator(".bv-drawn-note").bounding_box()
        assert box is not None and box["y"] < 720 and box["x"] + box["width"] <= 1280
        # Python hears the step: the views are drawn for it and the mark is gone
        settled(page, 21)
        ready(page, 60_000)
        page.wait_for_function(f"() => !document.querySelector('{VIEWS}.bv-behind')",
                               timeout=30_000)
        assert hook(page) == 21
        assert views.get_by_text("tokens at step 21").count() == 1
        assert page.locator(".bv-drawn-note").count() == 0
        no_error(page)
    finally:
        context.close()
