"""Tokenize and Compare draw a token of a text with one chip: the same text (a lone mark
on a dotted circle, an invisible character by name), the same direction of its own, the
same title (id, bytes, the character a partial token is part of, the marks' names) and
the same hatching of an unknown token. Both are drawn by the browser (the stage's "tokens"
and "compare" parts, run in Node on the payloads the pages send)."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis.compare import compare
from bpeviz.ui import train_options
from tests.support.compare_drawn import Stage, boxes, chip, compare_payload, tokens_payload
from tests.support.scripts_paste import TEXT


@pytest.fixture(scope="module")
def bbpe():
    return train(Corpus.from_bytes(TEXT.encode(), "gpt2", "auto"),
                 **train_options("bbpe", merges=40))


def chips_of_both(node, tmp_path, training, text, steps):
    """At each step: the chips Compare draws for the training (beside itself) and the
    chips Tokenize draws, as (text, title, classes, attributes)."""
    tokens = tokens_payload(training, text)
    # what a chip's marks mean (Ġ is a space) Tokenize adds to its titles; Compare's
    # payload carries no such notes, so the chips are compared without them
    del tokens["notes"]
    compared, tokenized = Stage(node, tmp_path).draw(
        [(compare_payload([("A", training), ("B", training)], text), steps),
         (tokens, steps)])
    out = []
    for a, b in zip(compared, tokenized):
        first = [chip(c) for c in boxes(a)[0].all("bv-chip")]
        # Tokenize outlines the tokens the step's merge just made: not the chip's own look
        alone = [(t, title, [c for c in cls if c != "bv-new"], attrs)
                 for t, title, cls, attrs in (chip(c) for c in b.all("bv-chip"))]
        out.append((first, alone))
    return out


def test_compare_draws_each_token_with_the_chip_tokenize_draws(bbpe, node, tmp_path):
    steps = [0, 20, 40]
    for step, (compared, tokenized) in zip(steps, chips_of_both(node, tmp_path, bbpe, TEXT,
                                                                  steps)):
        cut = compare([("A", bbpe.at(step)), ("B", bbpe.at(0))], TEXT).cuts[0]
        assert [int(attrs["data-id"]) for *_, attrs in compared] == list(cut.tokens.ids)
        assert compared == tokenized, step
        assert all(attrs["dir"] == "auto" for *_, attrs in compared)
        assert any("bv-partial" in cls and "part of the character" in title
                   for _, title, cls, _ in compared), step


def test_an_unknown_token_is_hatched_alike_on_tokenize_and_compare(node, tmp_path):
    wordpiece = train(Corpus.from_text("low lower lowest"), **train_options("wordpiece",
                                                                            merges=4))
    ((compared, tokenized),) = chips_of_both(node, tmp_path, wordpiece, "low ∑", [4])
    assert compared == tokenized
    # its bytes are its own text's (∑), not the bytes of the unknown token's label
    assert any("bv-unk" in cls and title.endswith("bytes e2 88 91 · unknown")
               for _, title, cls, _ in compared)
