"""Explore's controls in Chromium: the slider, the buttons and the number box move the
step, Play advances and Pause stops, a click on a heatmap cell (or its keys: Tab, arrows,
Enter) shows that pair, and the settings persist across pages and come back from a link."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import (
    card_text,
    go,
    heatmap_in_view,
    no_error,
    ready,
    rerun_done,
    wait_card,
)

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
    heatmap = heatmap_in_view(page, step=0)
    details = page.get_by_role("combobox", name="Pair details")
    assert page.get_by_text(re.compile(r"rank \d+ · count")).inner_text().startswith("rank 1 ")
    # a cell of another pair than the one in Pair details (ringed in blue)
    cells = heatmap.locator(".bv-hm-cell[data-pick]:not(.bv-hm-picked)")
    assert cells.count() > 3
    cell = cells.nth(3)
    count = cell.get_attribute("data-count")
    # its hover names the pair as Pair details does: "⁨left⁩ + ⁨right⁩: count N", each
    # symbol isolated (FSI ... PDI, drawn as nothing)
    pair = re.sub("[\u2066-\u2069]", "", cell.get_attribute("title")).rsplit(": count", 1)[0]
    assert details.input_value() != pair
    cell.click()
    page.wait_for_function(
        "pair => [...document.querySelectorAll('input[aria-label=\"Pair details\"]')]"
        ".some(b => b.value === pair)", arg=pair, timeout=15_000)
    rerun_done(page)
    assert details.input_value() == pair
    shown = page.get_by_text(re.compile(r"rank \d+ · count")).inner_text()
    assert re.match(rf"rank (?!1 )\d+ · count {int(count):,} ", shown), (shown, count)
    # the heatmap rings the pair picked in blue, at the step it was picked at
    picked = heatmap_in_view(page, step=0).locator(".bv-hm-picked")
    assert picked.count() == 1
    assert re.sub("[\u2066-\u2069]", "", picked.get_attribute("title")).startswith(pair + ":")
    no_error(page)


def test_the_heatmap_cells_are_reached_and_picked_by_keys(page, server):
    go(page, server, "Explore?step=4&top_n=8")
    heatmap = heatmap_in_view(page, step=4)
    stops = heatmap.locator('.bv-hm-cell[tabindex="0"]')
    assert stops.count() == 1, "one Tab stop in the grid"
    assert "bv-hm-next" in stops.first.get_attribute("class"), "the pair merged next"
    stops.first.focus()
    start = stops.first.get_attribute("data-pick")
    # arrows move between the cells holding a pair: as many as there are along the row
    # and down the column from the top-left cell (empty cells are passed over)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    focused = page.evaluate("() => document.activeElement.getAttribute('data-pick')")
    assert focused is not None and focused != start, "the focus moved to another pair"
    assert "Merge 4" in card_text(page), "arrows in the grid leave the step alone"
    title = page.evaluate("() => document.activeElement.getAttribute('title')")
    pair = re.sub("[\u2066-\u2069]", "", title).rsplit(": count", 1)[0]
    # the focused cell is drawn with a ring of its own
    ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert ring == "dashed"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "pair => [...document.querySelectorAll('input[aria-label=\"Pair details\"]')]"
        ".some(b => b.value === pair)", arg=pair, timeout=15_000)
    rerun_done(page)
    assert "Merge 4" in card_text(page)
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
