"""Unigram's Tokenize has BPE's "Show pre-tokens": off until asked, then one frame per
pre-token of the record's pre-tokenizer (``pretoken_spans``), in order, each holding the
round's Viterbi tokens that start in it, and a legend of the rules used. No piece of a
Unigram vocabulary crosses a frame's edge (a piece only starts with ``▁``), so every
token ends inside the frame it is drawn in."""

from __future__ import annotations

import html
import re

from bpeviz.algorithms import get as get_algorithm
from bpeviz.text.pretoken_spans import pretoken_spans
from tests.support.app import HOSTILE, html_bodies, ok, unigram_app
from tests.support.trainings import sample_training

TEXT = "The tokenizer learns tokens:  lowest newer, don't panic 42!"
FRAME = re.compile(r'<span class="bv-pretoken" data-rule="(\d+)" style="[^"]*" '
                   r'title="([^"]*)">(.*?)</span></span>')


def pretoken_view(at) -> tuple[str, str] | None:
    bodies = html_bodies(at)
    frames = next((b for b in bodies if "bv-pretokens" in b), None)
    legend = next((b for b in bodies if "bv-pretoken-legend" in b), None)
    return (frames, legend) if frames else None


def test_the_frames_hold_the_rounds_viterbi_tokens_of_each_pre_token():
    at = unigram_app("pages/2_Tokenize.py", uround=1, text=TEXT, text_edited=True)
    assert pretoken_view(at) is None  # off until asked
    ok(at.toggle(key="w_pretokens").set_value(True).run())
    assert not at.error
    frames, legend = pretoken_view(at)
    training = sample_training()
    name = get_algorithm(training.algorithm).pretokenizer
    pieces = [p for p in pretoken_spans(TEXT, name) if not p.is_gap]
    found = FRAME.findall(frames)
    assert [int(rule) for rule, _, _ in found] == [p.rule_index for p in pieces]
    for (_, title, _), piece in zip(found, pieces):
        assert html.unescape(title).startswith(f"pre-token “{piece.text}” · rule "
                                               f"{piece.rule_index + 1}")
    tokens = training.at(1).model.encode(TEXT)
    drawn = [int(i) for _, _, inside in found for i in re.findall(r'data-id="(-?\d+)"', inside)]
    assert drawn == [t.id for t in tokens]  # every token, once, in order
    # a token is drawn in the frame it starts in (▁, the space before a word, in its
    # word's) and ends inside that frame
    k = 0
    for (_, _, inside), piece in zip(found, pieces):
        for _ in re.findall(r'data-id="', inside):
            token = tokens[k]
            assert token.end <= piece.end, (token, piece)
            k += 1
    assert sorted(int(r) for r in re.findall(r'<li data-rule="(\d+)"', legend)) == sorted(
        {p.rule_index for p in pieces})
    # the tokens are still drawn on their own below the frames
    assert any("bv-tokens" in b and "bv-pretokens" not in b for b in html_bodies(at))


def test_the_pre_tokens_of_a_hostile_text_are_text():
    at = unigram_app("pages/2_Tokenize.py", text=HOSTILE, text_edited=True, pretokens=True)
    assert not at.error
    frames, _ = pretoken_view(at)
    assert "<script>" not in frames and "<img" not in frames and "<b>" not in frames
