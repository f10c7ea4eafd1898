"""A byte-level chip that holds part of a character names that character and its bytes,
wherever a word is known: Explore's word splits at every step (the data the browser draws
them from, :func:`stage_words`), the "Why this merge?" panel and the "Why this split?"
trace. (tests/browser/test_partial_chips_in_the_browser.py checks the drawn titles.)

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
from tests.support.trainings import reference

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
    its part-of note) per chip (the same selection as the step component's ``drawWords``)."""
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
