"""Driving the app in Chromium (Playwright's sync API): the one browser of a test
session, waiting for a page to settle, reading the step bar, screenshots.

The fixtures (``browser``, ``page``, ``server`` ...) are in tests/browser/conftest.py.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update"]
_started: list[Any] = []  # [the started sync Playwright, its Chromium], made on first use


def shared_browser() -> Any:
    """The session's one Chromium, started on first use."""
    if not _started:
        from playwright.sync_api import sync_playwright

        driver = sync_playwright().start()
        _started.extend([driver, driver.chromium.launch(executable_path=CHROMIUM,
                                                        args=CHROMIUM_ARGS)])
    return _started[1]


def close_shared_browser() -> None:
    if _started:
        driver, chromium = _started
        _started.clear()
        chromium.close()
        driver.stop()


HOSTILE = ('<script>alert(1)</script> <img src=x onerror=alert(1)> $x$ **bold** </span> '
           '<b>b</b> [a](javascript:alert(1))')


def ready(page, timeout: float = 30_000) -> None:
    """Wait until the app has rendered and stopped running."""
    page.wait_for_selector('[data-testid="stAppViewContainer"]', timeout=timeout)
    page.wait_for_timeout(200)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=timeout)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stSkeleton\"]')",
                           timeout=timeout)
    page.wait_for_timeout(150)


def rerun_done(page) -> None:
    page.wait_for_timeout(300)
    ready(page)


def no_error(page) -> None:
    assert page.locator('[data-testid="stException"]').count() == 0
    assert page.evaluate("() => window.__pwned") is None


def card_text(page) -> str:
    return page.locator(".bv-card").first.inner_text()


def go(page, server: str, path: str = "") -> None:
    page.goto(f"{server}/{path}")
    ready(page)


def chart_in_view(page, settle_ms: float = 500):
    """The page's first plotly chart, scrolled into view and given ``settle_ms`` to draw."""
    plot = page.locator(".js-plotly-plot").first
    plot.scroll_into_view_if_needed()
    page.wait_for_timeout(settle_ms)
    return plot


#: the pair heatmap (Explore's, PickyBPE's): the stage panel "heatmap", which the browser
#: draws from the numbers Python sends (bpeviz/ui/stepper/src/heatmap_view.mjs)
HEATMAP_PANEL = ".st-key-stage_heatmap .bv-stage-panel"
HEATMAP = ".st-key-stage_heatmap .bv-hm-box"

#: scroll the first element of a selector into view unless it is all in view already
#: (centred, or its top at the window's top when it is taller than the window), in one
#: task: the panel rebuilds its view whenever Python sends it more steps, and an element
#: held across two calls may be gone by the second
_SCROLL_TO = """s => {
  const e = document.querySelector(s), r = e.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight)
    e.scrollIntoView({block: r.height > innerHeight ? 'start' : 'center'});
}"""
#: two frames: what a scroll or a key changed is laid out and painted
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def heatmap_in_view(page, step: int | None = None, timeout: float = 60_000):
    """The pair heatmap's box, once the panel has drawn it (of ``step``, if given: the
    panel names the step it shows in ``data-step``), scrolled into view and laid out."""
    panel = HEATMAP_PANEL if step is None else f'{HEATMAP_PANEL}[data-step="{step}"]'
    drawn = f"{panel} .bv-hm-box .bv-hm-cell"
    page.wait_for_selector(drawn, timeout=timeout)
    page.evaluate(_SCROLL_TO, f"{panel} .bv-hm-box")
    page.evaluate(FRAMES)
    page.wait_for_selector(drawn, timeout=timeout)
    return page.locator(f"{panel} .bv-hm-box").first


def paste_corpus(page, text: str) -> None:
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("Paste", exact=True).click()
    rerun_done(page)
    area = sidebar.locator("textarea")
    area.fill(text)
    area.press("Control+Enter")
    rerun_done(page)


HOOK = "[data-bpeviz-step]"


def hook(page) -> int:
    return int(page.locator(HOOK).first.get_attribute("data-bpeviz-step"))


def open_explore(page, server: str, query: str = "step=10") -> None:
    page.goto(f"{server}/Explore?{query}")
    ready(page)
    page.wait_for_selector(HOOK, timeout=60_000)
    blur(page)


def blur(page) -> None:
    """Focus on the page body, as after a click on empty space."""
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); }")
    assert page.evaluate("() => document.activeElement === document.body")


def settled(page, step: int, timeout: float = 30_000, setting: str = "step",
            box: str = "Go to step") -> None:
    """Wait until Python has heard ``step``: the URL (its ``setting``, "uround" for
    Unigram's rounds) and the number box (``box``) show it."""
    page.wait_for_function(
        "([p, s]) => new URLSearchParams(location.search).get(p) === s",
        arg=[setting, str(step)], timeout=timeout)
    page.wait_for_function(
        "([label, s]) => [...document.querySelectorAll('input[aria-label]')]"
        ".some(b => b.getAttribute('aria-label') === label && b.value === s)",
        arg=[box, str(step)], timeout=timeout)
    ready(page)


def play_rate(page, speed: str, seconds: float = 2.5) -> float:
    """Steps per second that Play makes at ``speed``, timed in the page."""
    page.locator(f'.bv-stage-speed[data-speed="{speed}"]').click()
    page.keyboard.press("Home")
    blur(page)
    start = page.evaluate("""() => { window.__playT0 = performance.now();
        window.__playK0 = Number(document.querySelector('[data-bpeviz-step]')
          .getAttribute('data-bpeviz-step'));
        document.querySelector('.bv-stage-play').click(); return window.__playK0; }""")
    page.wait_for_timeout(seconds * 1000)
    steps, elapsed = page.evaluate("""() => {
        const k = Number(document.querySelector('[data-bpeviz-step]')
          .getAttribute('data-bpeviz-step'));
        const t = performance.now() - window.__playT0;
        document.querySelector('.bv-stage-play').click(); return [k - window.__playK0, t]; }""")
    assert start == 0
    return steps / (elapsed / 1000)


#: where screenshots go: set once per session by the ``screenshots`` fixture
_SHOTS: list[Path] = []


def use_shots_dir(folder: Path) -> None:
    _SHOTS[:] = [folder]


def shots_dir() -> Path:
    """The screenshot folder (``BPEVIZ_SCREENSHOTS``, else a temporary one), created."""
    folder = _SHOTS[0]
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def shot(page, name: str) -> None:
    folder = shots_dir()
    page.wait_for_timeout(400)
    page.screenshot(path=str(folder / f"{name}.png"))


def wait_card(page, text: str, timeout: float = 15_000) -> None:
    """Wait until the merge card shows ``text``."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function("t => (document.querySelector('.bv-card') || {}).innerText"
                               "?.includes(t)", arg=text, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"{text!r} not in the card: {card_text(page)!r} "
                             f"({page.url})") from None


def download_slides(page, url: str, folder: Path) -> Path:
    """Open ``url`` (an Explore address), press "Download offline slides" once the page
    has run, and save the file into ``folder``; returns its path. ``page``'s context must
    accept downloads."""
    page.goto(url)
    page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                           timeout=60_000)
    with page.expect_download(timeout=60_000) as info:
        page.get_by_role("button", name="Download offline slides").click()
    saved = folder / info.value.suggested_filename
    info.value.save_as(saved)
    return saved


#: the steps the stage script has reported to Python since its trail (``__bvDebug``) was
#: cleared
SENT = "() => window.__bvDebug.filter(d => d[1] === 'send').map(d => d[2])"


def uneven_keys_unheard(page, box: str, what: str = "step") -> None:
    """Six → keys at a speaker's uneven pace: the bar is at 6, the "``box``" number box
    beside it says so, and none of the six was reported to Python (its trail, ``SENT``,
    empty)."""
    for pause in (0.35, 0.5, 0.2, 0.35, 0.7, 0.35):  # uneven, as a hand is
        page.keyboard.press("ArrowRight")
        time.sleep(pause)
    assert hook(page) == 6
    assert page.locator(f'input[aria-label="{box}"]').input_value() == "6", (
        f"the {box} box shows the bar's {what} before Python hears it")
    assert page.evaluate(SENT) == [], f"no {what} reported between the keys"
