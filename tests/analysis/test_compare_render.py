"""bpeviz.present.render_compare: what Python draws on Compare (the legend, the metrics
table, the curves) escapes user text, shows the engine's numbers, and keeps each
configuration's colour. The cuts and their marks are the browser's
(tests/analysis/test_compare_view_draws_the_engines_cuts.py)."""

from __future__ import annotations

import argparse
import inspect

from bpeviz import Corpus, train
from bpeviz.analysis.compare import compare, metrics
from bpeviz.present.render_compare import (
    CONFIG_COLOURS,
    colour_rows,
    curve_figure,
    legend_html,
    metrics_table,
)

TRAIN = inspect.getsource(argparse)[:20000] + " naïve café 苹果派 苹果 Москва 😀 " * 5
SNAPS = {
    "bpe": train(Corpus.from_text(TRAIN), "bpe", merges=150).at(),
    "bbpe": train(Corpus.from_text(TRAIN, "gpt2"), "bbpe", merges=150).at(),
    "wordpiece": train(Corpus.from_text(TRAIN), "wordpiece", merges=150).at(),
}


def test_user_text_is_escaped():
    assert "<b>" not in legend_html(["<b>A</b>", "B"])
    fig = curve_figure({"<b>A</b>": [{"step": 0, "tokens": 1}]}, "tokens")
    assert fig.data[0].name == "&lt;b&gt;A&lt;/b&gt;"
    # a metric's name with angle brackets (Unigram's <unk>) shows, not read as a tag
    fig = curve_figure({"A": [{"step": 0, "unk_rate": 0.5}]}, "unk_rate")
    title = fig.layout.yaxis.title.text
    assert "&lt;unk&gt;" in title and "<unk>" not in title


def test_each_configuration_keeps_its_colour():
    text = "the naïve cat 苹果派"
    labels = ["A: BPE", "B: Byte-level BPE", "C: WordPiece"]
    result = compare(list(zip(labels, SNAPS.values())), text)
    legend = legend_html(labels)
    assert [legend.index(c) for c in CONFIG_COLOURS] == sorted(legend.index(c)
                                                               for c in CONFIG_COLOURS)
    rows = {name: [{"step": 0, "vocab_size": 10, "tokens": 5},
                   {"step": 9, "vocab_size": 19, "tokens": 3}] for name in labels}
    fig = curve_figure(rows, "tokens", x="vocab_size", marks={labels[1]: 19})
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.line.color for t in lines] == list(CONFIG_COLOURS)
    assert len(set(CONFIG_COLOURS)) == 3
    (dot,) = [t for t in fig.data if t.mode == "markers"]
    assert dot.marker.color == CONFIG_COLOURS[1] and list(dot.x) == [19]
    table = metrics_table([(cut.label, cut.step, cut.vocab_size, metrics(text, cut.tokens))
                           for cut in result.cuts])
    html = colour_rows(table, labels).to_html()
    assert all(c.lower() in html.lower() for c in CONFIG_COLOURS)


def test_metrics_table_shows_the_engines_numbers():
    text = "the naïve cat 苹果派 sat"
    result = compare([("A", SNAPS["bpe"]), ("B", SNAPS["wordpiece"])], text)
    table = metrics_table([(c.label, c.step, c.vocab_size, metrics(text, c.tokens))
                           for c in result.cuts])
    for row, cut in zip(table.to_dict("records"), result.cuts):
        m = metrics(text, cut.tokens)
        assert row["tokens"] == len(cut.tokens) == m.tokens
        assert row["tokens per word"] == round(m.word_tokens / m.words, 3)
        assert row["vocabulary size"] == cut.vocab_size
