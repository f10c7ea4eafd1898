"""Curves mark where a training's phase changes (SuperBPE's stage 2, from the training's
``landmarks()``): on the step axis and the vocabulary-size axis, in Compare's metric
curves and the corpus-token chart, the name escaped; a one-phase training has no mark."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.analysis.curves import curve_landmarks, metric_curve
from bpeviz.present.figures import token_count_figure
from bpeviz.present.render_compare import colour, curve_figure

TEXT = ("of the cat, of the dog, and of the bird, and of the fish; of the sea. "
        "In the morning the old men read the papers and talk about the weather.\n") * 3


@pytest.fixture(scope="module")
def superbpe():
    return bpeviz.train(TEXT, algorithm="superbpe", merges=60, transition=45)


def landmark_lines(fig) -> list[float]:
    return [s.x0 for s in fig.layout.shapes if s.name == "landmark"]


def test_a_superbpe_curve_is_marked_where_stage_2_starts(superbpe):
    start = superbpe.transition + 1
    assert curve_landmarks(superbpe) == [(start, "stage 2: merges across spaces")]
    assert curve_landmarks(superbpe, "vocab_size") == [
        (superbpe.vocab_size_at(start), "stage 2: merges across spaces")]
    steps = [row["step"] for row in metric_curve(superbpe, "of the sea and the cat")]
    assert {start - 1, start} <= set(steps), "the curve has a point each side of the mark"


def test_a_one_phase_training_has_no_mark():
    bbpe = bpeviz.train(bpeviz.Corpus.from_text(TEXT, "gpt2"), algorithm="bbpe", merges=30)
    assert curve_landmarks(bbpe) == []
    fig = token_count_figure({"corpus tokens": bbpe.token_counts()},
                             landmarks={"corpus tokens": curve_landmarks(bbpe)})
    assert landmark_lines(fig) == []


@pytest.mark.parametrize("x", ["step", "vocab_size"])
def test_compare_curves_draw_the_mark_in_the_configurations_colour(superbpe, x):
    bbpe = bpeviz.train(bpeviz.Corpus.from_text(TEXT, "gpt2"), algorithm="bbpe", merges=60)
    curves = {"A": metric_curve(bbpe, "of the sea"), "B": metric_curve(superbpe, "of the sea")}
    fig = curve_figure(curves, "tokens", x, landmarks={
        "A": curve_landmarks(bbpe, x), "B": curve_landmarks(superbpe, x)})
    (where, _), = curve_landmarks(superbpe, x)
    assert landmark_lines(fig) == [where]
    assert fig.layout.shapes[0].line.color == colour(1)
    assert [a.text for a in fig.layout.annotations] == ["B: stage 2: merges across spaces"]


def test_a_marks_name_is_escaped_in_the_chart():
    fig = token_count_figure({"corpus tokens": [5, 4, 3]},
                             landmarks={"corpus tokens": [(2, "<b>stage</b> 2")]})
    assert landmark_lines(fig) == [2]
    assert "<b>" not in fig.layout.annotations[0].text
