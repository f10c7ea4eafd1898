"""Explore's controls in Chromium: the slider, the buttons and the number box move the
step, Play advances and Pause stops, a click on a heatmap cell shows that pair, and the
settings persist across pages and come back from a link."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import card_text, go, no_error, ready, rerun_done, wait_card

pytestmark = pytest.mark.browser

playwright_api = pytest.importorskip("playwright.sync_api")


def test_the_slider_buttons_and_number_box_move_the_step(page, server):
    go(page, server, "Explore?step=10")
    assert "Merge 10" in card_text(page)
    page.get_by_role("button", name="Next merge", exact=True).click()
    wait_card(page, "Merge 11")
    thumb = page.get_by_role("slider", name="Merge step")
    thumb.focus()
    thumb.press("ArrowRight")
    thumb.press("ArrowRight")
    wait_card(page, "Merge 13")
    page.wait_for_function("() => location.search.includes('step=13')")  # the URL follows
    rerun_done(page)
    page.wait_for_function("() => document.querySelectorAll('input[aria-label=\"Go to step\"]')"
                           ".length === 1")  # the box of the old step is gone
    box = page.get_by_label("Go to step", exact=True)
    assert box.input_value() == "13"
    box.fill("3")
    box.press("Enter")
    wait_card(page, "Merge 3\n")
    no_error(page)


def test_play_advances_and_pause_stops(page, server):
    go(page, server, "Explore?step=5")
    page.get_by_text("4 steps/s").click()
    page.get_by_role("button", name="▶ Play").click()
    page.wait_for_function(
        "() => /Merge ([789]|1\\d)\\b/.test(document.querySelector('.bv-card').innerText)",
        timeout=15_000)
    page.get_by_role("button", name="⏸ Pause").click()
    page.get_by_role("button", name="▶ Play").wait_for(timeout=10_000)
    page.wait_for_timeout(600)
    rerun_done(page)
    stopped = card_text(page)
    page.wait_for_timeout(1200)
    assert card_text(page) == stopped, "pause stops the steps"
    no_error(page)


def test_clicking_a_heatmap_cell_shows_that_pair(page, server):
    go(page, server, "Explore?step=0&top_n=8")
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    before = page.get_by_text(re.compile(r"rank \d+ · count")).inner_text()
    assert before.startswith("rank 1 ")
    # the transparent click layer: one square marker per non-empty cell
    points = chart.locator(".scatterlayer .trace").first.locator("path.point")
    assert points.count() > 3
    box = points.nth(3).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(
        "() => [...document.querySelectorAll('.bv-muted')].some("
        "e => /^rank (?!1 )\\d+ · count/.test(e.innerText))", timeout=10_000)
    no_error(page)


def test_settings_persist_across_pages_and_links_reopen_them(page, server):
    go(page, server, "Explore")
    algorithm = page.locator('[data-testid="stSidebar"]').get_by_role("combobox",
                                                                      name="Algorithm")
    algorithm.click()
    page.get_by_role("option", name="WordPiece").click()
    rerun_done(page)
    assert "algo=wordpiece" in page.url
    page.locator('[data-testid="stSidebar"]').get_by_role("link", name="Vocabulary").click()
    rerun_done(page)
    assert "algo=wordpiece" in page.url
    assert algorithm.input_value() == "WordPiece"
    link = page.url
    other = page.context.browser.new_context().new_page()
    try:
        other.goto(link)
        ready(other)
        assert other.locator('[data-testid="stSidebar"]').get_by_role(
            "combobox", name="Algorithm").input_value() == "WordPiece"
        assert "vocabulary" in other.locator("h1").first.inner_text()
    finally:
        other.context.close()
