"""Corpus input: text, counts tables, files, and the bad or odd input people bring.

A ``word<TAB>count`` file may start with one header line; a bad line is named (file, line
number, what is wrong) in one sentence, by the library and by the command line, and text
that is not mostly such lines stays text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.text.pretokenize import spans, words
from tests.support.cli import run_cli

any_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=200)


@settings(max_examples=300, deadline=None)
@given(any_text)
def test_whitespace_pretokenizer_is_str_split_with_offsets(text):
    cut = list(spans(text, "whitespace"))
    assert [text[s:e] for s, e in cut] == text.split() == words(text, "whitespace")


@settings(max_examples=300, deadline=None)
@given(any_text, st.sampled_from(["gpt2", "none"]))
def test_gpt2_and_line_pretokenizers_cover_every_character(text, name):
    cut = list(spans(text, name))
    assert "".join(text[s:e] for s, e in cut) == text
    assert all(e > s for s, e in cut)
    assert [text[s:e] for s, e in cut] == words(text, name)


def test_gpt2_pattern_keeps_spaces_and_contractions():
    assert words("I'm  here, 42x!", "gpt2") == ["I", "'m", " ", " here", ",", " 42", "x", "!"]


def test_words_keep_first_appearance_order_and_counts():
    corpus = Corpus.from_text("b a b c a b")
    assert corpus.words == ("b", "a", "c") and corpus.counts == (3, 2, 1)
    assert corpus.total == 6 and len(corpus) == 3


def test_none_pretokenizer_makes_each_line_a_word():
    corpus = Corpus.from_text("ab ab\nab ab\ncd", "none")
    assert corpus.words == ("ab ab\n", "cd") and corpus.counts == (2, 1)
    training = train(corpus, "bpe", merges=3)
    assert any(" " in m.token for m in training.merges)  # merges cross spaces


def test_from_counts_adds_repeats_and_rejects_bad_rows():
    assert Corpus.from_counts([("a", 2), ("b", 1), ("a", 3)]).counts == (5, 1)
    for bad in ({"": 1}, {"a": 0}, {"a": -2}, {"a": 1.5}, {"a": True}):
        with pytest.raises(ValueError):
            Corpus.from_counts(bad)


def test_counts_file_is_detected_and_parsed(tmp_path):
    path = tmp_path / "counts.tsv"
    path.write_bytes(b"low\t5\r\nlower\t2\n\nnewest\t6\n")
    corpus = Corpus.from_file(path)
    assert corpus.words == ("low", "lower", "newest") and corpus.counts == (5, 2, 6)
    assert corpus.pretokenizer == "counts"


def test_counts_format_forced_names_the_bad_line(tmp_path):
    path = tmp_path / "counts.tsv"
    path.write_text("low\t5\nlower two\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 2"):
        Corpus.from_file(path, fmt="counts")


def test_text_file_with_bom_crlf_tabs_and_nul(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_bytes(b"\xef\xbb\xbflow\tlow\r\nlow\x00er\rnew\n")
    corpus = Corpus.from_file(path)
    assert corpus.words == ("low", "low\x00er", "new")
    assert corpus.counts == (2, 1, 1)


def test_file_that_is_not_utf8_says_where(tmp_path):
    path = tmp_path / "latin1.txt"
    path.write_bytes("line one\ncafé au lait".encode("latin-1"))
    with pytest.raises(ValueError, match=r"line 2, column 4.*UTF-8"):
        Corpus.from_file(path)


def test_binary_file_is_refused_clearly(tmp_path):
    path = tmp_path / "image.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(ValueError, match="not UTF-8 text"):
        Corpus.from_file(path)


def test_unknown_pretokenizer_and_format_are_named():
    with pytest.raises(ValueError, match="unknown pre-tokenizer 'roberta'"):
        Corpus.from_text("x", "roberta")
    with pytest.raises(ValueError, match="unknown corpus format"):
        Corpus.from_bytes(b"x", fmt="csv")


def test_digest_is_stable_and_content_sensitive():
    a = Corpus.from_text("low lower")
    assert a.digest == Corpus.from_text("low  lower").digest
    assert a.digest != Corpus.from_text("low lowest").digest
    assert a.digest != Corpus.from_text("low lower", "gpt2").digest


def test_a_very_long_word_and_many_distinct_words_train():
    long_word = "".join("abcdefghij"[(i * 7) % 10] for i in range(10_000))
    training = train(Corpus.from_text(long_word), "bpe", merges=50)
    assert "".join(training.at().splits[long_word]) == long_word
    many = " ".join(f"w{i}" for i in range(100_000))
    training = train(Corpus.from_text(many), "bpe", merges=50)
    assert len(training.corpus) == 100_000 and len(training.merges) == 50


@pytest.mark.parametrize("bad, why", [
    ("lower\tsix", "the count 'six' is not a whole number"),
    ("lower\t²", "the count '²' is not a whole number"),
    ("lower\t-3", "the count -3 is negative"),
    ("lower\t2.5", "the count 2.5 is not a whole number"),
    ("lower\t0", "the count is 0"),
    ("lower 2", "no tab between the word and its count"),
])
@pytest.mark.parametrize("header", ["", "word\tcount\n"])
def test_a_bad_line_in_a_counts_file_is_named(tmp_path, header, bad, why):
    path = tmp_path / "counts.tsv"
    path.write_text(f"{header}low\t5\n{bad}\nnewest\t6\nwidest\t3\n", encoding="utf-8")
    line = 3 if header else 2
    with pytest.raises(ValueError) as err:
        Corpus.from_file(path)  # format "auto"
    message = str(err.value)
    assert message.startswith(f"{path}, line {line}: {why}") and "\n" not in message
    result = run_cli("train", str(path), "--merges", "2", "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr == f"error: {message}\n"
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("header", ["word\tcount", "token\tfrequency", "word\tcount_star()"])
@pytest.mark.parametrize("fmt", ["auto", "counts"])
def test_one_header_line_is_skipped(header, fmt):
    data = f"{header}\r\nlow\t5\r\nlower\t2\r\n".encode()
    corpus = Corpus.from_bytes(data, fmt=fmt, name="counts.tsv")
    assert corpus.words == ("low", "lower") and corpus.counts == (5, 2)
    assert corpus.pretokenizer == "counts"


@pytest.mark.parametrize("text", [
    "Chapter\t1\nIt was a dark and stormy night.\n",   # one tab line in two: text
    "low low lower\nnewest newest\n",
    "a\tb\nc\td\n",                                   # a table of words, no counts
    "word\tcount\n",                                  # a header alone
])
def test_text_that_is_not_mostly_counts_stays_text(text):
    corpus = Corpus.from_bytes(text.encode(), fmt="auto")
    assert corpus.pretokenizer == "whitespace"
    assert corpus == Corpus.from_text(text)
