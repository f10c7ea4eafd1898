"""What a user pasted survives a reload of the tab, in Chromium: the tab's sessionStorage
keeps it (bpeviz/ui/stepper/paste_keeper.js), never the URL; a new tab starts empty."""

from __future__ import annotations

import pytest

from tests.support.browser import no_error, ready

pytestmark = pytest.mark.browser
BOX = 'textarea[aria-label="Text to train on"]'
TEXT = "Ünïcode <b>bold</b> & low lower lowest newer wider " * 40


def test_a_pasted_text_comes_back_after_a_reload_and_trains(page, server):
    page.goto(f"{server}/Explore?source=paste")
    ready(page, timeout=60_000)
    page.locator(BOX).fill(TEXT)
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("[data-bpeviz-step]", timeout=60_000)
    assert "Ünïcode" not in page.url and "bold" not in page.url
    page.reload()
    page.wait_for_selector("[data-bpeviz-step]", timeout=60_000)
    ready(page, timeout=60_000)
    assert page.locator(BOX).input_value() == TEXT
    assert "pasted text" in page.locator("body").inner_text()
    no_error(page)
    # typed and not yet sent to the server: kept all the same
    page.locator(BOX).fill("typed, not sent")
    page.wait_for_timeout(600)
    page.reload()
    ready(page, timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('{BOX}')?.value === 'typed, not sent'",
                           timeout=30_000)


def test_another_tab_starts_with_an_empty_box(browser, server):
    context = browser.new_context()
    try:
        first = context.new_page()
        first.goto(f"{server}/Explore?source=paste")
        ready(first, timeout=60_000)
        first.locator(BOX).fill("only in the first tab")
        first.wait_for_timeout(600)
        second = context.new_page()
        second.goto(f"{server}/Explore?source=paste")
        ready(second, timeout=60_000)
        second.wait_for_timeout(800)
        assert second.locator(BOX).input_value() == ""
    finally:
        context.close()
