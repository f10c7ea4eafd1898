"""Plotly draws labels and hover texts as plain text, without ``<bdi>``: every token or
piece in a chart is isolated between FSI and PDI (U+2068, U+2069), so that a right-to-left
token neither reorders the tokens and numbers beside it nor is pulled into their order,
and a combining mark with no letter before it sits on a dotted circle (◌्), as the chips
draw it. The tests pin the merge-strength hover and the Unigram lattice's labels, and the
pair heatmap's labels, which the browser draws (heatmap_view.mjs): each in its own
``<bdi>``, and isolated by FSI and PDI in a cell's hover; Python sends each label whole
and bare for that."""

from __future__ import annotations

import html
import re
import unicodedata

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import views
from bpeviz.present import figures
from bpeviz.present.render_heatmap import heatmap_data
from bpeviz.text.display import FSI, PDI, is_mark, label
from tests.support.scripts_paste import TEXT

ISOLATED = re.compile(f"{FSI}([^{FSI}{PDI}]*){PDI}")


def rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def outside(text: str) -> str:
    """``text`` without its isolated pieces."""
    return ISOLATED.sub("", text)


@pytest.fixture(scope="module")
def bpe():
    return train(Corpus.from_text(TEXT), "bpe", merges=40)


def test_heatmap_labels_are_sent_whole_for_the_browser_to_isolate(bpe):
    # the browser puts each label in a <bdi> and between FSI and PDI in a cell's hover
    # (heatmap_view.test.mjs): a label must be one symbol, whole, with no isolate of its
    # own that would close the browser's early
    grid = views.pair_grid(bpe.at(20), 60)
    view = heatmap_data(grid, "count")
    for side, ids in (("rows", grid.rows), ("cols", grid.cols)):
        assert [i for i, _ in view[side]] == list(ids)
        for i, name in view[side]:
            assert name == label(grid.symbols[i]), name
            assert FSI not in name and PDI not in name, name
    names = [name for _, name in view["rows"] + view["cols"]]
    assert any(rtl(name) for name in names), "the test needs Arabic symbols"


def test_a_lone_combining_mark_is_drawn_on_a_dotted_circle_in_the_heatmap():
    training = train(Corpus.from_text("नमस्ते नमस्ते दुनिया स्कूल " * 3), "bpe", merges=2)
    grid = views.pair_grid(training.at(0), 40)
    view = heatmap_data(grid, "count")
    names = [name for _, name in view["rows"] + view["cols"]]
    assert "◌्" in names and "◌े" in names
    assert not any(is_mark(name[0]) for name in names), "no label starts with a bare mark"


def test_the_merge_strength_hover_isolates_left_right_and_token(bpe):
    fig = figures.training_strength_figure(bpe)
    bar = fig.data[0]
    assert "%{hovertext}" in bar.hovertemplate
    frame = views.merges_frame(bpe)
    assert len(bar.hovertext) == len(frame)
    for hover, plain, (left, right, token) in zip(
            bar.hovertext, bar.customdata, zip(frame["left"], frame["right"], frame["token"])):
        assert [html.unescape(p) for p in ISOLATED.findall(hover)] == [left, right, token]
        assert outside(hover) == " +  → " and not rtl(outside(hover))
        assert html.unescape(plain) == f"{left} + {right} → {token}"
    assert any(rtl(h) for h in bar.hovertext), "the test needs an Arabic merge"


def test_the_unigram_lattice_isolates_its_pieces():
    from bpeviz.ui.unigram_figures import lattice_figure
    from bpeviz.unigram.corpus_words import train_corpus
    from bpeviz.unigram.views import word_lattice

    text = " ".join(["سلام", "مرحبا", "كتاب", "नमस्ते", "hello"] * 8)
    training = train_corpus(Corpus.from_text(text, "metaspace"), None, "sentencepiece",
                            shrinking_factor=None)
    found = word_lattice(training.at(0).model, "▁سلام")
    fig = lattice_figure(found)
    texts = []
    for trace in fig.data:
        texts += [t for t in (trace.text or ()) if isinstance(t, str)]
        if isinstance(trace.hovertext, str):
            texts.append(trace.hovertext)
    assert texts and all(t.startswith(FSI) for t in texts), texts
    assert not any(rtl(outside(t)) for t in texts)
    assert any(rtl(t) for t in texts)
