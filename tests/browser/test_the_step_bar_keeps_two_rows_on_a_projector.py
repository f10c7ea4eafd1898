"""The step bar in presentation mode at 1280x720: Play, the four speeds and ? share one row
under the slider (a narrow bar draws its buttons a little tighter), for steps and for
Unigram's longer "rounds/s", with the "Go to" box's label on one line beside them; and
the Pause button under the pointer that just pressed Play shows its label (white on red),
not the hover's red on red."""

from __future__ import annotations

import pytest

from tests.support.browser import ready
from tests.support.projector import open_page

pytestmark = pytest.mark.browser

#: the top of each control of the bar's second row (Play, the four speeds, ?)
ROW = """() => [...document.querySelectorAll('.bv-stage-play, .bv-stage-speed, .bv-stage-help')]
  .map(e => Math.round(e.getBoundingClientRect().top))"""


@pytest.mark.parametrize("query", ["step=10", "algo=unigram"])
def test_play_the_speeds_and_help_share_one_row(browser, server, query):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Explore?present=1&{query}")
        ready(page, timeout=90_000)
        page.wait_for_selector(".bv-stage-play")
        tops = page.evaluate(ROW)
        assert len(tops) == 6 and max(tops) - min(tops) <= 2, tops
        label = page.locator('[data-testid="stNumberInput"]:has(input[aria-label^="Go to"]) '
                             '[data-testid="stWidgetLabel"]')
        height, size = label.evaluate("e => [e.getBoundingClientRect().height, "
                                      "parseFloat(getComputedStyle(e).fontSize)]")
        assert height < 2 * size, f"the box's label wraps: {height} px at {size} px type"
    finally:
        context.close()


def test_pause_under_the_pointer_shows_its_label(browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Explore?present=1&step=0")
        ready(page, timeout=90_000)
        play = page.locator(".bv-stage-play")
        play.click()  # the pointer stays on it
        page.wait_for_function("() => document.querySelector('.bv-stage-play')"
                               ".classList.contains('bv-on')")
        colour, background = play.evaluate(
            "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
        play.click()
        assert colour == "rgb(255, 255, 255)" and colour != background, (colour, background)
    finally:
        context.close()
