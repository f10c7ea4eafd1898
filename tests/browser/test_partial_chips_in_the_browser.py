"""A byte-level chip that holds part of a character names that character and its bytes
in Chromium: in Explore's word splits (drawn by the stage component, also one step on
before Python answers) and in Tokenize's tokens. The expected notes are written out by
hand from the UTF-8 bytes."""

from __future__ import annotations

import pytest

from tests.support.browser import blur, hook, no_error, ready, settled

XI, HUAN = "e5 96 9c", "e6 ac a2"  # 喜 and 欢 in UTF-8, by hand

CHIPS = """() => [...document.querySelectorAll('.bv-stage-words tr')].map(tr => [
  tr.children[1] ? tr.children[1].firstChild?.textContent : null,
  [...tr.querySelectorAll('.bv-chip')].map(c => [+c.dataset.id, c.title])])"""


@pytest.mark.browser
def test_explore_partial_chips_name_their_character_and_bytes(page, server):
    pytest.importorskip("playwright.sync_api")
    page.goto(f"{server}/Explore?algo=bbpe&sample=seed003&step=1")
    ready(page)
    page.wait_for_selector("[data-bpeviz-step]")
    page.wait_for_selector(".bv-stage-words .bv-chip")
    no_error(page)
    xi, huan = (f"part of the character “喜” (its bytes: {XI})",
                f"part of the character “欢” (its bytes: {HUAN})")
    both = f"part of the character “喜欢” (its bytes: {XI} {HUAN})"

    def chips_of(word: str) -> list[tuple[int, str]]:
        rows = {w: c for w, c in page.evaluate(CHIPS) if w}
        return [tuple(c) for c in rows[word]]

    chips = chips_of("喜欢")
    assert [i for i, _ in chips] == [0xE5, 0x96, 0x9C, 0xE6, 0xAC, 0xA2]
    assert all(f" · {xi} · " in t for _, t in chips[:3])
    assert all(f" · {huan} · " in t for _, t in chips[3:])
    # one step on, drawn by the stage component before Python answers: 9c+e6 is one chip
    blur(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => [...document.querySelectorAll('.bv-stage-words .bv-chip')]"
                           ".some(c => c.dataset.id === '257')", timeout=15_000)
    assert hook(page) == 2
    chips = chips_of("喜欢")
    assert [i for i, _ in chips] == [0xE5, 0x96, 257, 0xAC, 0xA2]
    assert chips[2][1].startswith(f"id 257 · ľæ · bytes 9c e6 · {both} · ")
    settled(page, 2)
    no_error(page)
    # every partial chip on the page names a character and its bytes; whole ones do not
    for _word, chips in page.evaluate(CHIPS):
        for _, title in chips:
            partial = "dashed: holds only part" in title
            assert ("part of the character “" in title and "(its bytes: " in title) == partial


@pytest.mark.browser
def test_tokenize_stage_partial_chips_carry_the_characters_bytes(page, server):
    pytest.importorskip("playwright.sync_api")
    page.goto(f"{server}/Tokenize?algo=bbpe&sample=seed003&step=3")
    ready(page)
    box = page.get_by_label("Text", exact=True)
    box.fill("苹果")
    box.press("Control+Enter")
    page.wait_for_timeout(300)
    ready(page)
    page.wait_for_selector(".bv-stage-tokens .bv-partial")
    no_error(page)
    shown = page.evaluate("() => [...document.querySelectorAll('.bv-stage-tokens .bv-partial')]"
                          ".map(c => c.title)")
    apple, fruit = "e8 8b b9", "e6 9e 9c"  # 苹 and 果 in UTF-8, by hand
    assert len(shown) == 6
    assert all(f"part of the character “苹” (its bytes: {apple})" in t for t in shown[:3])
    assert all(f"part of the character “果” (its bytes: {fruit})" in t for t in shown[3:])
