# ruff: noqa: F811  (the fixtures imported below are used as arguments)
"""A byte-level chip that holds part of a character names that character and its bytes
(issue 9, "Glossary in place"), wherever a word is known: Explore's word splits at every
step (drawn in the browser from :func:`bpeviz.analysis.views.stage_words`), the "Why this merge?"
panel and the "Why this split?" trace.

The expected notes are recomputed here from the word's bytes, byte by byte (which
character owns each byte), not with the engine's span arithmetic. Seed 003's BBPE merge 2
is 0x9C + 0xE6: the tail of 喜 (e5 96 9c) and the head of 欢 (e6 ac a2), in “喜欢”.
"""

from __future__ import annotations

import html
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz.analysis.views import words_frame
from bpeviz.present.render import part_of_notes
from bpeviz.present.render_explain import trace_html, why_merge_html
from bpeviz.present.stage_data import stage_words
from tests.test_app import reference
from tests.test_browser import browser, no_error, page, ready  # noqa: F401
from tests.test_browser_stage import blur, hook, settled

XI, HUAN = "e5 96 9c", "e6 ac a2"  # 喜 and 欢 in UTF-8, by hand


@pytest.fixture(scope="module")
def seed003():
    training = reference("bbpe", sample="seed003", merges=40)
    assert training.merges[1].left == b"\x9c" and training.merges[1].right == b"\xe6"
    return training


def expected(word: str, pieces: list[bytes]) -> list[str]:
    """For consecutive byte tokens of ``word``: "" for whole characters, else the note."""
    owner = [i for i, ch in enumerate(word) for _ in ch.encode("utf-8")]
    out, pos = [], 0
    for piece in pieces:
        try:
            piece.decode("utf-8")
            out.append("")
        except UnicodeDecodeError:
            chars = word[owner[pos]: owner[pos + len(piece) - 1] + 1]
            out.append(f"part of the character “{chars}” "
                       f"(its bytes: {chars.encode('utf-8').hex(' ')})")
        pos += len(piece)
    assert pos == len(word.encode("utf-8"))
    return out


def live_notes(data: dict, row: list, k: int) -> list[tuple[int, str]]:
    """What the browser draws for one word of ``stage_words`` at step ``k``: (token id,
    its part-of note) per chip (the same selection as stepper.js ``drawWords``)."""
    tokens, made, merged = row[3:6]
    parts = row[6] if len(row) > 6 else [-1] * len(tokens)
    return [(t, data["notes"][p] if p >= 0 else "")
            for t, m, u, p in zip(tokens, made, merged, parts) if m <= k < u]


def test_stage_words_name_the_character_of_every_partial_chip_at_every_step(seed003):
    t = seed003
    data = stage_words(t, words_frame(t.at(0)))
    seen = 0
    for row in data["words"]:
        index = row[0]
        word = t.corpus.words[index]
        assert (len(row) > 6) == (not word.isascii())
        for k in range(len(t.merges) + 1):
            ids = t._log.split_ids(index, k).tolist()
            chips = live_notes(data, row, k)
            assert [i for i, _ in chips] == ids
            want = expected(word, [t.vocab[i] for i in ids])
            assert [n for _, n in chips] == want
            seen += sum(map(bool, want))
    assert seen > 100
    # by hand: 喜欢 before merge 2 (bytes), at merge 2 (9c+e6), at merge 5 (e5 96 9c e6)
    row = next(r for r in data["words"] if t.corpus.words[r[0]] == "喜欢")
    xi, huan = (f"part of the character “喜” (its bytes: {XI})",
                f"part of the character “欢” (its bytes: {HUAN})")
    both = f"part of the character “喜欢” (its bytes: {XI} {HUAN})"
    assert [n for _, n in live_notes(data, row, 1)] == [xi] * 3 + [huan] * 3
    assert live_notes(data, row, 2) == [(229, xi), (150, xi), (0x101, both), (172, huan),
                                        (162, huan)]
    assert [n for _, n in live_notes(data, row, 5)] == [both, huan, huan]


def test_character_level_trainings_send_no_part_notes():
    t = reference("bpe", sample="seed003", merges=20)
    data = stage_words(t, words_frame(t.at(0)))
    assert all(len(row) == 6 for row in data["words"])
    assert not any("part of the character" in n for n in data["notes"])


def titles(fragment: str) -> dict[int, list[str]]:
    """The chips' titles of an HTML fragment, by token id."""
    out: dict[int, list[str]] = {}
    for chip_id, title in re.findall(r'data-id="(\d+)" title="([^"]*)"', fragment):
        out.setdefault(int(chip_id), []).append(html.unescape(title))
    return out


def test_why_this_merge_names_the_characters_of_the_pair(seed003):
    why = seed003.explain(2)
    assert why.first_word == "喜欢"
    found = titles(why_merge_html(why))
    where = ", where it first occurs: in “喜欢”"
    assert f"part of the character “喜” (its bytes: {XI}){where}" in found[0x9C][0]
    assert f"part of the character “欢” (its bytes: {HUAN}){where}" in found[0xE6][0]
    assert f"part of the character “喜欢” (its bytes: {XI} {HUAN}){where}" in found[0x101][0]
    # the part comes before the generic notes, as on Tokenize and in the stage
    assert found[0x101][0].index("part of the character") < found[0x101][0].index("dashed")
    # a merge of whole characters says nothing of the kind
    first = titles(why_merge_html(seed003.explain(1)))
    assert not any("part of the character" in x for v in first.values() for x in v)


def test_why_this_split_names_the_character_of_each_partial_chip(seed003):
    t = seed003
    for word in ("喜欢", "苹果派", " like"):
        for k in (0, 2, 5, 20):
            found = t.at(k).trace(word)
            fragment = trace_html(found, t)
            rows = re.findall(r'<div class="bv-trace-row"[^>]*>(.*?)</div>', fragment)
            rows.append(fragment.split("bv-trace-end")[-1])
            symbols = [found.initial] + [s.symbols for s in found.steps] + [found.tokens]
            assert len(rows) == len(symbols)
            for html_row, pieces in zip(rows, symbols):
                shown = [html.unescape(x) for x in re.findall(r'title="([^"]*)"', html_row)]
                want = expected(word, list(pieces))
                assert len(shown) == len(want)
                for title, note in zip(shown, want):
                    assert (note in title) if note else "part of" not in title


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(codec="utf-8"), min_size=1, max_size=12), st.data())
def test_part_of_notes_name_exactly_the_characters_a_span_touches(word, data):
    raw = word.encode("utf-8")
    start = data.draw(st.integers(0, len(raw) - 1))
    end = data.draw(st.integers(start + 1, len(raw)))
    (note,) = part_of_notes(word, [(start, end)])
    cut = expected(word, [raw[:start], raw[start:end], raw[end:]] if start else
                   [raw[start:end], raw[end:]])
    assert note == cut[1 if start else 0]


# -- in a real browser --------------------------------------------------------------------

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
