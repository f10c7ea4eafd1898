"""Tokenize and Compare draw a token of a text with one chip: the same text (a lone mark
on a dotted circle, an invisible character by name), the same direction of its own, the
same title (id, bytes, the character a partial token is part of, the marks' names) and
the same hatching of an unknown token."""

from __future__ import annotations

import re

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.compare import compare
from bpeviz.present.render import tokens_html
from bpeviz.present.render_compare import cut_html
from bpeviz.ui import train_options
from tests.support.scripts_paste import TEXT

CHIP = re.compile(r'<span class="bv-chip[^"]*"[^>]*>[^<]*</span>')


@pytest.fixture(scope="module")
def bbpe():
    return train(Corpus.from_bytes(TEXT.encode(), "gpt2", "auto"),
                 **train_options("bbpe", merges=40))


@pytest.mark.parametrize("step", [0, 20, 40])
def test_compare_draws_each_token_with_the_chip_tokenize_draws(bbpe, step):
    cut = compare([("A", bbpe.at(step)), ("B", bbpe.at(0))], TEXT).cuts[0]
    compared = CHIP.findall(cut_html(TEXT, cut, 0))
    tokenized = CHIP.findall(tokens_html(TEXT, list(cut.tokens)))
    assert len(compared) == len(cut.tokens)
    assert compared == tokenized
    assert any("bv-partial" in c and "part of the character" in c for c in compared)


def test_an_unknown_token_is_hatched_alike_on_tokenize_and_compare():
    wordpiece = train(Corpus.from_text("low lower lowest"), **train_options("wordpiece",
                                                                            merges=4))
    text = "low ∑"
    cut = compare([("A", wordpiece.at(4)), ("B", wordpiece.at(0))], text).cuts[0]
    compared = CHIP.findall(cut_html(text, cut, 0))
    assert compared == CHIP.findall(tokens_html(text, list(cut.tokens)))
    assert any("bv-unk" in c and "unknown" in c for c in compared)
