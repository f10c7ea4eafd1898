"""bpeviz.present.render_compare: the marked HTML matches the engine's differences exactly,
user text is escaped, and each configuration keeps its colour."""

from __future__ import annotations

import argparse
import inspect
from html.parser import HTMLParser

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.analysis.compare import compare, metrics
from bpeviz.present.render_compare import (
    CONFIG_COLOURS,
    colour_rows,
    curve_figure,
    cut_html,
    legend_html,
    metrics_table,
)

TRAIN = inspect.getsource(argparse)[:20000] + " naïve café 苹果派 苹果 Москва 😀 " * 5
SNAPS = {
    "bpe": train(Corpus.from_text(TRAIN), "bpe", merges=150).at(),
    "bbpe": train(Corpus.from_text(TRAIN, "gpt2"), "bbpe", merges=150).at(),
    "wordpiece": train(Corpus.from_text(TRAIN), "wordpiece", merges=150).at(),
}


class Marks(HTMLParser):
    """The ``data-bpeviz-diff`` elements and the token ids drawn inside and outside them."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[bool] = []
        self.diffs: list[tuple[int, int]] = []
        self.inside: list[int] = []
        self.outside: list[int] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        is_diff = "data-bpeviz-diff" in a
        if is_diff:
            self.diffs.append((int(a["data-start"]), int(a["data-end"])))
        if "data-id" in a:
            (self.inside if any(self.stack) else self.outside).append(int(a["data-id"]))
        self.stack.append(is_diff)

    def handle_endtag(self, tag):
        self.stack.pop()


def parse(html: str) -> Marks:
    marks = Marks()
    marks.feed(html)
    assert not marks.stack  # every element closed
    return marks


texts = st.lists(st.sampled_from([*"ab cé苹果 \n\tпр😀,.", "naïve ", "the ", "<b>&"]),
                 max_size=25).map("".join)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts, names=st.lists(st.sampled_from(sorted(SNAPS)), min_size=2, max_size=3),
       only=st.booleans())
def test_marked_runs_are_the_engines_differing_spans(text, names, only):
    result = compare([(n, SNAPS[n]) for n in names], text)
    for i, cut in enumerate(result.cuts):
        marks = parse(cut_html(text, cut, i, only_differences=only))
        assert marks.diffs == list(cut.diff_spans)
        ids = cut.tokens.ids
        assert marks.inside == [t for t, d in zip(ids, cut.differs) if d]
        assert marks.outside == ([] if only else [t for t, d in zip(ids, cut.differs) if not d])


def test_user_text_is_escaped():
    text = '<script>alert(1)</script> "x" & <img src=x onerror=alert(2)>'
    result = compare([("<b>A</b>", SNAPS["bpe"]), ("B", SNAPS["bbpe"])], text)
    for i, cut in enumerate(result.cuts):
        html = cut_html(text, cut, i)
        assert "<script" not in html and "<img" not in html and "<b>" not in html
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
    for i, cut in enumerate(result.cuts):
        assert f"border-left:6px solid {CONFIG_COLOURS[i]}" in cut_html(text, cut, i)
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


def test_only_differences_says_so_when_there_are_none():
    text = "the cat"
    result = compare([("A", SNAPS["bpe"]), ("B", SNAPS["bpe"])], text)
    html = cut_html(text, result.cuts[0], 0, only_differences=True)
    assert "No differences" in html and "data-bpeviz-diff" not in html
