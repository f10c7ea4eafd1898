"""Tokenize steps in the browser, as Explore does: keys with the focus on
the body redraw the text's tokens at once, and they are the encoder's tokens of that
step; the whitespace toggle shows spaces, tabs and newlines."""

from __future__ import annotations

import urllib.parse

import pytest

from bpeviz import train
from bpeviz.core import encoding
from bpeviz.samples import SAMPLES, load_sample
from bpeviz.ui import train_options
from tests.support.browser import no_error, ready

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

HOOK = "[data-bpeviz-step]"
CHIPS = ".bv-stage-tokens .bv-tokens .bv-chip"


def hook(page) -> int:
    return int(page.locator(HOOK).first.get_attribute("data-bpeviz-step"))


def chip_ids(page) -> list[int]:
    return [int(i) for i in page.eval_on_selector_all(CHIPS, "cs => cs.map(c => c.dataset.id)")]


def test_keys_redraw_the_tokens_of_each_step(page, server):
    training = train(load_sample("tour"), **train_options("bpe", merges=200))
    text = SAMPLES["tour"].try_text
    page.goto(f"{server}/Tokenize?step=10")
    ready(page)
    page.wait_for_selector(CHIPS)
    page.evaluate("() => document.activeElement && document.activeElement.blur()")
    no_error(page)
    expected = {k: [t.id for t in encoding.encode(training.at(k), text)]
                for k in (0, 10, 11, 21, 200)}
    assert hook(page) == 10 and chip_ids(page) == expected[10]
    page.keyboard.press("ArrowRight")  # no wait: the browser redraws by itself
    assert hook(page) == 11 and chip_ids(page) == expected[11]
    page.keyboard.press("Shift+ArrowRight")
    assert hook(page) == 21 and chip_ids(page) == expected[21]
    page.keyboard.press("End")
    assert hook(page) == 200 and chip_ids(page) == expected[200]
    page.keyboard.press("Home")
    assert hook(page) == 0 and chip_ids(page) == expected[0]
    assert len(expected[0]) > len(expected[200])
    assert page.evaluate("() => document.activeElement === document.body"), "focus stays"


def test_the_text_shows_literally_and_the_whitespace_toggle_marks_spaces(page, server):
    text = "a b\tc\nd <b>x</b>"
    page.goto(f"{server}/Tokenize?" + urllib.parse.urlencode({"text": text, "step": "3"}))
    ready(page)
    page.wait_for_selector(CHIPS)
    box = page.locator(".bv-stage-tokens .bv-tokens").first
    assert box.text_content() == text
    assert page.locator(".bv-stage-tokens b").count() == 0
    page.get_by_text("Show whitespace").click()
    page.wait_for_function("() => (document.querySelector('.bv-stage-tokens .bv-tokens') || {})"
                           ".textContent?.includes('·')")
    assert box.text_content() == "a·b→c↵\nd·<b>x</b>"
