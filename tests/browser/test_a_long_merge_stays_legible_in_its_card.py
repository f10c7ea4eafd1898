"""A merge of about 40 characters on Explore at 1280x720 in normal mode (a pasted corpus
with a long repeated word) is drawn in the merge card at a legible size, at least 18 px,
its merged token whole and wrapped inside the card, the card as high as at step 0 and at
the last merge: past that size the merge's parts are cut with an ellipsis (their titles
hold them whole), never the text drawn smaller."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, train
from bpeviz.ui import train_options
from tests.support.browser import blur, hook, paste_corpus, ready, shots_dir

pytestmark = pytest.mark.browser
playwright_api = pytest.importorskip("playwright.sync_api")

WORD = "internationalization" * 2  # merged from two halves of 20: 80 characters in all
TEXT = f"{WORD} " * 30 + "the cat sat on the mat " * 5
MERGES = 60

#: the card's height, its boxes that overflow, the merged token's chip (its text, whether
#: it is cut, its font size) and the merge's parts' titles and font size
CARD = """() => {
  const card = document.querySelector('.bv-card');
  const big = card.querySelector('.bv-big');
  const token = big.querySelector('.bv-chip.bv-new');
  const parts = [...big.querySelectorAll('.bv-chip:not(.bv-new)')];
  return {
    height: card.getBoundingClientRect().height,
    overflowing: [...card.querySelectorAll('.bv-big, .bv-next')]
      .filter(b => b.scrollHeight > b.clientHeight + 1).length,
    token: token && token.textContent,
    tokenCut: token && (token.scrollWidth > token.clientWidth + 1
                        || token.scrollHeight > token.clientHeight + 1),
    tokenInside: token && token.getBoundingClientRect().right
                          <= big.getBoundingClientRect().right + 1,
    px: token && parseFloat(getComputedStyle(token).fontSize),
    partsPx: Math.min(...parts.map(p => parseFloat(getComputedStyle(p).fontSize))),
    partTitles: parts.map(p => p.title),
  };
}"""


def test_a_40_character_merge_is_drawn_at_18_px_or_more_in_a_card_of_one_height(browser,
                                                                                  server):
    training = train(Corpus.from_text(TEXT), **train_options("bpe", merges=MERGES))
    step = next(m.step for m in training.merges if m.token == WORD)
    n = len(training.merges)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    try:
        page.goto(f"{server}/Explore?merges={MERGES}")
        ready(page, timeout=60_000)
        paste_corpus(page, TEXT)
        page.wait_for_selector("[data-bpeviz-step]", timeout=60_000)
        blur(page)
        cards = {}
        page.keyboard.press("Home")
        page.wait_for_function("() => document.querySelector('[data-bpeviz-step]')"
                               ".getAttribute('data-bpeviz-step') === '0'")
        cards[0] = page.evaluate(CARD)
        for _ in range(step):
            page.keyboard.press("ArrowRight")
        page.wait_for_function("s => document.querySelector('[data-bpeviz-step]')"
                               ".getAttribute('data-bpeviz-step') === s", arg=str(step))
        page.wait_for_timeout(300)  # the card fits itself after it is drawn
        cards[step] = page.evaluate(CARD)
        page.screenshot(path=str(shots_dir() / "explore-40-character-merge-1280.png"))
        page.keyboard.press("End")
        page.wait_for_function("s => document.querySelector('[data-bpeviz-step]')"
                               ".getAttribute('data-bpeviz-step') === s", arg=str(n))
        cards[n] = page.evaluate(CARD)
        assert hook(page) == n
    finally:
        context.close()
    long = cards[step]
    assert long["token"] == WORD
    assert not long["tokenCut"] and long["tokenInside"], "the merged token whole, inside"
    assert long["px"] >= 18 and long["partsPx"] >= 18, long
    assert all("internationalization" in t for t in long["partTitles"]), "titles hold parts"
    heights = {k: round(c["height"]) for k, c in cards.items()}
    assert max(heights.values()) - min(heights.values()) <= 1, heights
    assert not any(c["overflowing"] for c in cards.values()), cards
