"""A PickyBPE removal on a projector, in a real browser: at 1280x720 in presentation
mode, a key moves the bar onto a removal and, without waiting for Python, the bar names it
beside Play in red and the card turns to the removal (red, the token struck through, the
sentence of how often it appears alone); the next merge is drawn as a merge again. The bar,
its removal name and the card are on the first screen. On Tokenize the same key redraws
the text's tokens at once, the removed token split back into its parts. Expected values
come from the engine. Screenshot: ``picky-explore-removal-1280.png``.
"""

from __future__ import annotations

import urllib.parse

import pytest

import bpeviz
from bpeviz.algorithms.picky_explain import removal_headline
from bpeviz.samples import load_sample
from tests.support.browser import HOOK, hook, no_error, ready, shots_dir
from tests.support.projector import (
    blur,
    collapse_sidebar,
    on_first_screen,
    open_page,
)

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def test_a_removal_is_red_on_the_bar_and_the_card_at_1280x720(browser, server):
    training = bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=200,
                            threshold=0.9)
    removal = next(e for e in training.events
                   if e.kind == "removal" and training.events[e.step].kind == "merge")
    k = removal.step
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Explore?present=1&algo=picky&step={k - 1}")
        ready(page, 120_000)
        page.wait_for_selector(f'.bv-picky[data-step="{k - 1}"]', timeout=60_000)
        collapse_sidebar(page)
        blur(page)
        assert hook(page) == k - 1
        phase = page.locator(".bv-stage-phase").first
        assert phase.inner_text() == "merge"
        page.keyboard.press("ArrowRight")
        assert hook(page) == k
        # the bar names the removal at once, in red
        page.wait_for_function(
            "() => document.querySelector('.bv-stage-phase').dataset.kind === 'removal'",
            timeout=5_000)
        assert phase.inner_text() == f"removal of “{removal.token}”"
        colour = phase.evaluate("e => getComputedStyle(e).backgroundColor")
        assert colour == "rgb(198, 40, 40)", colour
        # the card is the removal's, drawn by the browser from the steps it holds
        card = page.locator(f'.bv-picky[data-step="{k}"]')
        card.wait_for(timeout=5_000)
        assert card.get_attribute("data-kind") == "removal"
        said = card.inner_text()
        assert removal_headline(removal) in said.replace("\n", " "), said
        assert "removed" in said
        struck = card.locator(".bv-gone .bv-chip").first
        assert "line-through" in struck.evaluate("e => getComputedStyle(e).textDecorationLine")
        border = card.evaluate("e => getComputedStyle(e).borderLeftColor")
        assert border == "rgb(198, 40, 40)", border
        for selector in (".bv-stage-bar", HOOK, ".bv-stage-phase", ".bv-stage-play"):
            on_first_screen(page.locator(selector).first, 720)
        on_first_screen(card, 720)
        page.wait_for_timeout(400)
        page.screenshot(path=str(shots_dir() / "picky-explore-removal-1280.png"))
        # the next step is a merge: named so, and its card is a merge's
        page.keyboard.press("ArrowRight")
        assert hook(page) == k + 1
        assert phase.inner_text() == "merge"
        assert phase.get_attribute("data-kind") == "merge"
        page.locator(f'.bv-picky[data-step="{k + 1}"][data-kind="merge"]').wait_for(
            timeout=5_000)
        ready(page, 60_000)
        no_error(page)
    finally:
        context.close()


CHIPS = ".bv-stage-tokens .bv-tokens .bv-chip"


def test_tokenize_follows_a_key_onto_a_removal_at_once(browser, server):
    """Tokenize on a projector: a key onto a removal redraws the text's tokens at once,
    the removed token split back into its parts, as encoding at that step cuts them."""
    training = bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=200,
                            threshold=0.9)
    removal, word = next(
        (e, w) for e in training.events if e.kind == "removal" for w in training.words
        if e.token_id in training.at(e.step - 1).encode_word(w))
    k, text = removal.step, f"the {word[1:]} again"
    expected = {s: [t.id for t in training.at(s).encode(text)] for s in (k - 1, k, k + 1)}
    assert removal.token_id in expected[k - 1] and removal.token_id not in expected[k]
    context, page = open_page(browser, 1280, 720, "light")
    try:
        page.goto(f"{server}/Tokenize?" + urllib.parse.urlencode(
            {"present": 1, "algo": "picky", "step": k - 1, "text": text}))
        ready(page, 120_000)
        page.wait_for_selector(CHIPS, timeout=60_000)
        collapse_sidebar(page)
        blur(page)

        def chip_ids() -> list[int]:
            return [int(i) for i in page.eval_on_selector_all(
                CHIPS, "cs => cs.map(c => c.dataset.id)")]

        assert hook(page) == k - 1 and chip_ids() == expected[k - 1]
        page.keyboard.press("ArrowRight")  # no wait: the browser redraws by itself
        assert hook(page) == k and chip_ids() == expected[k]
        page.keyboard.press("ArrowRight")
        assert hook(page) == k + 1 and chip_ids() == expected[k + 1]
        on_first_screen(page.locator(CHIPS).first, 720)
        ready(page, 60_000)
        no_error(page)
    finally:
        context.close()
