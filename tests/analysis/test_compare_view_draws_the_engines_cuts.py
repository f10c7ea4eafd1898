"""Compare's cuts as the browser draws them (bpeviz/ui/stepper/src/compare_view.mjs, run in
Node on the page's own payload): the marked runs are the engine's differing spans in both
modes, user text is set as text, each configuration keeps its colour, and a cut with
nothing to mark says so. Python draws none of it: the engine (bpeviz.analysis.compare) is
the reference."""

from __future__ import annotations

import argparse
import inspect
import random

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import compare as cmp
from bpeviz.present.render_compare import CONFIG_COLOURS, CONFIG_LETTERS
from tests.support.compare_drawn import Stage, boxes, compare_payload, marks

TRAIN = inspect.getsource(argparse)[:20000] + " naïve café 苹果派 苹果 Москва 😀 " * 5
MERGES = 150
# pieces of the texts cut: partial bytes (CJK, emoji), marks, whitespace, markup
PIECES = [*"ab cé苹果 \n\tпр😀,.", "naïve ", "the ", "<b>&"]


@pytest.fixture(scope="module")
def trainings():
    return {"bpe": train(Corpus.from_text(TRAIN), "bpe", merges=MERGES),
            "bbpe": train(Corpus.from_text(TRAIN, "gpt2"), "bbpe", merges=MERGES),
            "wordpiece": train(Corpus.from_text(TRAIN), "wordpiece", merges=MERGES)}


@pytest.fixture
def stage(node, tmp_path):
    return Stage(node, tmp_path)


def engine(configurations, step: int, text: str) -> cmp.Comparison:
    """The engine's comparison with every configuration at ``step`` (or its last)."""
    return cmp.compare([(label, cmp.at(t, min(step, cmp.last_step(t))))
                        for label, t in configurations], text)


def texts(count: int, seed: int = 7) -> list[str]:
    """A seeded mix of :data:`PIECES` (up to 25 each), and the edge cases."""
    rng = random.Random(seed)
    return ["", " ", "<b>&", *("".join(rng.choice(PIECES) for _ in range(rng.randint(1, 25)))
                               for _ in range(count))]


STEPS = (0, 40, MERGES)


@pytest.mark.parametrize("only", [False, True], ids=["every token", "only the differences"])
def test_marked_runs_are_the_engines_differing_spans(trainings, stage, only):
    rng = random.Random(11)
    cases = []
    for text in texts(40):
        names = rng.sample(sorted(trainings), rng.choice([2, 3]))
        if rng.random() < 0.2:
            names[1] = names[0]  # the same configuration twice: nothing differs
        configurations = [(f"{letter}: {n}", trainings[n]) for letter, n in zip("ABC", names)]
        cases.append((configurations, text))
    drawn = stage.draw([(compare_payload(c, text, only=only), STEPS) for c, text in cases])
    seen = 0
    for (configurations, text), trees in zip(cases, drawn):
        for step, tree in zip(STEPS, trees):
            expected = engine(configurations, step, text)
            (count,) = tree.all("bv-cmp-count")  # the sentence over the cuts: its numbers
            assert count.attrs["data-differing"] == str(expected.n_differing)
            for letter, cut in zip(CONFIG_LETTERS, expected.cuts):
                assert f"{letter} {'cuts at' if letter == 'A' else 'at'} " \
                       f"{cut.own_differing:,}" in count.text or not expected.n_differing
            found = boxes(tree)
            assert len(found) == len(expected.cuts)
            for box, cut in zip(found, expected.cuts):
                m = marks(box)
                assert m.diffs == list(cut.diff_spans), (text, step, cut.label)
                ids = cut.tokens.ids
                assert m.inside == [t for t, d in zip(ids, cut.differs) if d]
                assert m.outside == ([] if only else
                                     [t for t, d in zip(ids, cut.differs) if not d])
                seen += len(m.diffs)
    assert seen  # the configurations do cut some texts differently: marks were checked


def test_user_text_is_set_as_text_never_read_as_html(trainings, stage):
    text = '<script>alert(1)</script> "x" & <img src=x onerror=alert(2)> <b>b</b>'
    configurations = [("<b>A</b>", trainings["bpe"]), ("B <i>", trainings["bbpe"])]
    (trees,) = stage.draw([(compare_payload(configurations, text), [MERGES])])
    (tree,) = trees
    assert {e.tag for e, _ in tree.walk()} <= {"div", "span", "b"}
    for box in boxes(tree):
        assert not [e for e, _ in box.walk() if e.tag == "b"]  # no markup of the text's
        # every character of the text as typed (a lone space token shows its label, Ġ)
        drawn = box.text.replace("Ġ", " ")
        assert "<script>alert(1)</script>" in drawn and "<img src=x onerror=alert(2)>" in drawn
        assert "<b>b</b>" in drawn
    assert "<b>A</b>" not in tree.text  # a label stays in Python's escaped legend


def test_each_configuration_keeps_its_colour(trainings, stage):
    text = "the naïve cat 苹果派"
    configurations = list(zip(["A: BPE", "B: Byte-level BPE", "C: WordPiece"],
                              trainings.values()))
    (trees,) = stage.draw([(compare_payload(configurations, text), [MERGES])])
    found = boxes(trees[0])
    assert len(found) == 3 and len(set(CONFIG_COLOURS)) == 3
    frames = 0
    for i, box in enumerate(found):
        assert box.attrs["data-config"] == CONFIG_LETTERS[i]
        assert f"border-left:6px solid {CONFIG_COLOURS[i]}" in box.attrs["style"]
        for e, _ in box.walk():  # its frames are dashed in its colour too
            if "data-bpeviz-diff" in e.attrs:
                assert f"dashed {CONFIG_COLOURS[i]};" in e.attrs["style"]
                frames += 1
    assert frames


def test_only_differences_says_so_when_there_are_none(trainings, stage):
    configurations = [("A", trainings["bpe"]), ("B", trainings["bpe"])]
    (trees,) = stage.draw([(compare_payload(configurations, "the cat", only=True),
                            [0, MERGES])])
    for tree in trees:
        assert not [e for e, _ in tree.walk() if "data-bpeviz-diff" in e.attrs]
        assert [m.text for m in tree.all("bv-cmp-count")] == [
            "No differences: every configuration cuts this text at the same places."]
        for box in boxes(tree):
            assert not box.all("bv-chip")
            assert box.text == "No differences: this configuration cuts the text as the " \
                               "others do."
