"""A paste over the live explorer's limit gets the "Corpus too large" message, at every
size: the box has no ``max_chars`` at the limit, since a browser silently drops a
paste longer than that, and the user would get no word. Real browser, real server."""

from __future__ import annotations

import pytest

from bpeviz.core.limits import LIMITS
from tests.support.browser import go, no_error, rerun_done

pytestmark = pytest.mark.browser

WORDS = "lower newest wider "


def paste(page, text: str) -> None:
    """Put ``text`` into the sidebar box as a paste does (the native value setter and an
    input event, which React sees), then press Ctrl+Enter to send it."""
    area = page.locator('[data-testid="stSidebar"] textarea')
    area.evaluate("""(el, text) => {
        const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype,
                                                       'value').set;
        setter.call(el, text);
        el.dispatchEvent(new Event('input', {bubbles: true}));
    }""", text)
    area.press("Control+Enter")
    rerun_done(page)


@pytest.mark.parametrize("size", [LIMITS.text_chars + 1, LIMITS.text_chars + 500_000])
def test_a_paste_over_the_limit_says_corpus_too_large_and_stays(page, server, size):
    text = (WORDS * (size // len(WORDS) + 1))[:size]
    go(page, server, "Explore?source=paste&merges=20")
    paste(page, text)
    page.wait_for_selector('[data-testid="stAlert"]:has-text("Corpus too large")',
                           timeout=60_000)
    message = page.locator('[data-testid="stAlert"]:has-text("Corpus too large")').first
    said = message.inner_text()
    assert f"{size:,} characters" in said and f"{LIMITS.text_chars:,}" in said
    assert "python -m bpeviz train" in said, "the command line route is offered"
    kept = page.locator('[data-testid="stSidebar"] textarea').evaluate("el => el.value.length")
    assert kept == size, "the pasted text stays in its box"
    no_error(page)
