"""Compare with a Unigram configuration under AppTest: BPE beside Unigram at equal
vocabulary size, every number and mark from the engine (bpeviz.analysis.compare on trainings made
here the way the app makes them), never from the page."""

from __future__ import annotations

import base64
import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from bpeviz.analysis import compare as cmp
from tests.support.compare import (
    TEXT,
    captions,
    has_stage,
    marks,
    move,
    open_compare,
    same_cuts,
    stage,
)
from tests.support.trainings import reference, unigram_reference

HOSTILE = '<script>alert(1)</script> <img src=x onerror=alert(1)> $x$ **b** & &amp; 苹果'


def values(array) -> list:
    """A Plotly array as a list (a typed array arrives as base64 ``bdata``)."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def chart(at: AppTest, key: str) -> dict:
    return next(json.loads(el.proto.spec) for el in at.get("plotly_chart")
                if el.proto.id.endswith(key) or f"-{key}" in el.proto.id)


def test_bpe_beside_unigram_at_equal_vocabulary_size():
    at = open_compare(text=TEXT, text_edited=True, c2_algo="unigram", cmp_mode="step")
    bpe, uni = reference("bpe"), unigram_reference()
    # merges beside pruning rounds: moved by vocabulary size only, and the page says why
    assert not [b for b in at.number_input if b.key.startswith("cmp_box_cmp_step")]
    assert "B's steps are pruning rounds" in captions(at)
    bar = stage(at, "controls")
    ranges = [cmp.vocab_range(bpe), cmp.vocab_range(uni)]
    assert (bar["lo"], bar["n"]) == (min(r[0] for r in ranges), max(r[1] for r in ranges))
    assert bar["name"] == "Vocabulary size"
    # first shown at the largest size both reach
    assert bar["step"] == min(r[1] for r in ranges)
    seen_steps, marked = set(), 0
    for target in (bar["step"], max(r[0] for r in ranges), bar["n"], bar["lo"]):
        move(at, target)
        assert stage(at, "controls")["step"] == target
        found = [cmp.step_for_vocab_size(t, target) for t in (bpe, uni)]
        seen_steps.add(found[1].step)
        text = captions(at)
        assert re.search(rf"A: [^\n]*step {found[0].step:,} of 200, "
                         rf"{found[0].vocab_size:,} tokens in the vocabulary", text), text
        assert re.search(rf"B: Unigram[^\n]*pruning round {found[1].step:,} of "
                         rf"{len(uni) - 1:,}, {found[1].vocab_size:,} tokens in the "
                         "vocabulary", text), text
        if found[1].note:
            assert found[1].note.replace(":", "").replace("(", "")[:40] in \
                text.replace(":", "").replace("(", "")
        expected = cmp.compare([("A", bpe.at(found[0].step)),
                                ("B", cmp.at(uni, found[1].step))], TEXT)
        same_cuts(at, expected)
        marked += sum(map(len, marks(at)))
        rows = at.dataframe[0].value.set_index("metric")
        # each one's own differing boundaries (the browser's sentence over the cuts says
        # the total, from the marks checked above)
        assert list(rows.loc["token boundaries cut differently", ["A", "B"]]) == \
            [f"{c.own_differing:,}" for c in expected.cuts]
        assert list(rows.loc["tokens", ["A", "B"]]) == [f"{len(c.tokens):,}"
                                                        for c in expected.cuts]
        assert rows.loc["merge step / pruning round", "B"] == f"{found[1].step:,}"
        assert rows.loc["tokens (corpus)", "B"] == \
            f"{int(cmp.corpus_tokens(uni)[found[1].step]):,}"
    assert len(seen_steps) > 1  # the slider moved Unigram between rounds
    assert marked  # BPE and Unigram cut the text differently somewhere: marks were checked


def test_unigram_curves_and_corpus_tokens_have_their_own_step_axis():
    at = open_compare(text=TEXT, text_edited=True, c2_algo="unigram", cmp_x="step")
    uni = unigram_reference()
    spec = chart(at, "compare_curve")
    lines = [t for t in spec["data"] if t["mode"] == "lines"]
    assert [t.get("xaxis", "x") for t in lines] == ["x", "x2"]
    assert spec["layout"]["xaxis2"]["title"]["text"] == "pruning round"
    assert lines[1]["x"] == list(range(len(uni)))
    tokens = chart(at, "compare_tokens_pruning round")
    assert values(tokens["data"][0]["y"]) == [int(n) for n in cmp.corpus_tokens(uni)]
    assert tokens["layout"]["xaxis"]["title"]["text"] == "pruning round"
    assert "**Corpus tokens against pruning round**" in [m.value for m in at.markdown]
    at.radio(key="w_cmp_x").set_value("vocab_size").run()
    spec = chart(at, "compare_curve")
    lines = [t for t in spec["data"] if t["mode"] == "lines"]
    assert [t.get("xaxis", "x") for t in lines] == ["x", "x"]
    assert lines[1]["x"] == [cmp.vocabulary_size(uni, k) for k in range(len(uni))]


def test_two_unigram_configurations_move_by_the_same_pruning_round():
    at = open_compare(text=TEXT, text_edited=True, c1_algo="unigram", c2_algo="unigram",
                      c2_uvariant="course", c2_vocab=300, cmp_mode="step")
    trainings = [unigram_reference(400), unigram_reference(300, "course")]
    # the course's own 300-piece seed is all characters on this sample (no round at all);
    # the seed chosen for the corpus gives the configuration rounds to step through
    assert len(trainings[1]) - 1 >= 3
    assert trainings[1].options["plan"].options["seed_size"] > 300
    bar = stage(at, "controls")
    assert bar["name"].startswith("Pruning round") and bar["lo"] == 0
    assert bar["n"] == max(len(t) - 1 for t in trainings)
    for k in (0, 1, int(bar["n"])):
        move(at, k)
        steps = [min(k, len(t) - 1) for t in trainings]
        expected = cmp.compare([(letter, cmp.at(t, s))
                                for letter, t, s in zip("AB", trainings, steps)], TEXT)
        same_cuts(at, expected)
        for letter, t, s in zip("AB", trainings, steps):
            assert f"{letter}: Unigram" in captions(at)
            assert f"pruning round {s:,} of {len(t) - 1:,}" in captions(at)


@pytest.mark.parametrize("vocab", [1, 3, 10])
def test_a_unigram_configuration_with_a_tiny_vocabulary_or_hostile_text_does_not_break(vocab):
    try:
        unigram_reference(vocab)
        problem = None
    except ValueError as err:
        problem = str(err)
    at = open_compare(text=HOSTILE, text_edited=True, c2_algo="unigram", c2_vocab=vocab)
    assert not at.exception
    bodies = [el.proto.body for el in at.get("html")]
    assert all("<script>" not in b and "<img" not in b for b in bodies)
    if problem is None:  # trained: the hostile text travels as data (drawn as text)
        data = stage(at, "compare")
        assert data["text"] == HOSTILE and len(data["configs"]) == 2
    else:  # not trainable: the engine's message, and no cut
        assert not has_stage(at, "compare")
        assert any(problem.replace("_", "") in e.value.replace("\\", "").replace("_", "")
                   for e in at.error), [e.value for e in at.error]
