"""Unigram's Explore at 1280x720, in Chromium: the round's card and numbers are the
browser's, and what Python draws for the settled round (the loss curve, the pieces
removed, the word splits) is below the first screen. A speaker's keys, at an uneven
pace, start no Python run between them (a run's drawing held the next keys' frames back
by 200-500 ms); Python hears the round once they stop, and the views below follow it."""

from __future__ import annotations

import json

import pytest

from tests.support.browser import HOOK, SENT, ready, settled, uneven_keys_unheard
from tests.support.projector import blur, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

#: the round the loss curve's caption names (Python's view below the first screen)
LOSS_ROUND = """() => {
  const m = document.body.innerText.match(/the dashed line marks round (\\d+)/);
  return m ? Number(m[1]) : null;
}"""


def heard(page, k: int) -> None:
    """Python has heard round ``k``: the URL and the round box show it."""
    settled(page, k, setting="uround", box="Go to round")


def at_round_zero(page, server: str) -> None:
    """Unigram's Explore at round 0, Python has heard it, the focus on the body and the
    stage's trail of reports (``SENT``) empty."""
    page.add_init_script("window.__bvDebug = [];")
    page.goto(f"{server}/Explore?algo=unigram&uround=0")
    ready(page, 120_000)
    page.wait_for_selector(HOOK, timeout=60_000)
    heard(page, 0)
    blur(page)
    page.evaluate("() => { window.__bvDebug.length = 0; }")


def test_a_speakers_keys_start_no_run_until_they_stop_on_unigrams_rounds(browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        at_round_zero(page, server)
        below = page.locator('[class*="st-key-bv_settles"]')
        assert below.count() == 1, "the views below are one container that follows on settling"
        assert below.bounding_box()["y"] >= 720 - 100, "and it starts below the first screen"
        assert page.evaluate(LOSS_ROUND) == 0

        uneven_keys_unheard(page, "Go to round", "round")
        assert page.evaluate(LOSS_ROUND) == 0, "Python's views below still show its round"

        heard(page, 6)  # once the keys stop
        page.wait_for_function(f"() => ({LOSS_ROUND})() === 6", timeout=30_000)
        assert page.evaluate(SENT) == [6]
    finally:
        context.close()


def test_the_rounds_download_pressed_before_python_heard_the_round_is_that_round(
        browser, server, tmp_path):
    # the button is on the first screen but drawn by Python, which hears the round only
    # once the keys stop: a click before that waits for Python's run at the bar's round
    context, page = open_page(browser, 1280, 720, "light")
    try:
        at_round_zero(page, server)
        uneven_keys_unheard(page, "Go to round", "round")
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="Download this round as tokenizer.json").click()
        assert info.value.suggested_filename == "unigram-round-6.tokenizer.json"
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        model = json.loads(saved.read_text(encoding="utf-8"))["model"]
        assert model["type"] == "Unigram" and model["vocab"], "a whole Unigram model"
        assert page.evaluate(SENT)[:1] == [6], "the click sent the bar's round at once"
    finally:
        context.close()
