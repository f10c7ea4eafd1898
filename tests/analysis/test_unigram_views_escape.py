"""Every Unigram view escapes the pieces it names, on a corpus whose hostile words
(``<b>x</b>``, ``<img``, ``onerror=alert(1)>``, ``&amp;``, ``<i>y</i>``) become
multi-character pieces: the round card (its lead sentence, chips and alternatives), the
segmentation cloud, the lattice drawing's labels and hover texts, and the removed
table. A ``<`` in the HTML only ever opens the views' own tags; a piece's text reads
back exactly (so ``&amp;`` is written ``&amp;amp;``)."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from bpeviz import Corpus
from bpeviz.text import display
from bpeviz.ui.unigram_figures import lattice_figure
from bpeviz.unigram.cards import cloud_html, round_card_html
from bpeviz.unigram.corpus_words import train_corpus
from bpeviz.unigram.views import (
    removed_at,
    removed_frame,
    segmentation_cloud,
    used_removals,
    word_lattice,
)

HOSTILE_WORDS = ["<b>x</b>", "<img", "onerror=alert(1)>", "&amp;", "<i>y</i>", "x&lt;y",
                 "<b>", "</b>y"]
TEXT = " ".join(HOSTILE_WORDS * 6 + ["hug", "pug", "hugs", "<b>hug</b>"] * 4)
OWN_TAGS = {"div", "span", "strong", "b", "table", "thead", "tbody", "tr", "th", "td"}


def trained(variant: str):
    options = {"seed_size": None} if variant == "course" else {"shrinking_factor": None}
    return train_corpus(Corpus.from_text(TEXT, "metaspace"), None, variant, **options)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)

    def handle_data(self, data):
        self.text.append(data)


def check_html(body: str, named: list[str]) -> None:
    """Only the views' own tags, no event handler, and each named piece reads back."""
    own = re.compile(r"</?(" + "|".join(OWN_TAGS) + r")[\s>]")
    for match in re.finditer(r"<", body):
        tail = body[match.start():match.start() + 12]
        assert own.match(tail), tail
    reader = _Reader()
    reader.feed(body)
    assert set(reader.tags) <= OWN_TAGS
    assert not [name for name, _ in reader.attrs if name.startswith("on")]
    readable = "".join(reader.text) + " ".join(v or "" for _, v in reader.attrs)
    for piece in named:
        assert display.label(piece) in readable, piece


def hostile(piece: str) -> bool:
    return len(piece) > 1 and any(ch in piece for ch in "<>&")


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_round_card_escapes_every_piece_it_names(variant):
    training = trained(variant)
    named_hostile = 0
    for k in range(len(training)):
        body = round_card_html(training, k)
        used = used_removals(removed_at(training, k))
        named = [r.piece for r in used[:4]] + [p for r in used[:4] for p in r.alternative]
        check_html(body, named)
        named_hostile += sum(map(hostile, named))
        if used:  # the lead sentence names the cheapest piece
            assert f"‘{html.escape(display.label(used[0].piece), quote=False)}’" in body
    if variant == "sentencepiece":
        assert named_hostile, "the corpus must make the card name a hostile piece"


def test_the_lead_sentence_names_a_hostile_piece_in_some_round():
    training = trained("sentencepiece")
    leads = [used_removals(removed_at(training, k))[0].piece
             for k in range(1, len(training)) if used_removals(removed_at(training, k))]
    assert any(hostile(p) for p in leads), leads


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_cloud_escapes_its_pieces(variant):
    model = trained(variant).at(0).model
    named = []
    for word in ("<b>x</b>", "&amp;", "<i>y</i>", "onerror=alert(1)>", "</b>y"):
        cloud = segmentation_cloud(model, word, samples=30, alpha=0.5)
        best = tuple(t.text for t in model.encode(word))
        body = cloud_html(cloud, 30, best, model)
        pieces = [p for split, _ in cloud[:8] for p in split]
        check_html(body, pieces)
        named += pieces
    assert any(hostile(p) for p in named), named


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_lattice_labels_and_hover_texts_are_escaped(variant):
    model = trained(variant).at(0).model
    pieces = []
    for word in ("▁<b>x</b>", "▁&amp;", "▁<i>y</i>", "▁<img", "▁</b>y"):
        found = word_lattice(model, word)
        pieces += [n[2] for n in found.nodes if n[2]]
        fig = lattice_figure(found)
        texts = []
        for trace in fig.data:
            texts += [t for t in (trace.text or ()) if isinstance(t, str)]
            if isinstance(trace.hovertext, str):
                texts.append(trace.hovertext)
        for text in texts:
            # Plotly reads <b>, <i>, <br>, <a> in labels: only the drawing's own <br>
            assert re.sub(r"<br>", "", text).count("<") == 0, text
        shown = html.unescape(" ".join(texts).replace("<br>", " ")).replace("&#36;", "$")
        for node in found.nodes:
            if node[2] is not None:
                assert display.label(node[2]) in shown, node[2]
    assert any(hostile(p) for p in pieces), pieces


def test_the_removed_table_holds_the_pieces_as_text():
    """st.dataframe draws cells as text (no HTML): the frame holds each piece as it is,
    neither escaped nor altered."""
    training = trained("sentencepiece")
    seen = []
    for k in range(1, len(training)):
        removed = removed_at(training, k)
        frame = removed_frame(removed)
        assert sorted(frame["piece"]) == sorted(r.piece for r in removed)
        seen += [p for p in frame["piece"] if hostile(p)]
        for r in removed:
            row = frame[frame["piece"] == r.piece].iloc[0]
            expected = " + ".join(f"‘{display.label(p)}’" for p in r.alternative or ())
            assert row["instead"] == (expected if r.alternative else "")
    assert seen
