"""Tokenize's "Show pre-tokens" draws the engine's pre-tokens: one frame per pre-token
that ``pretoken_spans`` finds, in order, each naming the rule that cut it, the step's
tokens inside the frame they start in, and a legend of the rules used; for BPE (the
whitespace pre-tokenizer), byte-level BPE (GPT-2's pattern), WordPiece (BERT's) and
SuperBPE (its stage-2 pattern: frames that hold several words). A frame must never hold
a token of another pre-token: that would show BPE crossing a boundary it cannot cross."""

from __future__ import annotations

import html
import re

import pytest

from bpeviz import train
from bpeviz.core.recount import pretokenizer_of
from bpeviz.samples import sample_bytes
from bpeviz.text.pretoken_spans import pretoken_spans
from tests.support.app import HOSTILE, ok, open_page
from tests.support.trainings import reference

TEXT = "I'm here, don't panic: 42 tokens!  שלום  ありがとう"
FRAME = re.compile(r'<span class="bv-pretoken" data-rule="(\d+)" style="[^"]*" '
                   r'title="([^"]*)">(.*?)</span></span>')


def pretoken_view(at) -> tuple[str, str]:
    bodies = [el.proto.body for el in at.get("html")]
    frames = next(b for b in bodies if "bv-pretokens" in b)
    legend = next(b for b in bodies if "bv-pretoken-legend" in b)
    return frames, legend


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece", "superbpe"])
def test_the_frames_are_the_engines_pre_tokens_with_their_rules(algorithm):
    training = (train(sample_bytes("tour").decode("utf-8"), algorithm="superbpe", merges=200)
                if algorithm == "superbpe" else reference(algorithm))  # SuperBPE: the text
    at = open_page("pages/2_Tokenize.py", algo=algorithm, step=100, text=TEXT,
                   text_edited=True, pretokens=True)
    assert not at.error
    frames, legend = pretoken_view(at)
    pieces = [p for p in pretoken_spans(TEXT, pretokenizer_of(training)) if not p.is_gap]
    found = FRAME.findall(frames)
    assert [int(rule) for rule, _, _ in found] == [p.rule_index for p in pieces]
    for (_, title, _), piece in zip(found, pieces):
        title = html.unescape(title)
        assert title.startswith(f"pre-token “{piece.text}” · rule {piece.rule_index + 1}: "
                                f"{piece.description}")
    # the tokens inside each frame are the step's tokens of that pre-token, in order
    tokens = list(training.at(100).encode(TEXT))
    for (_, _, inside), piece in zip(found, pieces):
        ids = [int(i) for i in re.findall(r'data-id="(-?\d+)"', inside)]
        assert ids == [t.id for t in tokens if piece.start <= t.start < piece.end]
    # the legend names each rule used once
    assert sorted(int(r) for r in re.findall(r'<li data-rule="(\d+)"', legend)) == sorted(
        {p.rule_index for p in pieces})


def test_the_pre_tokens_are_off_until_asked_and_escape_the_text():
    at = open_page("pages/2_Tokenize.py", step=50, text=HOSTILE, text_edited=True)
    assert not any("bv-pretokens" in el.proto.body for el in at.get("html"))
    ok(at.toggle(key="w_pretokens").set_value(True).run())
    assert not at.error
    frames, _ = pretoken_view(at)
    # the user's markup is text in the frames, never elements
    assert "<script>" not in frames and "<img" not in frames and "<b>" not in frames


def test_metaspaces_word_marks_sit_in_the_frame_of_their_word():
    # "▁" stands for the space before its word: its chip belongs in that word's frame,
    # never in the dropped gap between frames
    at = open_page("pages/2_Tokenize.py", step=50, pretok="metaspace", text=TEXT,
                   text_edited=True, pretokens=True)
    assert not at.error
    frames, _ = pretoken_view(at)
    gaps = re.findall(r'<span class="bv-gap"[^>]*>(.*?)</span>', frames)
    assert gaps and not any("bv-chip" in gap for gap in gaps)
    assert frames.count("bv-chip") == len(re.findall(r'data-id="', frames))
