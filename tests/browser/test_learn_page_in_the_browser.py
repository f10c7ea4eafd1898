"""The Learn page in a real browser (Chromium + ``streamlit run``) at 1280x720: it renders
without an error element, Next moves through the lesson, the lesson fits the width, and
a screenshot goes to a temporary folder."""

from __future__ import annotations

import pytest

from bpeviz.analysis.lesson import lesson_training
from tests.support.browser import ready

pytestmark = pytest.mark.browser

ERRORS = ('[data-testid="stException"], [data-testid="stAlertContentError"], '
          '[data-testid="stAlertContentWarning"]')


def test_the_lesson_renders_and_steps_at_1280x720(browser, server, tmp_path):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server}/Learn")
        ready(page)
        assert page.locator(ERRORS).count() == 0
        assert page.locator(".bv-lesson").get_attribute("data-lesson-step") == "1"
        for number in (2, 3):
            page.get_by_role("button", name="Next ▶").first.click()
            page.wait_for_selector(f'.bv-lesson[data-lesson-step="{number}"]', timeout=15_000)
            ready(page)
        assert page.locator(ERRORS).count() == 0
        lesson = page.locator(".bv-lesson")
        why = lesson_training("bpe", "low").explain(1)
        assert lesson.get_attribute("data-count") == str(why.merge.count)
        text = lesson.inner_text()
        assert f"occurs {why.merge.count} times in the corpus" in text
        assert page.locator(".bv-lesson .bv-chip.bv-new").count() >= 1
        assert page.get_by_text("Step 3 of 7").count() >= 1
        fits = page.evaluate("""() => {
          const box = document.querySelector('.bv-lesson').getBoundingClientRect();
          return box.right <= window.innerWidth && box.width > 400;
        }""")
        assert fits, "the lesson fits the 1280 px window"
        page.wait_for_timeout(300)
        shot = tmp_path / "learn-1280x720.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
    finally:
        context.close()


@pytest.mark.parametrize("present", ["false", "true"])
def test_the_seven_step_buttons_read_whole_and_the_last_renders_at_1280(browser, server,
                                                                        present):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server}/Learn?present={present}")  # the sidebar open: the narrowest
        ready(page)
        buttons = page.evaluate("""() => [...document.querySelectorAll(
            '.st-key-w_learn_step button')].map(b => {
              const label = b.querySelector('p') || b;
              return {text: b.innerText, cut: label.scrollWidth > label.clientWidth,
                      height: b.getBoundingClientRect().height,
                      right: b.getBoundingClientRect().right}; })""")
        assert len(buttons) == 7
        heights = {round(b["height"]) for b in buttons}
        for b in buttons:
            assert not b["cut"] and b["right"] <= 1280, b
        assert len(heights) == 1, f"every label on one line: {buttons}"
        page.locator(".st-key-w_learn_step button").nth(6).click()
        page.wait_for_selector('.bv-lesson[data-lesson-step="7"]', timeout=15_000)
        ready(page)
        assert page.locator(ERRORS).count() == 0
        assert page.locator(".bv-lesson-section").count() == 3
        assert page.locator(".bv-lesson-mark").count() == 1
    finally:
        context.close()
