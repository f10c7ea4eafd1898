"""Parity-aware BPE on a 1280x720 projector, in a real browser: beside the merge card,
each language's tokens and the sentence saying which language got the bar's merge, on
which numbers, follow every key at once (drawn by the browser from the training's
per-step sentences), on the first screen. Expected sentences come from the engine."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.samples import parallel_sample
from tests.support.browser import HOOK, hook, ready, shots_dir
from tests.support.projector import blur, no_overflow, open_page, open_presented

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

NOTE = ".bv-numbers-note"


def language_note(page) -> str:
    """The sentence beside the card that names the language of the bar's merge."""
    return page.evaluate("""() => [...document.querySelectorAll('.bv-numbers-note')]
        .map(e => e.textContent).find(t => /^(Merge \\d+|Before any merge)/.test(t)) || ''""")


def test_the_language_of_the_bar_s_merge_follows_every_key_on_a_projector(browser, server):
    texts, _ = parallel_sample()
    training = bpeviz.train({k: v.decode("utf-8") for k, v in texts.items()},
                            algorithm="parity", merges=200)
    context, page = open_page(browser, 1280, 720, "light")
    try:
        open_presented(page, f"{server}/Explore?present=1&algo=parity&step=10", HOOK)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.bv-numbers-note')]"
            ".some(e => e.textContent.startsWith('Merge 10 went to'))", timeout=60_000)
        assert hook(page) == 10
        assert language_note(page) == training.why(10)
        blur(page)
        for key, step in [("ArrowRight", 11), ("ArrowRight", 12), ("Shift+ArrowRight", 22),
                          ("ArrowLeft", 21), ("Home", 0), ("End", 200)]:
            page.keyboard.press(key)
            # at once, before Python hears the step: the browser draws it from what it holds
            page.wait_for_function(
                "k => document.querySelector('[data-bpeviz-step]')"
                ".getAttribute('data-bpeviz-step') === String(k)", arg=step, timeout=5_000)
            said = language_note(page)
            if step == 0:
                assert said.startswith("Before any merge, tokens on each language's"), said
            else:
                c = training.choice(step)
                assert said == training.why(step), (step, said)
                assert said.startswith(f"Merge {step} went to {c.language}:")
        # the sentence and the bar are on the first screen of a 1280x720 projector
        note = page.locator(NOTE).filter(has_text="Merge 200 went to").first
        box = note.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 720, box
        ready(page, 60_000)
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / "parity-explore-1280.png"))
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        context.close()
