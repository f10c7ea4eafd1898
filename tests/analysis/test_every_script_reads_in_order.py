"""Every script readable: a right-to-left word keeps its place in the sentence around it
(each piece of user text isolated, in ``<bdi>`` or an element of its own with
``dir="auto"``), a combining mark with no letter before it is drawn on a dotted circle
(◌े) and an invisible character by its short name (⟨ZWJ⟩), each named with its Unicode
name on hover and in the legend, on every view. The browser's drawing of the same is in
tests/browser/test_every_script_reads_in_order_in_the_browser.py and
bpeviz/ui/stepper/tests/scripts.test.mjs."""

from __future__ import annotations

import html
import json
import re
import unicodedata

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.views import merges_frame
from bpeviz.core.encoding import encode
from bpeviz.present import render, stage_data
from bpeviz.present.glossary import legend_html, token_notes
from bpeviz.present.render import merges_window_html, splits_html, symbol_chip, tokens_html
from bpeviz.present.render_explain import trace_html, why_merge_html
from bpeviz.present.slides import slides_html
from bpeviz.text import display
from bpeviz.text.display import label, visible
from bpeviz.ui import train_options
from tests.support.app import body_with, ok, open_page, stage
from tests.support.scripts_paste import ARABIC_STEP, ARABIC_WORDS, TEXT

VIRAMA, SIGN_E, ZWJ = "\u094d", "\u0947", "\u200d"


@pytest.fixture(scope="module")
def bbpe():  # as the app trains the paste
    return train(Corpus.from_bytes(TEXT.encode(), "gpt2", "auto"),
                 **train_options("bbpe", merges=40))


@pytest.fixture(scope="module")
def bpe():
    return train(Corpus.from_text(TEXT), "bpe", merges=40)


def isolated(body: str) -> list[str]:
    """The text of each ``<bdi>`` and each ``dir="auto"`` element of ``body``."""
    return [html.unescape(t) for t in re.findall(r"<bdi>(.*?)</bdi>", body)
            + re.findall(r'<(?:span|td)[^>]* dir="auto"[^>]*>([^<]*)<', body)]


def rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def unisolated_rtl(body: str) -> list[str]:
    """Right-to-left text of ``body`` outside every isolating element and attribute."""
    body = re.sub(r'title="[^"]*"', "", body)
    body = re.sub(r"<bdi>.*?</bdi>", "", body)
    body = re.sub(r'<(span|td)[^>]* dir="auto"[^>]*>[^<]*</\1>', "", body)
    return [t for t in re.findall(r">([^<]+)<", body) if rtl(html.unescape(t))]


# -- the helpers ------------------------------------------------------------------------

def test_an_arabic_word_in_an_english_sentence_is_isolated():
    sentence = f"The word {render.bdi('سلام')} ×3, then {render.bdi('<b>')}."
    assert sentence == "The word <bdi>سلام</bdi> ×3, then <bdi>&lt;b&gt;</bdi>."
    assert render.isolate_quoted("“مرحبا” is “م” and “رحبا”") == (
        "“<bdi>مرحبا</bdi>” is “<bdi>م</bdi>” and “<bdi>رحبا</bdi>”")


def test_a_devanagari_vowel_sign_is_drawn_on_a_dotted_circle_with_its_name():
    assert label(SIGN_E) == "◌े" and visible(SIGN_E + "गा") == "◌ेगा"
    assert label(VIRAMA) == "◌्"
    assert display.mark_names(SIGN_E) == ["◌े U+0947 DEVANAGARI VOWEL SIGN E"]
    assert display.mark_names("नमस्ते") == ["◌् U+094D DEVANAGARI SIGN VIRAMA",
                                    "◌े U+0947 DEVANAGARI VOWEL SIGN E"]
    assert visible("नमस्ते") == "नमस्ते"  # marks on their letters are left as typed


def test_invisible_characters_get_a_visible_named_mark():
    assert label(ZWJ) == "⟨ZWJ⟩" and label("\u200c") == "⟨ZWNJ⟩"
    assert label("\ufe0f") == "⟨VS16⟩" and label("a\u200fb") == "a⟨RLM⟩b"
    assert label("\u2067x\u2069") == "⟨RLI⟩x⟨PDI⟩"
    assert visible("👩\u200d💻") == "👩\u200d💻" and visible("❤\ufe0f") == "❤\ufe0f"
    assert display.mark_names("⟨ZWJ⟩") == ["⟨ZWJ⟩ U+200D ZERO WIDTH JOINER"]
    assert display.mark_table([ZWJ, SIGN_E]) == {SIGN_E: ["◌े", "U+0947 DEVANAGARI VOWEL SIGN E"],
                                         ZWJ: ["⟨ZWJ⟩", "U+200D ZERO WIDTH JOINER"]}


def test_no_combining_mark_is_ever_drawn_as_a_code_point():
    for cp in range(0x300, 0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Mn", "Mc", "Me") and not 0xFE00 <= cp <= 0xFE0F \
                and not 0xE0100 <= cp <= 0xE01EF and cp != 0x34F:
            assert label(ch) == "◌" + ch, hex(cp)
            assert "U+" not in visible(" " + ch + ch), hex(cp)


# -- the views ---------------------------------------------------------------------------

def test_why_this_merge_keeps_the_arabic_words_in_order_and_isolated(bbpe):
    why = bbpe.explain(ARABIC_STEP)
    assert tuple(why.words["word"]) == ARABIC_WORDS
    body = why_merge_html(why)
    count = re.search(r'<p class="bv-why-count">.*?</p>', body).group()
    listed = re.findall(r"“<bdi>(.*?)</bdi>” ×", count)
    assert tuple(map(html.unescape, listed)) == tuple(map(visible, ARABIC_WORDS))
    assert not unisolated_rtl(body)


def test_every_chip_has_its_own_direction_and_names_its_marks(bbpe, bpe):
    chip = symbol_chip(VIRAMA, 7)
    assert 'dir="auto"' in chip and ">◌्<" in chip
    assert "◌् U+094D DEVANAGARI SIGN VIRAMA" in html.unescape(chip)
    raw = symbol_chip(VIRAMA.encode(), 7)  # a byte-level token: named from its bytes
    assert "U+094D DEVANAGARI SIGN VIRAMA" in html.unescape(raw)
    for training in (bbpe, bpe):
        enc = encode(training.at(ARABIC_STEP), TEXT)
        body = tokens_html(TEXT, list(enc))
        assert "⟨U+" not in re.sub(r'title="[^"]*"', "", body)
        chips = re.findall(r'<span class="bv-chip[^"]*"[^>]*>', body)
        assert chips and all('dir="auto"' in c for c in chips)
        assert not unisolated_rtl(body)
        titles = [html.unescape(t) for t in re.findall(r'title="([^"]*)"', body)]
        assert "⟨U+094D⟩" not in " ".join(titles)
    enc = encode(bpe.at(0), TEXT)
    body = html.unescape(tokens_html(TEXT, list(enc)))
    assert ">◌्<" in body and ">◌े<" in body and ">⟨ZWJ⟩<" in body
    assert "◌् U+094D DEVANAGARI SIGN VIRAMA" in body
    assert "◌े U+0947 DEVANAGARI VOWEL SIGN E" in body
    assert "⟨ZWJ⟩ U+200D ZERO WIDTH JOINER" in body


def test_tables_and_traces_isolate_the_words(bpe):
    snap = bpe.at(ARABIC_STEP)
    words = bpe.corpus.words
    rows = [(i, w, 1, snap.splits[w], snap.split_ids(i), False) for i, w in enumerate(words)]
    body = splits_html(rows)
    assert {w for w in words if rtl(w)} <= set(isolated(body))
    assert not unisolated_rtl(body)
    body = merges_window_html(merges_frame(bpe), ARABIC_STEP)
    assert not unisolated_rtl(body)
    body = trace_html(bpe.at(ARABIC_STEP).trace("مرحبا"), bpe)
    assert "“<bdi>مرحبا</bdi>”" in body and not unisolated_rtl(body)


def test_the_legend_names_the_marks_and_isolates_its_samples(bpe):
    enc = encode(bpe.at(0), TEXT)
    legend = legend_html(token_notes(bpe, TEXT, list(enc)))
    text = html.unescape(legend)
    assert 'data-note="combining"' in legend and 'data-note="invisible"' in legend
    assert "◌् (U+094D DEVANAGARI SIGN VIRAMA)" in text
    assert "◌े (U+0947 DEVANAGARI VOWEL SIGN E)" in text
    assert "⟨ZWJ⟩ (U+200D ZERO WIDTH JOINER)" in text
    assert not unisolated_rtl(legend)


def test_the_step_bar_and_the_slides_get_the_names_of_the_marks(bbpe):
    marks = stage_data.stage_marks(bbpe, TEXT)
    assert marks[VIRAMA] == ["◌्", "U+094D DEVANAGARI SIGN VIRAMA"]
    assert marks[ZWJ] == ["⟨ZWJ⟩", "U+200D ZERO WIDTH JOINER"]
    page = slides_html(bbpe, text=TEXT)
    data = json.loads(re.search(r'<script type="application/json" id="bv-data">(.*?)'
                                r"</script>", page, re.S).group(1))
    for role in ("bv-card", "bv-tokens", "bv-words"):
        assert data[role]["marks"][SIGN_E] == ["◌े", "U+0947 DEVANAGARI VOWEL SIGN E"], role


# -- the pages ---------------------------------------------------------------------------

def test_explore_isolates_the_arabic_words_why_this_merge_lists():
    at = open_page("pages/1_Explore.py", source="paste", paste=TEXT, algo="bbpe",
                   step=ARABIC_STEP)
    body = body_with(ok(at), "bv-why")
    listed = re.findall(r"“<bdi>(.*?)</bdi>” ×", body)
    assert tuple(map(html.unescape, listed)) == tuple(map(visible, ARABIC_WORDS))
    assert not unisolated_rtl(body)
    for role in ("card", "words"):
        assert stage(at, role)["marks"][VIRAMA][1] == "U+094D DEVANAGARI SIGN VIRAMA"


def test_tokenize_sends_the_names_of_the_marks_of_the_text():
    at = open_page("pages/2_Tokenize.py", source="paste", paste=TEXT, algo="bbpe",
                   step=ARABIC_STEP, text=TEXT, text_edited=True)
    data = stage(ok(at), "tokens")
    assert data["marks"][SIGN_E] == ["◌े", "U+0947 DEVANAGARI VOWEL SIGN E"]
    assert data["marks"][ZWJ] == ["⟨ZWJ⟩", "U+200D ZERO WIDTH JOINER"]
    for body in (el.proto.body for el in at.get("html")):
        assert not unisolated_rtl(body), body[:300]


def test_the_lesson_isolates_the_words_it_quotes_and_lists():
    from bpeviz.analysis.lesson_parts import Sym, WordSplit
    from bpeviz.present.render_lesson import sentence_html, words_html

    body = sentence_html(["The pair is in “مرحبا” and “سلام”: ", Sym("م", 3)])
    assert "“<bdi>مرحبا</bdi>” and “<bdi>سلام</bdi>”" in body and 'dir="auto"' in body
    assert not unisolated_rtl(body)
    word = WordSplit(index=0, word="مرحبا", count=2, before=(Sym("م", 3),),
                     after=(Sym("م", 3),), changed=False)
    body = words_html([word])
    assert "<td><bdi>مرحبا</bdi>" in body and not unisolated_rtl(body)


def test_compare_draws_a_lone_mark_on_a_dotted_circle_and_names_it(bpe, bbpe, node,
                                                                   tmp_path):
    """The browser's Compare (run in Node on the page's payload): at step 0 every character
    is a chip of its own, a lone mark on a dotted circle, ZWJ by name, each named on hover;
    right-to-left text only in elements of its own direction."""
    from tests.support.compare_drawn import Stage, boxes, compare_payload

    payload = compare_payload([("A", bpe), ("B", bbpe)], TEXT)
    ((tree,),) = Stage(node, tmp_path).draw([(payload, [0])])
    box = boxes(tree)[0]
    chips = box.all("bv-chip")
    shown = [c.text for c in chips]
    assert "◌्" in shown and "◌े" in shown and "⟨ZWJ⟩" in shown
    virama = chips[shown.index("◌्")]
    assert "◌् U+094D DEVANAGARI SIGN VIRAMA" in virama.title
    assert "U+200D ZERO WIDTH JOINER" in chips[shown.index("⟨ZWJ⟩")].title
    assert "⟨U+" not in box.text
    assert all(c.attrs.get("dir") == "auto" for c in chips)
    assert tree.all("bv-diff")  # byte-level BPE cuts it otherwise: the frames are checked too
    for piece, around in tree.texts():
        if rtl(piece):
            assert any(e.attrs.get("dir") == "auto" or e.tag == "bdi" for e in around), piece
