# ruff: noqa: F811  (the fixtures imported above are used as arguments)
"""Projector layouts in a real browser (issue 10, item 4).

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

import tests.test_browser as tb
from bpeviz import train
from bpeviz.samples import load_sample
from bpeviz.ui import train_options
from tests.test_browser import browser, ready, screenshots  # noqa: F401

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

HOOK = "[data-bpeviz-step]"
SIZES = [(1280, 720), (1920, 1080)]

#: elements under the main block whose text is wider than their box (scrollWidth past
#: clientWidth), or whose box leaves the page; a chip that shrinks with an ellipsis is
#: fine when its title holds the whole token
OVERFLOWS = """() => {
  const main = document.querySelector('[data-testid="stMainBlockContainer"]');
  const bad = [];
  const pageWidth = document.documentElement.clientWidth;
  for (const e of main.querySelectorAll('*')) {
    if (!(e instanceof HTMLElement)) continue;
    if (e.closest('.js-plotly-plot, [data-testid="stDataFrame"]')) continue;
    const cs = getComputedStyle(e);
    if (cs.display === 'inline' || cs.display === 'none' || cs.visibility === 'hidden') continue;
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const name = (e.className && e.className.baseVal === undefined ? e.className : e.tagName)
      + ' ' + (e.textContent || '').slice(0, 40);
    if (r.right > pageWidth + 1 || r.left < -1) bad.push('off the page: ' + name);
    const hasText = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!hasText || ['auto', 'scroll'].includes(cs.overflowX)) continue;
    if (e.scrollWidth > e.clientWidth + 1) {
      if (cs.textOverflow === 'ellipsis' && e.title && e.title.includes(e.textContent)) continue;
      bad.push(`spills (${e.scrollWidth} > ${e.clientWidth}): ` + name);
    }
  }
  for (const card of document.querySelectorAll('.bv-card')) {
    const c = card.getBoundingClientRect();
    for (const e of card.querySelectorAll('*')) {
      const r = e.getBoundingClientRect();
      if (!r.width) continue;
      if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1
          || r.bottom > c.bottom + 1)
        bad.push('outside the card: ' + (e.className || e.tagName) + ' '
                 + (e.textContent || '').slice(0, 40));
    }
  }
  // a data grid (its inside is a canvas, skipped above) stays within the main block
  const block = main.getBoundingClientRect();
  for (const g of main.querySelectorAll('[data-testid="stDataFrame"]')) {
    const r = g.getBoundingClientRect();
    if (r.width && (r.right > block.right + 1 || r.left < block.left - 1))
      bad.push(`data grid out of the main block (${Math.round(r.left)}..${Math.round(r.right)}`
               + ` not in ${Math.round(block.left)}..${Math.round(block.right)}): `
               + (g.textContent || '').slice(0, 40));
  }
  if (document.documentElement.scrollWidth > document.documentElement.clientWidth + 1)
    bad.push('the page scrolls sideways');
  return bad;
}"""


@pytest.fixture(params=["light", "dark"])
def scheme(request) -> str:
    return request.param


def open_page(browser, width: int, height: int, scheme: str):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme=scheme)
    return context, context.new_page()


def collapse_sidebar(page) -> None:
    page.hover('[data-testid="stSidebar"]')
    page.locator('[data-testid="stSidebarCollapseButton"] button').click()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stSidebar\"]')"
        ".getBoundingClientRect().right <= 1")
    page.wait_for_timeout(300)


def blur(page) -> None:
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")


def open_presented(page, url: str, drawn: str) -> None:
    """Open a page in presentation mode, wait for ``drawn``, fold the sidebar and put
    the focus on the body."""
    page.goto(url)
    ready(page, 90_000)  # the first page a server shows trains its sample first
    page.wait_for_selector(drawn)
    collapse_sidebar(page)
    blur(page)


def on_first_screen(locator, height: int) -> None:
    box = locator.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (locator, box)


def hook(page) -> int:
    return int(page.locator(HOOK).first.get_attribute("data-bpeviz-step"))


def open_explore(page, server: str, query: str) -> None:
    open_presented(page, f"{server}/Explore?present=1&{query}", ".bv-card")


def background_is_dark(page) -> bool:
    rgb = page.evaluate("() => getComputedStyle(document.querySelector("
                        "'[data-testid=\"stApp\"]')).backgroundColor")
    r, g, b = (int(x) for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3])
    return r + g + b < 3 * 128


def no_overflow(page) -> None:
    bad = page.evaluate(OVERFLOWS)
    assert not bad, "\n".join(bad[:15])


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
        tb.SHOTS.mkdir(parents=True, exist_ok=True)
        page.wait_for_timeout(300)
        page.screenshot(path=str(tb.SHOTS / f"presentation-{width}-{scheme}.png"))
        # the heatmap fits the screen's height; data grids grow with the type
        plot = page.locator(".js-plotly-plot").first
        plot.wait_for(state="visible")
        plot.scroll_into_view_if_needed()
        assert plot.bounding_box()["height"] <= height - 80
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
        tb.SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(tb.SHOTS / f"presentation-{width}-wordpiece-longest.png"))
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
        tb.SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(tb.SHOTS / f"presentation-{width}-dark-tokenize.png"))
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_compare_shows_every_cut_on_the_first_screen(browser, server, width, height):
    """Compare on a projector: the bar and both configurations' whole cuts of the sample's
    text are on the first screen (before, only B's first line was at 1280x720); the choice
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
        tb.SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(tb.SHOTS / f"presentation-{width}-dark-compare.png"))
    finally:
        context.close()
