"""The Vocabulary table reads every script: it is a canvas grid, where no ``<bdi>``
reaches, so each token cell is its drawn label between FSI and PDI (a right-to-left
token leaves the cells around it in order), a combining mark with no letter before it
sits on a dotted circle (◌े) as on the other pages, and a "names" column names each
combining mark and invisible character a token holds by its Unicode name; the page's
legend lists them as Tokenize's does. Expected values come from the training made
directly, never from the page."""

from __future__ import annotations

import json
import unicodedata

import pytest

from bpeviz import Corpus, train
from bpeviz.present import glossary
from bpeviz.text.display import (
    FSI,
    PDI,
    VISIBLE_WHITESPACE,
    is_invisible,
    is_mark,
    label,
    mark_names,
)
from bpeviz.ui import pretokenizer_for, train_options
from tests.support.app import body_with, ok, open_page
from tests.support.scripts_paste import TEXT
from tests.support.trainings import reference

MERGES = 60
SIGN_E, VIRAMA, ZWJ = "\u0947", "\u094d", "\u200d"


def direct(algorithm: str):
    """The paste trained as the app trains it."""
    corpus = Corpus.from_bytes(TEXT.encode(), pretokenizer_for("auto", algorithm), "auto")
    return train(corpus, **train_options(algorithm, merges=MERGES))


def vocabulary(algorithm: str):
    at = open_page("pages/4_Vocabulary.py", source="paste", paste=TEXT, algo=algorithm,
                   merges=MERGES, step=MERGES)
    return ok(at), at.dataframe[0]


def rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def named(text: str) -> list[str]:
    """The characters of ``text`` a names cell should name: combining marks and invisible
    characters (ordinary whitespace has its own drawing, · → ↵)."""
    return [ch for ch in text if is_mark(ch) or (ch not in VISIBLE_WHITESPACE
                                                 and is_invisible(ch))]


def inside(cell: str) -> str:
    """A token cell's text inside its isolate (the cell must be one)."""
    assert cell.startswith(FSI) and cell.endswith(PDI), repr(cell)
    return cell[len(FSI):-len(PDI)]


@pytest.fixture(scope="module")
def bpe():
    return direct("bpe"), *vocabulary("bpe")


def test_every_token_cell_is_its_label_isolated_and_arabic_ones_among_them(bpe):
    training, _, table = bpe
    frame = table.value
    assert len(frame) == len(training.vocab)
    cells = dict(zip(frame["id"], frame["token"]))
    assert all(inside(cells[i]) == label(s) for i, s in enumerate(training.vocab))
    arabic = [i for i, s in enumerate(training.vocab) if rtl(s)]
    assert arabic and all(cells[i] == FSI + label(training.vocab[i]) + PDI for i in arabic)


def test_a_vowel_sign_sits_on_a_dotted_circle_and_is_named(bpe):
    training, _, table = bpe
    rows = table.value.set_index("id")
    alone = training.vocab.index(SIGN_E)  # the sign is a base symbol of its own
    assert inside(rows.loc[alone, "token"]) == "◌" + SIGN_E
    assert rows.loc[alone, "names"] == "◌े U+0947 DEVANAGARI VOWEL SIGN E"
    for i, symbol in enumerate(training.vocab):
        if is_mark(symbol[0]):  # every token that starts with a mark draws the circle
            assert inside(rows.loc[i, "token"]).startswith("◌" + symbol[0]), symbol
        if VIRAMA in symbol:
            assert "U+094D DEVANAGARI SIGN VIRAMA" in rows.loc[i, "names"], symbol


def test_the_joiner_is_named_and_ordinary_tokens_name_nothing(bpe):
    training, _, table = bpe
    rows = table.value.set_index("id")
    joined = [i for i, s in enumerate(training.vocab) if ZWJ in s]
    assert len(joined) >= 2  # the joiner alone and after an emoji
    for i in joined:
        assert "⟨ZWJ⟩ U+200D ZERO WIDTH JOINER" in rows.loc[i, "names"].split(" · ")
    for i, symbol in enumerate(training.vocab):
        assert bool(rows.loc[i, "names"]) == bool(named(symbol)), symbol
        if named(symbol):
            assert rows.loc[i, "names"].split(" · ") == mark_names(symbol)


def test_the_names_column_says_what_it_holds(bpe):
    _, _, table = bpe
    columns = json.loads(table.proto.columns)
    assert "Unicode name" in columns["names"]["help"]
    assert "dotted circle" in columns["token"]["help"]


def test_the_legend_names_the_marks_and_the_joiner_as_tokenize_does(bpe):
    training, at, table = bpe
    shown = [training.vocab[i] for i in table.value["id"]]
    expected = glossary.legend_html(glossary.notes(training, shown))
    legend = body_with(at, "bv-legend")
    assert legend == expected
    assert 'data-note="combining"' in legend and 'data-note="invisible"' in legend
    assert "U+200D ZERO WIDTH JOINER" in legend


def test_byte_level_tokens_name_the_characters_they_hold_whole():
    """A byte-level token's cell shows its bytes (GPT-2's stand-ins); its names column
    names the marks and joiners among the characters it holds whole, and the legend
    lists them."""
    training = direct("bbpe")
    at, table = vocabulary("bbpe")
    rows = table.value.set_index("id")
    holding = {i: s.decode("utf-8", "ignore") for i, s in enumerate(training.vocab)
               if not s.isascii() and named(s.decode("utf-8", "ignore"))}
    assert any(ZWJ in t for t in holding.values())
    assert any(SIGN_E in t for t in holding.values())
    for i, text in holding.items():
        assert rows.loc[i, "names"].split(" · ") == mark_names(text)
        assert inside(rows.loc[i, "token"]) == label(training.vocab[i])
    assert set(rows.index) - set(holding) and not any(
        rows.loc[i, "names"] for i in set(rows.index) - set(holding))
    legend = body_with(at, "bv-legend")
    assert "U+200D ZERO WIDTH JOINER" in legend and "U+0947 DEVANAGARI VOWEL SIGN E" in legend


@pytest.mark.parametrize(("algorithm", "settings", "key"), [
    ("wordpiece", {}, "wordpiece-prefix"), ("bpe", {"marker": "</w>"}, "marker")])
def test_the_legend_explains_every_token_of_the_table(algorithm, settings, key):
    """The legend is the glossary's notes on every token the table shows (the page
    passes the glossary only the tokens a note can be about)."""
    training = reference(algorithm, merges=200, **settings)
    at = ok(open_page("pages/4_Vocabulary.py", algo=algorithm, merges=200, step=200,
                      **settings))
    shown = [training.vocab[i] for i in at.dataframe[0].value["id"]]
    legend = body_with(at, "bv-legend")
    assert legend == glossary.legend_html(glossary.notes(training, shown))
    assert f'data-note="{key}"' in legend
