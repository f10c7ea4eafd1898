"""SuperBPE on a 1280x720 projector, in a real browser: a key across the transition
moves the stage named beside Play from stage 1 to stage 2, and beside the card the
sentence of the bar's merge (its stage; in stage 2 whether its token crosses a space)
follows every key at once, drawn by the browser from the training's per-step sentences.
A superword's card draws its spaces (GPT-2's ``Ġ``), never a blank. The bar, the stage
name, the card and the sentence are on the first screen. Expected values come from the
engine. Screenshot: ``superbpe-explore-1280.png``.
"""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.samples import sample_bytes
from bpeviz.text.display import display
from tests.support.browser import HOOK, hook, no_error, ready, shots_dir
from tests.support.projector import blur, no_overflow, on_first_screen, open_page, open_presented

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")


def stage_note(page) -> str:
    """The sentence beside the card that names the stage of the bar's merge."""
    return page.evaluate("""() => [...document.querySelectorAll('.bv-numbers-note')]
        .map(e => e.textContent).find(t => /^(Merge [\\d,]+, stage|Stage 1)/.test(t)) || ''""")


def test_a_key_across_the_transition_names_stage_two_and_its_superwords(browser, server):
    training = bpeviz.train(sample_bytes("tour").decode("utf-8"), algorithm="superbpe",
                            merges=200)
    t = training.transition
    superword = next(k for k in range(t + 1, 201) if training.superword(k))
    notes = training.step_notes()
    context, page = open_page(browser, 1280, 720, "light")
    try:
        open_presented(page, f"{server}/Explore?present=1&algo=superbpe&step={t - 1}", HOOK)
        page.wait_for_function(
            "s => [...document.querySelectorAll('.bv-numbers-note')]"
            ".some(e => e.textContent === s)", arg=notes[t - 1], timeout=60_000)
        blur(page)
        phase = page.locator(".bv-stage-phase").first
        assert phase.inner_text() == "stage 1: merges inside words"
        for key, step in [("ArrowRight", t), ("ArrowRight", t + 1), ("ArrowLeft", t),
                          ("End", 200), ("Home", 0)]:
            page.keyboard.press(key)
            # at once, before Python hears the step: the browser draws it from what it holds
            page.wait_for_function(
                "k => document.querySelector('[data-bpeviz-step]')"
                ".getAttribute('data-bpeviz-step') === String(k)", arg=step, timeout=5_000)
            assert stage_note(page) == notes[step], (step, stage_note(page))
            assert phase.inner_text() == ("stage 2: merges across spaces" if step > t
                                          else "stage 1: merges inside words"), step
        # onto the first superword: its sentence says so, its card draws the space
        page.goto(f"{server}/Explore?present=1&algo=superbpe&step={superword - 1}")
        ready(page, 60_000)
        page.wait_for_selector(HOOK)
        blur(page)
        page.keyboard.press("ArrowRight")
        assert hook(page) == superword
        said = stage_note(page)
        assert said == notes[superword] and "crosses a space: a superword" in said, said
        token = display(training.merges[superword - 1].token)
        assert "Ġ" in token
        card = page.locator(f'[data-bpeviz-card="{superword}"]')
        card.wait_for(timeout=5_000)
        assert token in card.inner_text(), card.inner_text()
        for selector in (".bv-stage-bar", HOOK, ".bv-stage-phase"):
            on_first_screen(page.locator(selector).first, 720)
        on_first_screen(card, 720)
        on_first_screen(page.locator(".bv-numbers-note").filter(has_text="superword").first,
                        720)
        ready(page, 60_000)
        no_overflow(page)
        page.screenshot(path=str(shots_dir() / "superbpe-explore-1280.png"))
        no_error(page)
    finally:
        context.close()
