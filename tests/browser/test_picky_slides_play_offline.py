"""Offline slides of a PickyBPE training, opened in Chromium with every request blocked:
the keys step through merges and removals, the card and "Why this step?" are the step's
(a removal's card in red, named so), the text's tokens are the encoder's at each step,
and a step the file does not hold says so instead of showing another step's. Also: the
app's Explore, with PickyBPE chosen, offers the file."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.present.slides import slides_html
from bpeviz.samples import load_sample
from tests.support.browser import download_slides

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

HOOK = "[data-bpeviz-step]"
TEXT = "The tokenizer learns tokens: lowest newer <b>x</b>"


def shown(page, host: str) -> str:
    """The step the panel in ``host`` shows (its root's data-step)."""
    return page.eval_on_selector(f"{host} [data-step]", "e => e.dataset.step")


def _offline(context, path):
    page = context.new_page()
    url = path.as_uri()
    asked, errors = [], []

    def only_the_file(route):
        asked.append(route.request.url)
        (route.continue_ if route.request.url == url else route.abort)()

    page.route("**/*", only_the_file)
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(url)
    page.wait_for_selector(HOOK)
    return page, asked, errors


def test_picky_slides_step_through_merges_and_removals_offline(browser, tmp_path):
    training = bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=120,
                            threshold=0.9)
    out = tmp_path / "picky.html"
    out.write_text(slides_html(training, text=TEXT, words=8, step=0), "utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page, asked, errors = _offline(context, out)
        hook = lambda: int(page.locator(HOOK).get_attribute("data-bpeviz-step"))  # noqa: E731
        card = page.locator("#bv-card")
        chips = lambda: [int(i) for i in page.eval_on_selector_all(  # noqa: E731
            "#bv-tokens .bv-chip", "cs => cs.map(c => c.dataset.id)")]
        assert hook() == 0
        page.keyboard.press("ArrowRight")
        first = training.events[0]
        assert hook() == 1 and shown(page, "#bv-card") == "1"
        assert f"{first.count:,}" in card.inner_text()
        assert chips() == [t.id for t in training.at(1).encode(TEXT)]
        removal = next(e for e in training.events if e.kind == "removal")
        for _ in range(removal.step - 1):
            page.keyboard.press("ArrowRight")
        assert hook() == removal.step
        assert card.locator('[data-kind="removal"]').count() == 1, "the removal's red card"
        assert removal.token in card.inner_text()
        assert "IoS" in page.locator("#bv-why").inner_text()
        assert chips() == [t.id for t in training.at(removal.step).encode(TEXT)]
        page.keyboard.press("End")
        last = len(training.events)
        assert hook() == last and shown(page, "#bv-card") == str(last)
        assert chips() == [t.id for t in training.at(last).encode(TEXT)]
        assert page.locator("#bv-tokens b").count() == 0, "the text is drawn as text"
        assert page.locator("#bv-words tbody tr").count() == 8
        # the bar ticks every removal
        ticks = page.locator("datalist option").count()
        assert ticks >= sum(e.kind == "removal" for e in training.events)
        assert not errors, errors
        assert asked == [out.as_uri()]
    finally:
        context.close()


def test_a_step_the_file_does_not_hold_says_so(browser, tmp_path, monkeypatch):
    from bpeviz.present import slides

    monkeypatch.setattr(slides, "VIEW_STEPS", 20)
    training = bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=80,
                            threshold=0.9)
    out = tmp_path / "window.html"
    out.write_text(slides_html(training, step=50), "utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page, _, errors = _offline(context, out)
        card = page.locator("#bv-card")
        assert shown(page, "#bv-card") == "50"
        page.keyboard.press("Home")
        assert "is not in this file, which holds steps 40 to 59" in card.inner_text()
        assert not errors, errors
    finally:
        context.close()


def test_explore_with_pickybpe_downloads_its_slides(browser, server, tmp_path):
    context = browser.new_context(viewport={"width": 1440, "height": 1000},
                                  accept_downloads=True)
    page = context.new_page()
    try:
        saved = download_slides(page, f"{server}/Explore?algo=picky&step=10", tmp_path)
        offline, _, errors = _offline(context, saved)
        assert offline.locator(HOOK).get_attribute("data-bpeviz-step") == "10"
        assert shown(offline, "#bv-card") == "10"
        assert "PickyBPE" in offline.locator("h1").inner_text()
        assert not errors, errors
    finally:
        context.close()
