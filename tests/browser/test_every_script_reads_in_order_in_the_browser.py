"""Every script readable in Chromium: a multilingual paste (Arabic, Hebrew, Hindi with
vowel signs and viramas, an emoji ZWJ sequence) trained with byte-level BPE shows, at
merge 20, the Arabic words of "Why this merge?" in the order written, each inside an
isolating element; hover titles name the combining marks and invisible characters; and
no page draws a combining mark as a code point."""

from __future__ import annotations

import re
import unicodedata

import pytest

from tests.support.browser import no_error, ready
from tests.support.scripts_paste import ARABIC_STEP, ARABIC_WORDS, TEXT

pytestmark = pytest.mark.browser
BOX = 'textarea[aria-label="Text to train on"]'

# the words "Why this merge?" lists, where they are drawn, and what isolates each
WHY_WORDS = """() => [...document.querySelectorAll('.bv-why-count .bv-why-word')].map(w => {
  const iso = w.querySelector('bdi, [dir="auto"]');
  const box = (iso || w).getBoundingClientRect();
  // where the count after the word is drawn: the text node holding " ×"
  const after = [...w.childNodes].find(n => n.nodeType === 3 && n.textContent.includes('×'));
  const range = document.createRange();
  if (after) range.selectNodeContents(after);
  const times = after ? range.getBoundingClientRect() : null;
  return {text: w.innerText, word: iso ? iso.innerText : null,
          isolated: !!iso && (iso.tagName === 'BDI' || iso.getAttribute('dir') === 'auto'),
          left: w.getBoundingClientRect().left, wordRight: box.right,
          timesLeft: times ? times.left : null};
})"""

# every chip's text and hover title, and the page's own text
SHOWN = """() => ({text: document.querySelector('[data-testid="stMain"]')?.innerText || '',
  chips: [...document.querySelectorAll('.bv-chip')].map(c => [c.textContent, c.title,
          c.getAttribute('dir')])})"""


def code_points_of_marks(text: str) -> list[str]:
    """The ⟨U+XXXX⟩ in ``text`` that stand for a combining mark or a joiner."""
    found = []
    for hexa in re.findall(r"⟨U\+([0-9A-F]{4,6})⟩", text):
        ch = chr(int(hexa, 16))
        if unicodedata.category(ch)[0] == "M" or ch in "\u200c\u200d":
            found.append(f"U+{hexa}")
    return found


def train_the_paste(page, server):
    page.goto(f"{server}/Explore?source=paste&algo=bbpe&step={ARABIC_STEP}")
    ready(page, timeout=60_000)
    page.locator(BOX).fill(TEXT)
    page.keyboard.press("Control+Enter")
    page.wait_for_selector(".bv-why", timeout=60_000)
    ready(page, timeout=60_000)
    page.wait_for_function(f"() => document.querySelector('.bv-why')?.dataset.step == "
                           f"'{ARABIC_STEP}'", timeout=30_000)


def test_a_multilingual_paste_reads_in_order_with_every_mark_named(page, server):
    train_the_paste(page, server)
    no_error(page)
    words = page.evaluate(WHY_WORDS)
    shown = [w.replace("\u00b7", " ") for w in ARABIC_WORDS]
    # the words in the order written, each isolated
    assert [w["word"].replace("·", " ") for w in words] == shown, words
    assert all(w["isolated"] for w in words), words
    # drawn in that order too: each word left of the next, its ×count after it
    assert [w["left"] for w in words] == sorted(w["left"] for w in words), words
    for w in words:
        assert w["timesLeft"] is not None and w["timesLeft"] >= w["wordRight"] - 1, w
    sentence = page.locator(".bv-why-count").inner_text()
    assert "“·مرحبا” ×3, “·كبيرة” ×1." in sentence, sentence
    # every page: chips of their own direction, marks named on hover, none a code point
    titles: list[str] = []
    for name in ("Explore", "Tokenize", "Compare", "Vocabulary"):
        if name != "Explore":
            page.locator('[data-testid="stSidebar"]').get_by_role("link", name=name).click()
            ready(page, timeout=60_000)
            if name == "Tokenize":  # the paste, cut into tokens (Compare cuts it too)
                page.locator('textarea[aria-label="Text"]').fill(TEXT)
                page.keyboard.press("Control+Enter")
                page.wait_for_function("t => document.querySelector('.bv-tokens')?.innerText"
                                       ".includes('Hebrew')", arg=TEXT, timeout=30_000)
                ready(page, timeout=60_000)
            page.wait_for_timeout(800)
        no_error(page)
        seen = page.evaluate(SHOWN)
        assert not code_points_of_marks(seen["text"]), name
        for text, title, direction in seen["chips"]:
            assert not code_points_of_marks(text + title), (name, text, title)
            assert direction == "auto", (name, text)
            assert "\u200d" not in text or len(text) > 1, (name, title)  # a lone joiner: named
        titles += [title for _, title, _ in seen["chips"]]
        if name == "Tokenize":
            assert any("◌् U+094D DEVANAGARI SIGN VIRAMA" in t for t in titles), name
    joined = "\n".join(titles)
    assert "◌् U+094D DEVANAGARI SIGN VIRAMA" in joined
    assert "⟨ZWJ⟩ U+200D ZERO WIDTH JOINER" in joined
