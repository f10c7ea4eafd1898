"""Explore on a stage, in Chromium, in presentation mode: what a speaker needs in front
of an audience. The merge card keeps one height while the steps go by (nothing below
it jumps); a click on the page after a key draws no grey focus box through the title;
the keys list opens without moving the "Go to step" box; Streamlit's running badge
(a running figure and a Stop button) stays hidden while a training runs; the pair
heatmap uses the page's width and no two of its labels overlap; the offline slides
open at the step and in the theme they were downloaded from.
"""

from __future__ import annotations

import random
import string

import pytest

from tests.support.browser import HOOK, hook, ready, shots_dir
from tests.support.projector import background_is_dark, blur, open_explore, open_page

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

CARD_HEIGHT = """() => {
  const card = [...document.querySelectorAll('.bv-stage-card .bv-card')]
    .find(c => c.getBoundingClientRect().height);
  return card ? card.getBoundingClientRect().height : null;
}"""


def test_the_merge_card_keeps_one_height_from_step_1_to_40(browser, server):
    """At 1280x720 a card sized by its tokens' lengths would jump (by up to 90 px) from
    one step to the next, and everything below it with it."""
    context, page = open_page(browser, 1280, 720, "light")
    try:
        open_explore(page, server, "step=1")
        heights = []
        for step in range(1, 41):
            page.wait_for_function(f"() => document.querySelector('{HOOK}')"
                                   f".dataset.bpevizStep === '{step}'")
            heights.append(page.evaluate(CARD_HEIGHT))
            page.keyboard.press("ArrowRight")
        assert None not in heights
        assert max(heights) - min(heights) <= 3, heights
        box = page.locator(".bv-stage-card .bv-card").first.bounding_box()
        assert box["y"] + box["height"] <= 720, "the card is on the first screen"
    finally:
        context.close()


#: Streamlit's ring around its focused main area: an inset shadow on stMain::before
MAIN_RING = """() => {
  const main = document.querySelector('[data-testid="stMain"]');
  return [document.activeElement === main, main.matches(':focus-visible'),
          getComputedStyle(main, '::before').boxShadow, getComputedStyle(main).outlineStyle];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_click_on_the_page_draws_no_focus_box_over_the_title(browser, server, scheme):
    """A click focuses Streamlit's main area; the next key (→ on a clicker) makes Chromium
    show its focus, which Streamlit draws as a grey box whose top edge crosses the title
    unless the app hides it."""
    context, page = open_page(browser, 1280, 720, scheme)
    try:
        open_explore(page, server, "step=5")
        page.mouse.move(1200, 180)  # a blank spot right of the caption, away from the title
        page.wait_for_timeout(300)
        title = page.locator("h1").first.bounding_box()
        strip = {"x": 300, "y": max(title["y"] - 30, 0), "width": 980,
                 "height": title["height"] + 40}
        before = page.screenshot(clip=strip)
        page.mouse.click(1200, 180)
        page.keyboard.press("ArrowRight")
        assert hook(page) == 6, "the keys step the page"
        page.wait_for_function("() => new URLSearchParams(location.search).get('step') === '6'",
                               timeout=60_000)
        ready(page, 60_000)
        page.wait_for_timeout(300)
        focused, ringed, shadow, outline = page.evaluate(MAIN_RING)
        assert focused and ringed, "the main area has the focus, shown (the case at hand)"
        assert shadow == "none" and outline == "none", (shadow, outline)
        assert page.screenshot(clip=strip) == before, "the title looks as it did"
    finally:
        context.close()


def test_the_keys_list_leaves_go_to_step_in_line(browser, server):
    context, page = open_page(browser, 1280, 720, "dark")
    try:
        open_explore(page, server, "step=5")
        box = page.get_by_role("spinbutton", name="Go to step")
        before = box.bounding_box()
        page.keyboard.press("?")
        keys = page.locator(".bv-stage-keys").first
        keys.wait_for(state="visible")
        assert box.bounding_box() == before
        # readable: opaque, over the page below the bar
        background = keys.evaluate("k => getComputedStyle(k).backgroundColor")
        assert "rgba" not in background or background.endswith(", 1)"), background
        assert keys.bounding_box()["y"] >= page.locator(".bv-stage-bar").nth(1).bounding_box()["y"]
        page.keyboard.press("?")
        keys.wait_for(state="hidden")
        assert box.bounding_box() == before
    finally:
        context.close()


#: every frame, whether Streamlit's running badge is drawn (a box with a size)
WATCH_BADGE = """() => {
  window.__badge = [];
  const tick = () => {
    const e = document.querySelector('[data-testid="stStatusWidget"]');
    if (e) {
      const r = e.getBoundingClientRect();
      if (r.width && r.height) window.__badge.push(e.innerText);
    }
    requestAnimationFrame(tick);
  };
  tick();
}"""


def test_presentation_mode_hides_the_running_badge_while_a_training_runs(browser, server):
    """A pasted text of 59,000 distinct words trained to 20,000 merges takes a few
    seconds: the page shows its progress bar, and no running figure or Stop button."""
    rng = random.Random(7)
    text = " ".join("".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 12)))
                    for _ in range(60_000))
    context, page = open_page(browser, 1280, 720, "dark")
    try:
        page.goto(f"{server}/Explore?present=1&merges=20000")
        ready(page, 90_000)
        page.wait_for_selector(".bv-card")
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_text("Paste", exact=True).click()
        page.wait_for_timeout(300)
        ready(page)
        area = sidebar.locator("textarea")
        area.fill(text)
        page.evaluate(WATCH_BADGE)
        area.press("Control+Enter")
        page.wait_for_timeout(500)
        ready(page, 120_000)
        assert "on pasted text: 59,004 distinct words, 20,000 merges" in page.locator(
            '[data-testid="stCaptionContainer"]').first.inner_text()
        assert page.evaluate("() => window.__badge") == []
    finally:
        context.close()


#: the pair heatmap: the stage panel the browser draws from Python's numbers (its Streamlit
#: element stays while the panel redraws its view; the view's own nodes do not)
HEATMAP = ".st-key-stage_heatmap"

#: each column label of the heatmap: its text, its text's box (the <bdi> inside the label:
#: a label cut short or spilling over keeps its whole width there), its font, and whether
#: its text is cut (an ellipsis)
X_LABELS = f"""() => [...document.querySelectorAll('{HEATMAP} .bv-hm-col')].map(e => {{
  const r = e.firstElementChild.getBoundingClientRect();
  const size = parseFloat(getComputedStyle(e).fontSize);
  return [e.textContent, r.left, r.right, r.top, r.bottom, size,
          e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1];
}})"""


def overlaps(a, b) -> bool:
    return a[1] < b[2] and b[1] < a[2] and a[3] < b[4] and b[3] < a[4]


def heatmap_in_view(page, step: int) -> None:
    """Wait for the heatmap of ``step``, then scroll it into view and let it settle."""
    page.wait_for_selector(f"{HEATMAP} .bv-stage-panel[data-step='{step}'] .bv-hm-cell",
                           timeout=60_000)
    page.locator(HEATMAP).scroll_into_view_if_needed()
    page.wait_for_timeout(500)


@pytest.mark.parametrize("step", [24, 150])
def test_the_presentation_heatmap_uses_the_width_and_no_labels_overlap(browser, server, step):
    """At 1920x1080 the heatmap fills the page's width (a grid sized for the narrowest page
    leaves most of a 1700 px page empty), and its column labels never run together ("m"
    "at" would read as "mat")."""
    context, page = open_page(browser, 1920, 1080, "light")
    try:
        open_explore(page, server, f"step={step}")
        heatmap_in_view(page, step)
        main = page.locator('[data-testid="stMainBlockContainer"]').first.bounding_box()
        grid = page.locator(f"{HEATMAP} .bv-hm").first.bounding_box()
        assert grid["width"] >= 0.75 * main["width"], (grid, main)
        box = page.locator(f"{HEATMAP} .bv-hm-box").first.bounding_box()
        assert box["height"] <= 1080 - 80  # the whole chart fits the screen
        labels = page.evaluate(X_LABELS)
        assert len(labels) >= 10
        for i, a in enumerate(labels):
            assert a[5] >= 14, f"{a[0]!r} is drawn at {a[5]} px"
            for b in labels[i + 1:]:
                grown = [b[0], b[1] - 2, b[2] + 2, b[3] - 2, b[4] + 2]  # and 2 px apart
                assert not overlaps(a, grown), (a, b)
        assert not [a[0] for a in labels if a[6]], "column labels cut short"
        page.locator(HEATMAP).screenshot(
            path=str(shots_dir() / f"presentation-1920-heatmap-{step}.png"))
    finally:
        context.close()


def test_slides_open_at_the_step_and_in_the_theme_they_were_downloaded_from(
        browser, server, tmp_path):
    """Downloaded at step 24 in the dark theme, the slides open at step 24, dark: the
    speaker goes on where the page was."""
    context = browser.new_context(viewport={"width": 1440, "height": 1000},
                                  accept_downloads=True, color_scheme="dark")
    page = context.new_page()
    try:
        page.goto(f"{server}/Explore?step=24")
        ready(page, 90_000)
        assert background_is_dark(page)
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="Download offline slides").click()
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
    finally:
        context.close()
    # opened on a laptop whose system theme is light
    laptop = browser.new_context(viewport={"width": 1280, "height": 720}, color_scheme="light")
    offline = laptop.new_page()
    try:
        offline.route("**/*", lambda route: route.continue_()
                      if route.request.url == saved.as_uri() else route.abort())
        offline.goto(saved.as_uri())
        offline.wait_for_selector(HOOK)
        step = lambda: offline.locator(HOOK).get_attribute("data-bpeviz-step")  # noqa: E731
        assert step() == "24"
        assert "Merge 24" in offline.locator(".bv-card").inner_text()
        rgb = offline.evaluate("() => getComputedStyle(document.body).backgroundColor")
        r, g, b = (int(x) for x in rgb[rgb.index("(") + 1: rgb.index(")")].split(",")[:3])
        assert r + g + b < 3 * 128, f"the dark theme it was made in ({rgb})"
        offline.keyboard.press("Home")  # the keys still reach every step
        assert step() == "0"
        offline.keyboard.press("End")
        assert step() == "200"
        offline.keyboard.press("ArrowLeft")
        assert step() == "199"
    finally:
        laptop.close()


def test_projector_screenshots_of_explore(browser, server):
    """Screenshots for the eye (``BPEVIZ_SCREENSHOTS``): 1280x720 and 1920x1080, light
    and dark, presentation mode, with the keys list open and the heatmap in view."""
    for width, height in ((1280, 720), (1920, 1080)):
        for scheme in ("light", "dark"):
            context, page = open_page(browser, width, height, scheme)
            try:
                open_explore(page, server, "step=24")
                name = f"explore-stage-{width}-{scheme}"
                page.screenshot(path=str(shots_dir() / f"{name}.png"))
                page.keyboard.press("?")
                page.screenshot(path=str(shots_dir() / f"{name}-keys.png"))
                page.keyboard.press("?")
                blur(page)
                heatmap_in_view(page, 24)
                page.screenshot(path=str(shots_dir() / f"{name}-heatmap.png"))
            finally:
                context.close()
