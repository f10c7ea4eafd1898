"""Compare at 1280x720, on a screen (not a projector), light and dark: each configuration's
settings are one folded line above the text, so the cuts, their differences framed
(data-bpeviz-diff), are on the first screen; a fold opened stays open while a setting in
it changes, its label following the setting."""

from __future__ import annotations

import pytest

from tests.support.browser import no_error, ready, rerun_done, shots_dir
from tests.support.projector import open_page

pytestmark = pytest.mark.browser

#: how far from the top the first line of each configuration's cut starts, and the first
#: framed difference's top (the window is 720 px high)
FIRST_SCREEN = """() => {
  const top = sel => { const e = document.querySelector(sel);
                       return e ? e.getBoundingClientRect().top : null; };
  const wheres = [...document.querySelectorAll('.bv-cmp-where')]
    .map(e => e.getBoundingClientRect().top);
  return {wheres, diff: top('[data-bpeviz-diff]'), text: top('textarea[aria-label="Text to cut"]')};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_cuts_and_their_differences_are_on_the_first_screen(browser, server, scheme):
    context, page = open_page(browser, 1280, 720, scheme)
    try:
        page.goto(f"{server}/Compare")
        ready(page, timeout=90_000)
        page.wait_for_selector("[data-bpeviz-diff]", timeout=60_000)
        found = page.evaluate(FIRST_SCREEN)
        page.screenshot(path=str(shots_dir() / f"compare-first-screen-{scheme}.png"))
        assert found["text"] is not None and found["text"] < 720, found
        assert len(found["wheres"]) == 2 and found["wheres"][0] < 640, found
        assert found["diff"] is not None and found["diff"] < 700, found
        no_error(page)
    finally:
        context.close()


def test_an_opened_fold_stays_open_and_names_the_new_setting(browser, server):
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Compare")
        ready(page, timeout=90_000)
        fold = page.locator(".st-key-cmp_config_2")
        assert "B · Byte-level BPE · 200 merges" in fold.locator("summary").inner_text()
        fold.locator("summary").click()
        box = fold.locator('input[aria-label="Merges"]')
        box.fill("120")
        box.press("Enter")
        page.wait_for_function("() => new URLSearchParams(location.search)"
                               ".get('c2_merges') === '120'", timeout=60_000)
        rerun_done(page)
        assert "B · Byte-level BPE · 120 merges" in fold.locator("summary").inner_text()
        assert fold.locator("details").get_attribute("open") is not None, "the fold closed"
        assert box.is_visible()
        no_error(page)
    finally:
        context.close()
