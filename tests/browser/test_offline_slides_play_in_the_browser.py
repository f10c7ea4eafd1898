"""Offline slides, for a room with no network: ``python -m bpeviz slides`` writes ONE
HTML file;
opened in Chromium with every network request blocked, it plays the merges with the
app's keys, and after End the last merge's token is on screen; the text's tokens are the
encoder's at each step."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bpeviz import train
from bpeviz.core import encoding
from bpeviz.core.serialize import save_training
from bpeviz.samples import SAMPLES, load_sample
from bpeviz.ui import train_options
from tests.support import ROOT
from tests.support.browser import blur, download_slides

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

HOOK = "[data-bpeviz-step]"


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_the_slides_play_offline(browser, tmp_path, algorithm):
    training = train(load_sample("tour", "gpt2" if algorithm == "bbpe" else "whitespace"),
                     **train_options(algorithm, merges=300))
    saved, out = tmp_path / "t.json", tmp_path / "demo.html"
    save_training(training, saved)
    text = SAMPLES["tour"].try_text + " <b>x</b>"
    done = subprocess.run([sys.executable, "-m", "bpeviz", "slides", "--training", str(saved),
                           "--out", str(out), "--text", text, "--words", "10"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size < 400_000
    url = out.as_uri()
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    asked, errors = [], []

    def only_the_file(route):
        asked.append(route.request.url)
        if route.request.url == url:
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_the_file)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    try:
        page.goto(url)
        page.wait_for_selector(HOOK)
        assert asked == [url], "nothing but the file itself is fetched"
        hook = lambda: int(page.locator(HOOK).get_attribute("data-bpeviz-step"))  # noqa: E731
        chips = lambda: [int(i) for i in page.eval_on_selector_all(  # noqa: E731
            "#bv-tokens .bv-chip", "cs => cs.map(c => c.dataset.id)")]
        assert hook() == 0 and chips() == [t.id for t in encoding.encode(training.at(0), text)]
        page.keyboard.press("ArrowRight")
        assert hook() == 1 and "Merge 1" in page.locator(".bv-card").inner_text()
        page.keyboard.press("Shift+ArrowRight")
        assert hook() == 11
        assert chips() == [t.id for t in encoding.encode(training.at(11), text)]
        page.keyboard.press("End")
        last = training.merges[-1]
        assert hook() == len(training.merges)
        new = page.locator(".bv-card .bv-big .bv-chip.bv-new")
        assert int(new.get_attribute("data-id")) == last.token_id
        box = new.bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= 720, "on screen"
        assert chips() == [t.id for t in encoding.encode(training.at(len(training.merges)),
                                                         text)]
        assert page.locator("#bv-tokens b").count() == 0, "the text is drawn as text"
        assert page.locator("#bv-words tbody tr").count() == 10
        page.keyboard.press("Home")
        page.keyboard.press(" ")  # play
        page.wait_for_function("() => Number(document.querySelector("
                               "'[data-bpeviz-step]').dataset.bpevizStep) >= 2", timeout=5000)
        page.keyboard.press(" ")
        assert not errors, errors
        assert asked == [url]
    finally:
        context.close()


def test_explore_downloads_slides_that_play_offline(browser, server, tmp_path):
    context = browser.new_context(viewport={"width": 1440, "height": 1000},
                                  accept_downloads=True)
    page = context.new_page()
    try:
        saved = download_slides(page, f"{server}/Explore?step=10", tmp_path)
        assert saved.name.endswith(".html") and saved.stat().st_size < 400_000
        offline = context.new_page()
        offline.route("**/*", lambda route: route.continue_()
                      if route.request.url == saved.as_uri() else route.abort())
        offline.goto(saved.as_uri())
        offline.wait_for_selector(HOOK)
        offline.keyboard.press("End")
        assert offline.locator(HOOK).get_attribute("data-bpeviz-step") == "200"
        assert "This is the last merge." in offline.locator(".bv-card").inner_text()
        assert offline.locator("#bv-tokens .bv-chip").count() > 5, "the Tokenize text"
    finally:
        context.close()


def test_slides_downloaded_right_after_the_keys_open_at_the_bars_step(browser, server,
                                                                       tmp_path):
    """The download is made by Python at the step it holds: clicked before Python has
    heard the keys (its views are below the first screen, so it hears them 1.2 s after
    the last), the click waits for Python to hear the bar's step, then goes through."""
    context = browser.new_context(viewport={"width": 1280, "height": 720},
                                  accept_downloads=True)
    page = context.new_page()
    try:
        page.add_init_script("window.__bvDebug = [];")
        page.goto(f"{server}/Explore?step=10")
        page.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]',
                               timeout=60_000)
        page.wait_for_selector(HOOK)
        blur(page)  # the page, not a box, has the keys
        for _ in range(3):
            page.keyboard.press("ArrowRight")
        assert page.locator(HOOK).get_attribute("data-bpeviz-step") == "13"
        with page.expect_download(timeout=60_000) as info:
            page.get_by_role("button", name="Download offline slides").click()
        assert page.evaluate("() => window.__bvDebug.some(d => d[1] === 'held-click')"), (
            "the click came before Python heard the step")
        saved = tmp_path / info.value.suggested_filename
        info.value.save_as(saved)
        offline = context.new_page()
        offline.route("**/*", lambda route: route.continue_()
                      if route.request.url == saved.as_uri() else route.abort())
        offline.goto(saved.as_uri())
        offline.wait_for_selector(HOOK)
        assert offline.locator(HOOK).get_attribute("data-bpeviz-step") == "13"
    finally:
        context.close()
