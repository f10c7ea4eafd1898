"""Vocabulary's Health view and Tokenize's pre-token frames (BPE and Unigram) in
presentation mode on a dark projector, 1280x720 and 1920x1080: the page title comes
before the View choice, every kind's label is read whole, the chosen row's reason (the
first, then a row clicked) is written out whole inside the page's width, the frames stay
inside the page, and no text runs out of its box. Every rule's frame stands out from the
background (a contrast of at least 3:1) in both themes."""

from __future__ import annotations

import pytest

from tests.support.browser import ready, shots_dir
from tests.support.projector import (
    SIZES,
    background_is_dark,
    no_overflow,
    open_page,
    open_presented,
)

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def inside_width(locator, width: int) -> None:
    for k in range(locator.count()):
        box = locator.nth(k).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (k, box)


@pytest.mark.parametrize("width,height", SIZES)
def test_the_health_view_reads_whole_on_a_projector(browser, server, width, height):
    context, page = open_page(browser, width, height, "dark")
    try:
        open_presented(page, f"{server}/Vocabulary?present=1&vocab_view=health&step=200",
                       ".bv-health-reason")
        assert background_is_dark(page)
        title = page.get_by_role("heading", name="The vocabulary").bounding_box()
        choice = page.locator('[data-testid="stButtonGroup"]').first.bounding_box()
        assert title["y"] + title["height"] <= choice["y"]  # the title, then the choice
        reason = page.locator(".bv-health-reason")
        text = reason.inner_text()
        assert "was used" in text and "every use had become" in text
        reason.scroll_into_view_if_needed()
        inside_width(reason, width)
        no_overflow(page)
        # picking another row (its checkbox, a few rows down) writes that row's reason out
        table = page.locator('[data-testid="stDataFrame"]').first
        table.scroll_into_view_if_needed()
        grid = table.bounding_box()
        page.mouse.click(grid["x"] + 20, grid["y"] + grid["height"] * 0.45)
        page.wait_for_function("(before) => { const el = document.querySelector("
                               "'.bv-health-reason'); return el && el.innerText !== before; }",
                               arg=text, timeout=30_000)
        assert "was used" in reason.inner_text()
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-dark-health.png"))
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_each_kinds_count_is_labelled_whole_beside_the_sidebar(browser, server, width,
                                                                height):
    """With the sidebar open, the narrowest a projector's page gets: "Partial characters",
    not "Partial char…"."""
    context, page = open_page(browser, width, height, "dark")
    try:
        page.goto(f"{server}/Vocabulary?present=1&vocab_view=health&step=200")
        ready(page, 90_000)
        page.wait_for_selector('[data-testid="stMetricLabel"]')
        labels = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid="stMetricLabel"]')].map(e => e.innerText.trim())""")
        assert {"Near-duplicates", "Partial characters"} <= set(labels), labels
        cut = page.evaluate("""() => [...document.querySelectorAll(
            '[data-testid="stMetricLabel"] *')].filter(e => e.scrollWidth > e.clientWidth + 1)
            .map(e => e.innerText)""")
        assert not cut, f"labels cut at their box's edge: {cut}"
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
@pytest.mark.parametrize("algo", ["bpe", "unigram"])
def test_the_pre_token_frames_stay_in_the_page(browser, server, width, height, algo):
    context, page = open_page(browser, width, height, "dark")
    try:
        open_presented(page, f"{server}/Tokenize?present=1&pretokens=1&algo={algo}",
                       ".bv-pretoken")
        frames = page.locator(".bv-pretoken")
        assert frames.count() > 3
        page.locator(".bv-pretokens").scroll_into_view_if_needed()
        inside_width(frames, width)
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / f"presentation-{width}-dark-pretokens-{algo}.png"))
    finally:
        context.close()


#: the border colours of the frames and the page's background, as sRGB 0..1 triples
COLOURS = """() => {
  const rgb = (c) => {
    let m = c.match(/^color\\(srgb ([\\d.]+) ([\\d.]+) ([\\d.]+)/);
    if (m) return [+m[1], +m[2], +m[3]];
    m = c.match(/rgba?\\(([\\d.]+), ([\\d.]+), ([\\d.]+)/);
    return [m[1] / 255, m[2] / 255, m[3] / 255];
  };
  const app = document.querySelector('[data-testid="stApp"]');
  return {background: rgb(getComputedStyle(app).backgroundColor),
          frames: [...document.querySelectorAll('.bv-pretoken')].map(
            (el) => [el.dataset.rule, rgb(getComputedStyle(el).borderTopColor)])};
}"""


def luminance(rgb) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_every_rules_frame_stands_out_from_the_background(browser, server, scheme):
    context, page = open_page(browser, 1280, 720, scheme)
    try:
        # GPT-2's pattern: letters, numbers, punctuation and spaces are cut by six rules
        open_presented(page, f"{server}/Tokenize?present=1&pretokens=1&algo=bbpe&text="
                             "I%27m%20here%2C%20don%27t%20panic%3A%2042%20tokens%21%20%20ok"
                             "&text_edited=1", ".bv-pretoken")
        assert background_is_dark(page) == (scheme == "dark")
        found = page.evaluate(COLOURS)
        back = luminance(found["background"])
        rules = {}
        for rule, rgb in found["frames"]:
            lum = luminance(rgb)
            rules[rule] = (max(lum, back) + 0.05) / (min(lum, back) + 0.05)
        assert len(rules) >= 3, rules
        assert min(rules.values()) >= 3, rules
    finally:
        context.close()
