"""How much of a corpus is runs of a script written without spaces."""

from __future__ import annotations

from bpeviz.text.corpus import Corpus
from bpeviz.text.unspaced import NOTE_SHARE, unspaced_note, unspaced_share

CHINESE = "自然语言处理是人工智能的一个重要分支。它研究如何让计算机理解和生成人类语言。"


def test_a_chinese_paragraph_under_whitespace_is_all_in_runs():
    found = unspaced_share(Corpus.from_text(CHINESE))
    assert found.share > 0.9 and list(found.scripts) == ["Han"]


def test_under_bert_each_ideograph_is_its_own_word_and_no_longer_counts():
    assert unspaced_share(Corpus.from_text(CHINESE, "bert")).share == 0.0
    assert unspaced_note(Corpus.from_text(CHINESE, "bert")) is None


def test_thai_counts_and_the_note_says_no_pretokenizer_splits_it():
    note = unspaced_note(Corpus.from_text("ภาษาไทยไม่มีช่องว่างระหว่างคำ"), "whitespace")
    assert note and "Thai" in note and "No pre-tokenizer here" in note and "BERT" not in note


def test_a_few_chinese_words_in_an_english_corpus_give_no_note():
    text = "the cat sat on the mat " * 20 + "中文"
    assert unspaced_share(Corpus.from_text(text)).share < NOTE_SHARE
    assert unspaced_note(Corpus.from_text(text)) is None


def test_the_note_names_the_pretokenizer_and_suggests_bert_for_han():
    note = unspaced_note(Corpus.from_text(CHINESE), "whitespace")
    assert note and "whitespace pre-tokenizer" in note and "BERT" in note
