"""Projector layouts in a real browser: the app is shown to a room as often as it is used
alone.

Presentation mode at 1280x720 and 1920x1080, light and dark theme (the app follows the
system theme, emulated with ``color_scheme``), sidebar collapsed: keys step the page with
the focus on the body; the step bar and the merge card are on the first screen; nothing
in the main area spills out of its box (also with the longest token of a WordPiece run on
a Chinese/Japanese text); the heatmap fits the screen's height; data grids grow with the
type; no Deploy button. Screenshots go to the screenshot folder (``BPEVIZ_SCREENSHOTS``,
a temporary one by default) as ``presentation-1280-dark.png`` and so on.
"""

from __future__ import annotations

import urllib.parse

import pytest

from bpeviz import train
from bpeviz.samples import load_sample
from bpeviz.ui import train_options
from tests.support.browser import HOOK, heatmap_in_view, hook, ready, shots_dir
from tests.support.projector import (
    SIZES,
    background_is_dark,
    no_overflow,
    on_first_screen,
    open_explore,
    open_page,
    open_presented,
)

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.mark.parametrize("width,height", SIZES)
def test_explore_fits_a_projector(browser, server, width, height, scheme):
    context, page = open_page(browser, width, height, scheme)
    try:
        open_explore(page, server, "step=10")
        assert background_is_dark(page) == (scheme == "dark"), "the app follows the system theme"
        assert page.locator('[data-testid="stAppDeployButton"]').count() == 0
        assert page.get_by_text("Deploy", exact=True).count() == 0
        title = page.locator("h1").first.bounding_box()
        assert title["y"] < 80, f"the empty header space is gone (title at {title['y']} px)"
        # keys with the focus on the body
        assert page.evaluate("() => document.activeElement === document.body")
        page.keyboard.press("ArrowRight")
        assert hook(page) == 11
        page.keyboard.press("Shift+ArrowRight")
        assert hook(page) == 21
        page.keyboard.press("ArrowLeft")
        assert hook(page) == 20
        # once Python has heard step 20 and redrawn the page (a rerun can re-create an
        # element: for a moment the old one and the new one both stand)
        page.wait_for_function("() => new URLSearchParams(location.search).get('step')"
                               " === '20'", timeout=60_000)
        ready(page, 60_000)
        # the step bar and the card are on the first screen, and nothing is clipped
        for selector in (".bv-stage-bar", HOOK, ".bv-card", ".bv-stage-play"):
            for box in (page.locator(selector).nth(i).bounding_box()
                        for i in range(page.locator(selector).count())):
                assert box["y"] >= 0 and box["y"] + box["height"] <= height, selector
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, selector
        for selector in (".bv-stage-btn", ".bv-stage-speed"):  # ◀ ▶ whole
            for e in page.locator(selector).all():
                assert e.evaluate("b => b.scrollWidth <= b.clientWidth + 1"), selector
        no_overflow(page)
        page.wait_for_timeout(300)
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-{scheme}.png"))
        # the heatmap (its axis titles and colour bar with it) fits the screen's height
        # under Streamlit's header; data grids grow with the type
        heatmap = heatmap_in_view(page, step=20)
        assert heatmap.bounding_box()["height"] <= height - 80, heatmap.bounding_box()
        assert heatmap.locator(".bv-hm-cell").count() == 20 * 20, "no symbol left out to fit"
        grids = page.locator('[data-testid="stDataFrame"]')
        assert grids.count() >= 1
        zoom = float(grids.first.evaluate("g => g.currentCSSZoom"))  # with its boxes
        assert zoom >= 1.2, "the data grids' text grows in presentation mode"
        no_overflow(page)
    finally:
        context.close()


def longest_wordpiece_token() -> tuple[int, str]:
    """The step of the longest token of WordPiece on the tour sample (Chinese, Japanese,
    Korean ... words), with as many merges as the link below asks for."""
    training = train(load_sample("tour", "whitespace"),
                     **train_options("wordpiece", merges=MERGES))
    return max(((m.step, m.token) for m in training.merges), key=lambda st: len(st[1]))


MERGES = 600


@pytest.mark.parametrize("width,height", SIZES)
def test_the_longest_wordpiece_token_stays_in_its_box(browser, server, width, height):
    step, token = longest_wordpiece_token()
    assert len(token) >= 8, token
    context, page = open_page(browser, width, height, "dark")
    try:
        open_explore(page, server, urllib.parse.urlencode(
            {"algo": "wordpiece", "merges": MERGES, "step": step}))
        assert hook(page) == step
        new = page.locator(".bv-card .bv-big .bv-chip.bv-new").first
        assert token in new.get_attribute("title"), "the whole token on hover"
        # the card's bottom on the first screen, no text out of its box
        box = page.locator(".bv-card").first.bounding_box()
        assert box["y"] + box["height"] <= height
        no_overflow(page)
        page.keyboard.press("ArrowRight")
        assert hook(page) == step + 1
        page.keyboard.press("ArrowLeft")
        assert hook(page) == step
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-wordpiece-longest.png"))
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_tokenize_fits_a_projector(browser, server, width, height):
    context, page = open_page(browser, width, height, "dark")
    try:
        open_presented(page, f"{server}/Tokenize?present=1&step=10",
                       ".bv-stage-tokens .bv-chip")
        page.keyboard.press("ArrowRight")
        assert hook(page) == 11
        for selector in (".bv-stage-bar", HOOK, ".bv-stage-tokens .bv-chip"):
            on_first_screen(page.locator(selector).first, height)
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-dark-tokenize.png"))
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_compare_shows_every_cut_on_the_first_screen(browser, server, width, height):
    """Compare on a projector: the bar and both configurations' whole cuts of the sample's
    text are on the first screen (at 1280x720 too, where they are tightest); the choice
    of what moves them sits under the cuts, still on the page; a key moves every cut."""
    context, page = open_page(browser, width, height, "dark")
    try:
        open_presented(page, f"{server}/Compare?present=1", "[data-config] .bv-chip")
        configs = page.locator("[data-config]")
        assert configs.count() == 2
        for selector in (".bv-stage-bar", HOOK):
            on_first_screen(page.locator(selector).first, height)
        for i in range(2):
            on_first_screen(configs.nth(i), height)
        mode = page.get_by_text("Move every configuration by").bounding_box()
        assert mode["y"] > configs.nth(1).bounding_box()["y"], "the choice comes after the cuts"
        before = hook(page)
        page.keyboard.press("ArrowLeft")
        assert hook(page) == before - 1
        for i in range(2):  # each cut's heading names the step it is drawn at
            assert f"step {before - 1} of" in configs.nth(i).locator(
                "xpath=preceding-sibling::*[1]").inner_text(), i
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-dark-compare.png"))
    finally:
        context.close()
