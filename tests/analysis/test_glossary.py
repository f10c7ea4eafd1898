"""The glossary: a note for each notation on screen, made with a token shown there."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz import Corpus, train
from bpeviz.present.glossary import legend_html, notes, token_notes
from bpeviz.present.render import tokens_html
from bpeviz.samples import load_sample
from bpeviz.text.display import label

TEXT = "The tokenizer learns tokens: lowest newer 自然语言处理 ありがとう 👍🏽 ŋŋ <b>x</b>"
SETTINGS = [("bpe", {}), ("bpe", {"marker": "</w>"}),
            ("bpe", {"marker": "</w>", "marker_style": "glued"}), ("bbpe", {}),
            ("wordpiece", {})]


def trained(algorithm, extra, merges=100):
    corpus = load_sample("tour", "gpt2" if algorithm == "bbpe" else "whitespace")
    return train(corpus, algorithm, merges=merges, **extra)


def expected_keys(training, tokens, byte_style) -> set[str]:
    """The notations present, found directly from the tokens."""
    o, keys = training.options, set()
    for t in tokens:
        if t.unk:
            keys.add("unk")
            continue
        symbol = training.vocab[t.id]
        if t.partial:
            keys.add("partial")
        elif o.algorithm == "bbpe":  # drawn as its text
            symbol = t.text
        if isinstance(symbol, bytes):
            if any(not 0x21 <= b <= 0x7E for b in symbol):
                keys.add("byte-hex" if byte_style == "hex" else "byte-gpt2")
            continue
        if o.algorithm == "wordpiece" and symbol.startswith("##") and len(symbol) > 2:
            keys.add("wordpiece-prefix")
        if o.marker and symbol.endswith(o.marker):
            keys.add("glued-marker" if o.marker_style == "glued" and symbol != o.marker
                     else "marker")
        if any(ch.isspace() for ch in symbol):
            keys.add("space")
    return keys


@pytest.mark.parametrize("byte_style", ["gpt2", "hex"])
@pytest.mark.parametrize(("algorithm", "extra"), SETTINGS)
def test_a_note_for_each_notation_on_screen_and_no_other(algorithm, extra, byte_style):
    training = trained(algorithm, extra)
    for step in (0, 30, 100):
        tokens = list(training.at(step).encode(TEXT))
        found = token_notes(training, TEXT, tokens, byte_style)
        assert {n.key for n in found} == expected_keys(training, tokens, byte_style)
        shown = {label(training.vocab[t.id], byte_style) for t in tokens if not t.unk}
        for note in found:
            if note.key == "wordpiece-prefix" or note.key.endswith("marker"):
                assert note.sample in shown or note.sample == training.options.marker
            if note.key == "unk":
                unknown = [TEXT[t.start:t.end] for t in tokens if t.unk]
                assert f"“{unknown[0]}”" in note.text
            if note.key == "partial":
                first = next(t for t in tokens if t.partial)
                char = TEXT[first.start:first.end]
                assert f"part of “{char}”" in note.text
                assert bytes(first.bytes) in char.encode()
                assert f"whose {len(char.encode())} bytes are" in note.text


def test_explore_symbols_without_text_still_name_partial_bytes():
    training = trained("bbpe", {})
    found = notes(training, [b"\x9c\xe6", b" the"], "hex")
    assert [n.key for n in found] == ["byte-hex", "partial"]
    assert "<0x9C><0xE6>" in found[1].text and "9c e6" in found[1].text


def test_no_notation_no_legend():
    training = trained("bpe", {})
    assert notes(training, ["the", "a"]) == [] and legend_html([]) == ""


def test_the_legend_escapes_what_the_user_typed():
    training = train(Corpus.from_text("low lower"), "bpe", merges=2)
    text = "<img src=x onerror=alert(1)>"
    out = legend_html(token_notes(training, text, list(training.at(2).encode(text))))
    assert "<img" not in out and "&lt;" in out and 'data-note="unk"' in out


def test_a_partial_chip_title_names_its_character_and_its_bytes():
    training = trained("bbpe", {}, merges=0)
    text = "苹"
    out = tokens_html(text, list(training.at(0).encode(text)), "hex")
    titles = [html.unescape(t) for t in re.findall(r'title="([^"]*)"', out)]
    assert len(titles) == 3
    assert all("part of the character “苹” (its bytes: e8 8b b9)" in t for t in titles)
